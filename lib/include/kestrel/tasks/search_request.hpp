#pragma once
// A parameter search as kestrel-gridsearch asks for it, decided before and after the data
// is read: the axes (given, or the model's declared space searched at random), the option
// combinations that cannot run together, the metric for the table's task, the search's
// options (with the points a results file already holds) and the outer split of a nested
// estimate. The search itself is model_selection/grid_search.hpp's.
#include <cstddef>
#include <string>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/model_selection/grid_search.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

// Without axes of its own, a search samples this many points of the declared space
// (scikit-learn RandomizedSearchCV's default n_iter).
inline constexpr int kDefaultSearchPoints = 10;

struct SearchRequest {
    std::vector<std::string> grid;  // axes as "name=values" texts (option "grid"); empty: the declared space
    std::string metric;             // "": the task's default (a ranking metric for rows in queries)
    int n_iter = 0;                 // > 0: that many random points (option "n_iter")
    bool halving = false;           // successive halving (option "halving")
    int outer_k = 0;                // > 0: a nested estimate on that many outer folds (option "outer")
    std::string known_file;         // a results CSV whose points are not fitted again (option "known")
    bool nested() const { return outer_k > 0; }
};

// Before any data is read: UsageError for an unknown metric, then naming the options of a
// combination that cannot run (a results file with halving or a nested estimate, fewer
// than 2 outer folds).
void check_search_request(const SearchRequest& request);

// The axes of the search of `spec`: the request's grid parsed (UsageError naming the option
// "grid" for an axis whose parameter `spec` already fixes), or without one the declared
// space, and then request.n_iter set to kDefaultSearchPoints unless given.
std::vector<GridAxis> search_axes_for(SearchRequest& request, const ModelSpec& spec);

// The metric the search ranks points by on `data` (UsageError when it is the other task's).
std::string search_metric_for(const SearchRequest& request, const Dataset& data);

// The search's options over `split` (`n_splits` splits): the points the results file
// already holds (none when it does not exist yet) read for these axes and metric.
SearchOptions search_options_for(const SearchRequest& request, const std::vector<GridAxis>& axes,
                                 const SplitOptions& split, const std::string& metric, std::size_t n_splits);

// The outer folds of a nested estimate: request.outer_k folds, grouped as the inner split
// is when it is group k-fold.
SplitOptions outer_split_for(const SearchRequest& request, const SplitOptions& inner);

}  // namespace kestrel
