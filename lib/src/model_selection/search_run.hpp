#pragma once
// One search (grid, random or halving) over fixed candidates on one dataset, as a
// sequence of rounds: each round hands out its fits as jobs and takes their outcomes
// back. Nested CV drives one run per outer fold in lockstep, so every round of every
// outer fold shares one parallel loop.
#include <memory>
#include <span>
#include <vector>

#include "fit_jobs.hpp"
#include "kestrel/model_selection/grid_search.hpp"

namespace kestrel::detail {

class SearchRun {
public:
    // `candidates` and `specs` are parallel; `data` must outlive the run. `seed` is the
    // run's master seed (folds, halving subsamples, fit seeds); `outer` (0-based, of `n_outer`
    // outer folds) labels its fits "outer fold k/K: ..., fold j/J".
    SearchRun(std::vector<GridPoint> candidates, std::vector<ModelSpec> specs, const Dataset& data,
              const SearchOptions& opts, std::uint64_t seed, int outer, int n_outer = 0);

    bool done() const { return done_; }
    // Rounds still to run, the next included (halving; 1 for a grid or random search).
    int rounds_left() const { return n_iterations_ - iteration_; }
    // Appends this round's fits; the jobs point into the run, which must not move
    // until take() has had their outcomes (in the same order).
    void next_round(std::vector<FitJob>& jobs);
    void take(std::span<FitOutcome> outcomes);
    GridSearchResult result() const;

private:
    struct Scored {
        std::vector<double> fold_scores;
        std::vector<long long> fold_rounds;  // rounds early stopping kept per fold; empty if none
        MetricSummary score;
        double fit_seconds = 0;
        int iteration = 0;
        Index n_resources = 0;
        bool resumed = false;
        bool has = false;
    };

    void plan_halving();
    void subsample_folds(int iteration, Index n_resources);

    std::vector<GridPoint> candidates_;
    std::vector<ModelSpec> specs_;
    const Dataset& data_;
    const SearchOptions& opts_;
    std::uint64_t seed_;
    int outer_;
    int n_outer_;
    bool greater_is_better_ = true;
    bool pooled_ = false;  // leave-one-out: score the pooled predictions, as LIBSVM -v n

    std::vector<Fold> folds_;        // the scheme's splits
    std::vector<Fold> round_folds_;  // what this round fits (halving: subsamples)
    std::vector<std::size_t> active_;
    std::vector<Scored> scored_;
    std::vector<HalvingRound> rounds_;
    int iteration_ = 0, n_iterations_ = 1;
    Index min_resources_ = 0;
    bool done_ = false;
};

// Better first; a NaN score (a metric undefined on some fold) ranks last.
bool better_score(double a, double b, bool greater_is_better);

}  // namespace kestrel::detail

namespace kestrel::detail {
// "C=1 gamma=0.5", or "(base parameters)" for the empty point.
std::string point_text(const GridPoint& point);
}  // namespace kestrel::detail
