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

void trim_auto_pool(std::vector<AutoCandidate>& leaderboard, const AutoOptions& opts, bool greater) {
    std::vector<AutoCandidate*> holders;
    for (auto& c : leaderboard)
        if (!c.oof.empty()) holders.push_back(&c);
    // The stack takes each family's best first: a wider pool than its members lets it find them.
    const int keep = std::max(opts.ensemble_size > 0 ? opts.ensemble_nbest : 0, kAutoStackPoolFactor * opts.stack_members);
    if (holders.size() <= static_cast<std::size_t>(keep)) return;
    AutoCandidate* worst = holders.front();
    for (AutoCandidate* c : holders)
        if (!better_score(c->score.mean, worst->score.mean, greater)) worst = c;
    std::vector<Predictions>().swap(worst->oof);
}

AutoEnsemble build_auto_ensemble(const AutoResult& r, const AutoOptions& opts) {
    AutoEnsemble e;
    e.rounds = opts.ensemble_size;
    e.best_single = summarize(r.leaderboard.front().fold_scores).mean;  // on the folds the ensemble is scored on
    std::vector<std::size_t> pool;
    std::vector<std::vector<Predictions>> oof;
    for (std::size_t i = 0; i < r.leaderboard.size() && pool.size() < static_cast<std::size_t>(opts.ensemble_nbest); ++i) {
        if (r.leaderboard[i].oof.empty()) continue;
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
        e.kept = better_score(e.held_out.mean, e.held_out_single.mean, r.greater_is_better);
        const AutoCandidate& winner = r.leaderboard.front();
        if (winner.confirmed()) {
            e.against_confirmed = true;
            e.confirmed_single = winner.score.mean;
            e.kept = e.kept && better_score(e.held_out.mean, e.confirmed_single, r.greater_is_better);
        }
    } else {
        e.kept = better_score(e.score.mean, e.best_single, r.greater_is_better);
    }
    return e;
}

}  // namespace kestrel::detail
