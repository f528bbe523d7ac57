#pragma once
// A search's scored points as CSV (kestrel-gridsearch --results), and that file read back
// to resume the search (SearchOptions::known), so that a search stopped part way goes on
// with the points it has.
#include <string>
#include <vector>

#include "kestrel/model_selection/grid_search.hpp"

namespace kestrel {

// rank, one column per axis, mean_METRIC, std_METRIC, mean_fit_seconds, fold1..foldK (and
// iteration, n_resources after halving).
std::string results_csv(const GridSearchResult& r, const std::vector<GridAxis>& axes);

// Reads such a file back as points already scored: UsageError naming the option "known"
// when its axes, metric or fold count differ from this search's (`n_splits` splits);
// DataError "file:line: ..." for a field that is not a number.
std::vector<GridPointResult> read_results_csv(const std::string& path, const std::vector<GridAxis>& axes,
                                              const std::string& metric, std::size_t n_splits);

}  // namespace kestrel
