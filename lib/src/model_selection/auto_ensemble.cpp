#include "auto_ensemble.hpp"

#include <algorithm>

#include "kestrel/model_selection/ensemble_selection.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "search_run.hpp"

namespace kestrel::detail {

bool auto_keeps_predictions(const AutoOptions& opts) { return opts.ensemble_size > 0 || opts.stack_members > 0; }

bool auto_can_join(const std::vector<Predictions>& oof, const ModelSpec& spec, const AutoOptions& opts) {
    if (opts.ensemble_excludes_absent_missing && registry().capabilities(*resolved_params(spec)).absent_is_missing)
        return false;
    for (const auto& p : oof)
        if (p.task == Task::classification && p.proba.size() == 0) return false;
    return !oof.empty();
}

namespace {

// Whether c is the best holder of predictions of its family (the earlier on ties).
bool family_best_holder(const std::vector<AutoCandidate>& leaderboard, const AutoCandidate& c, bool greater) {
    bool before = true;
    for (const auto& o : leaderboard) {
        if (&o == &c) {
            before = false;
            continue;
        }
        if (o.oof.empty() || o.model != c.model) continue;
        if (better_score(o.score.mean, c.score.mean, greater)) return false;
        if (before && !better_score(c.score.mean, o.score.mean, greater)) return false;  // a tie: the earlier
    }
    return true;
}

}  // namespace

void trim_auto_pool(std::vector<AutoCandidate>& leaderboard, const AutoOptions& opts, bool greater) {
    std::vector<AutoCandidate*> holders;
    for (auto& c : leaderboard)
        if (!c.oof.empty()) holders.push_back(&c);
    // The stack takes each family's best first: a wider pool than its members lets it find them.
    const int keep = std::max(opts.ensemble_size > 0 ? opts.ensemble_nbest : 0, kAutoStackPoolFactor * opts.stack_members);
    if (holders.size() <= static_cast<std::size_t>(keep)) return;
    // Each family's best keeps its predictions beyond the pool's size: a search that drew
    // many near copies of one family would otherwise leave the ensemble and the stack
    // nothing else to combine.
    AutoCandidate* worst = nullptr;
    for (AutoCandidate* c : holders)
        if ((worst == nullptr || !better_score(c->score.mean, worst->score.mean, greater)) &&
            !family_best_holder(leaderboard, *c, greater))
            worst = c;
    if (worst != nullptr) std::vector<Predictions>().swap(worst->oof);
}

AutoEnsemble build_auto_ensemble(const AutoResult& r, const AutoOptions& opts) {
    AutoEnsemble e;
    e.rounds = opts.ensemble_size;
    e.best_single = summarize(r.leaderboard.front().fold_scores).mean;  // on the folds the ensemble is scored on
    std::vector<std::size_t> pool;
    std::vector<std::vector<Predictions>> oof;
    for (std::size_t i = 0; i < r.leaderboard.size(); ++i) {
        if (r.leaderboard[i].oof.empty()) continue;
        if (pool.size() >= static_cast<std::size_t>(opts.ensemble_nbest) &&
            !family_best_holder(r.leaderboard, r.leaderboard[i], r.greater_is_better))
            continue;
        pool.push_back(i);
        oof.push_back(r.leaderboard[i].oof);
    }
    e.pool = pool.size();
    if (pool.empty()) {
        e.note = "no candidate can join an ensemble (a classifier's must give probabilities)";
        return e;
    }
    const EnsembleSelection s = select_ensemble(oof, opts.metric, opts.ensemble_size);
    for (std::size_t m : s.members) e.members.push_back(pool[m]);
    e.weights = s.weights;
    e.fold_scores = s.fold_scores;
    e.score = s.score;
    // The score above was made on the predictions the weights were chosen on, so it flatters
    // the ensemble; the best single model is flattered too (the best of many draws). Each is
    // checked on folds its choice did not see, and the ensemble must win there.
    if (s.fold_scores.size() >= 2) {
        e.held_out_scores = held_out_ensemble_scores(oof, opts.metric, opts.ensemble_size);
        std::vector<std::vector<double>> single;
        for (const auto& c : r.leaderboard) single.push_back(c.fold_scores);
        e.held_out_single_scores = held_out_best_scores(single, r.greater_is_better);
        e.held_out = summarize(e.held_out_scores);
        e.held_out_single = summarize(e.held_out_single_scores);
        // Also against the winner's own mean on these folds: a paired comparison (its mean on a
        // confirmation's fresh folds would be on other rows), and one the winner's curse
        // flatters, so an ensemble must be clearly better to replace it.
        e.kept = better_score(e.held_out.mean, e.held_out_single.mean, r.greater_is_better) &&
                 better_score(e.held_out.mean, e.best_single, r.greater_is_better);
    } else {
        e.kept = better_score(e.score.mean, e.best_single, r.greater_is_better);
    }
    return e;
}

}  // namespace kestrel::detail
