#pragma once
// Hyperparameter search scored by cross-validation on one metric: an exhaustive grid,
// a random search (--n-iter) or successive halving (--halving), optionally nested in
// an outer cross-validation (--outer-k) for an estimate of the tuned model that the
// tuning never saw. All (point, fold) fits of a round form one parallel loop so both
// cores stay busy; results are identical for any thread count (each fit's seed
// derives from the master seed and its fold). docs/model-selection.md explains each.
#include <string>
#include <vector>

#include "kestrel/model_selection/cross_validate.hpp"
#include "kestrel/model_selection/grid.hpp"

namespace kestrel {

struct GridPointResult {
    GridPoint point;        // name -> text value
    Params params;          // base params with the point applied (as given, unresolved)
    ModelSpec spec;         // the whole spec at this point (params and preprocessing: -g scale=...)
    MetricSummary score;    // on the chosen metric, over folds
    std::vector<double> fold_scores;
    std::vector<long long> fold_rounds;  // with early stopping: the rounds kept per fold (best_iteration + 1)
    double fit_seconds = 0; // mean per fold
    int rank = 0;           // 1 = best
    int iteration = 0;      // halving: the last round this point ran in (0 otherwise)
    Index n_resources = 0;  // halving: the rows (of all the data) that round used; else all
    bool resumed = false;   // scored by an earlier run (--resume), not fitted again
};

// One round of successive halving.
struct HalvingRound {
    int iteration = 0;
    Index n_resources = 0;
    std::size_t n_candidates = 0;
};

struct GridSearchResult {
    std::string metric;
    bool greater_is_better = true;
    std::string kind = "grid";            // grid | random | halving
    std::vector<GridPointResult> points;  // sorted best first (ties: candidate order);
                                          // halving: later rounds first
    std::vector<HalvingRound> rounds;     // halving only
    std::size_t fitted_points = 0;        // points scored by this run (not resumed)
    const GridPointResult& best() const { return points.front(); }
};

struct SearchOptions {
    SplitOptions split;   // the cross-validation scoring each point
    std::string metric;
    int n_iter = 0;       // > 0: random search over n_iter sampled points (-g accepts distributions)
    bool halving = false; // successive halving: sklearn's HalvingGridSearchCV, resource = rows
    int factor = 3;       // halving: keep 1/factor of the points per round, factor x the rows
    std::vector<GridPointResult> known;  // already scored points (--resume): not fitted again
    FitObserver observe;  // audit hook, see cross_validate.hpp
};

// The base spec with a point applied: model parameters (dotted names reach a nested
// model: base.C), `scale` (standard, minmax or none) as a preprocessing step, and
// `poly` (a degree; 1 = none) as the polynomial-features step, keeping the options of
// a poly step already in the base spec.
// UsageError/ParamError naming the -g value when the point is not valid.
ModelSpec apply_point(const ModelSpec& base, const GridPoint& point);

GridSearchResult search(const ModelSpec& base, const std::vector<GridAxis>& axes, const Dataset& data,
                        const SearchOptions& opts, const Context& ctx);

// Exhaustive grid with stratified (classification) k-fold.
GridSearchResult grid_search(const ModelSpec& base, const std::vector<GridAxis>& axes, const Dataset& data,
                             int k, const std::string& metric, const Context& ctx);

// Nested cross-validation: for each outer fold, the search runs on the outer training
// rows alone; its best point is refit there and scored on the outer test rows.
struct OuterFoldResult {
    int index = 0;
    GridPoint best_point;
    Params params;
    double inner_score = 0;  // the search's best mean on the outer training rows
    double test_score = 0;   // the refit's score on the outer test rows
};

struct NestedSearchResult {
    std::string metric;
    bool greater_is_better = true;
    std::vector<OuterFoldResult> outer;
    MetricSummary score;  // over the outer folds: the estimate of the tuned model
};

NestedSearchResult nested_search(const ModelSpec& base, const std::vector<GridAxis>& axes, const Dataset& data,
                                 const SearchOptions& inner, const SplitOptions& outer, const Context& ctx);

}  // namespace kestrel
