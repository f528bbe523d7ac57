// The leaders' race after kestrel-auto's search (docs/auto.md, "Confirming the leaders"):
// who is tied with the best and who stays in the race after a round. auto_search.cpp runs
// the rounds; these are the rules.
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

}  // namespace kestrel
