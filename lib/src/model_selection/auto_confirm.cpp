// The leaders' race after kestrel-auto's search (docs/auto.md, "Confirming the leaders"):
// who is tied with the best and who stays in the race after a round; and the room the time
// budget keeps for the fits that save the choice ("The budget"). auto_search.cpp runs the
// rounds and the schedule; these are the rules.
#include <algorithm>
#include <cmath>
#include <set>

#include "kestrel/model_selection/auto_search.hpp"
#include "search_run.hpp"

namespace kestrel {

std::vector<std::size_t> confirmation_leaders(const std::vector<AutoCandidate>& candidates, bool greater, int at_most) {
    if (at_most < 2) return {};
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < candidates.size(); ++i)
        if (std::isfinite(candidates[i].score.mean)) order.push_back(i);
    if (order.size() < 2) return {};
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return detail::better_score(candidates[a].score.mean, candidates[b].score.mean, greater);
    });
    const AutoCandidate& top = candidates[order.front()];
    const std::size_t k = top.fold_scores.size();
    const double se = k > 1 ? top.score.std / std::sqrt(static_cast<double>(k - 1)) : 0.0;
    const double bound = greater ? top.score.mean - se : top.score.mean + se;
    std::vector<std::size_t> tied;
    for (std::size_t i : order) {
        const double m = candidates[i].score.mean;
        if (greater ? m >= bound : m <= bound) tied.push_back(i);
    }
    std::vector<std::size_t> leaders;
    std::vector<bool> taken(tied.size(), false);
    std::set<std::string> families;
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t t = 0; t < tied.size(); ++t) {
            if (leaders.size() >= static_cast<std::size_t>(at_most)) break;
            if (taken[t] || (pass == 0 && !families.insert(candidates[tied[t]].model).second)) continue;
            taken[t] = true;
            leaders.push_back(tied[t]);
        }
    if (leaders.size() < 2) return {};
    return leaders;
}

std::vector<std::size_t> confirmation_survivors(const std::vector<AutoCandidate>& candidates,
                                                const std::vector<std::size_t>& alive, bool greater) {
    const AutoCandidate* top = nullptr;
    for (std::size_t i : alive)
        if (std::isfinite(candidates[i].score.mean) &&
            (top == nullptr || detail::better_score(candidates[i].score.mean, top->score.mean, greater)))
            top = &candidates[i];
    if (top == nullptr) return alive;
    const std::size_t n = top->repeat_fold_scores.size();
    const double se = n > 1 ? top->score.std / std::sqrt(static_cast<double>(n - 1)) : 0.0;
    const double bound = greater ? top->score.mean - se : top->score.mean + se;
    std::vector<std::size_t> survivors;
    for (std::size_t i : alive) {
        const double m = candidates[i].score.mean;
        if (greater ? m >= bound : m <= bound) survivors.push_back(i);
    }
    return survivors;
}

namespace {

// What saving candidate c again costs: its K fold fits (the evaluation's wall time), or one
// fit on all rows (its mean fold fit, on K / (K - 1) times the rows).
double final_fit_cost(const AutoCandidate& c, AutoOptions::FinalFits how) {
    const auto k = static_cast<double>(c.fold_scores.size());
    if (how == AutoOptions::FinalFits::refit_full) return k > 1 ? c.fit_seconds * k / (k - 1) : c.fit_seconds;
    return c.seconds;
}

}  // namespace

double final_fit_estimate(const std::vector<AutoCandidate>& candidates, const AutoOptions& opts, bool greater) {
    if (opts.final_fits == AutoOptions::FinalFits::none || candidates.empty()) return 0;
    std::vector<std::size_t> order(candidates.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return detail::better_score(candidates[a].score.mean, candidates[b].score.mean, greater);
    });
    double single = final_fit_cost(candidates[order.front()], opts.final_fits);
    for (std::size_t i : confirmation_leaders(candidates, greater, opts.confirm_splits > 0 ? opts.confirm_leaders : 0))
        single = std::max(single, final_fit_cost(candidates[i], opts.final_fits));
    // Several members: each family's best, in rank order (a stack takes them first).
    auto families_best = [&](std::size_t at_most) {
        double seconds = 0;
        std::set<std::string> families;
        for (std::size_t i : order)
            if (families.size() < at_most && families.insert(candidates[i].model).second)
                seconds += final_fit_cost(candidates[i], opts.final_fits);
        return seconds;
    };
    double several = 0;
    if (opts.ensemble_size > 0) several = families_best(candidates.size());
    if (opts.stack_members > 0) several = std::max(several, families_best(static_cast<std::size_t>(opts.stack_members)));
    return std::max(single, several);
}

}  // namespace kestrel
