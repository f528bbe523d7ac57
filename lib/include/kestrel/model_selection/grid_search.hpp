#pragma once
// Exhaustive grid search scored by cross-validation on one metric. All (point, fold)
// fits form one parallel loop so both cores stay busy; results are identical for any
// thread count (each fit's seed derives from the master seed and its fold).
#include <string>
#include <vector>

#include "kestrel/model_selection/cross_validate.hpp"
#include "kestrel/model_selection/grid.hpp"

namespace kestrel {

struct GridPointResult {
    std::vector<std::pair<std::string, std::string>> point;  // name -> text value
    Params params;          // base params with the point applied (as given, unresolved)
    MetricSummary score;    // on the chosen metric, over folds
    std::vector<double> fold_scores;
    double fit_seconds = 0; // mean per fold
    int rank = 0;           // 1 = best
};

struct GridSearchResult {
    std::string metric;
    bool greater_is_better = true;
    std::vector<GridPointResult> points;  // sorted best first (ties: grid order)
    const GridPointResult& best() const { return points.front(); }
};

GridSearchResult grid_search(const ModelSpec& base, const std::vector<GridAxis>& axes, const Dataset& data,
                             int k, const std::string& metric, const Context& ctx);

}  // namespace kestrel
