#pragma once
// A parameter search's answer as text tables (kestrel-gridsearch without --json): the
// points by rank, the halving rounds, the nested estimate. Beside their JSON
// (search_refit.hpp) and CSV (search_results_csv.hpp), so every front end prints the same.
#include <cstddef>
#include <string>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/model_selection/grid_search.hpp"

namespace kestrel {

// The first `max_rows` points by rank: rank, one column per axis, mean, std, fit seconds.
std::string search_points_text(const GridSearchResult& r, const std::vector<GridAxis>& axes, std::size_t max_rows);

// The splits each point is scored on: "5 folds", "5 folds x 2 repeats",
// "leave-one-out (120 folds)", "10 shuffle-splits", "group 5 folds", ...
std::string splits_text(const SplitOptions& s, std::size_t n_splits);

// The halving rounds and the points taken from a results file (option "known"), as lines
// above the table ("" when neither).
ErrorText search_rounds_text(const GridSearchResult& r);

// Each outer fold's inner and test score and best point, then the estimate of the tuned model.
std::string nested_text(const NestedSearchResult& r);

}  // namespace kestrel
