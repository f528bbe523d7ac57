#pragma once
// kestrel-gridsearch's search flags: random search (--n-iter), successive halving
// (--halving), nested cross-validation (--outer-k) and --resume (which reads back the results
// CSV: kestrel/tasks/search_results_csv.hpp); the nested report.
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "kestrel/model_selection/grid_search.hpp"
#include "kestrel/tasks/search_results_csv.hpp"

namespace kestrel::cli {

struct SearchFlags {
    int n_iter = 0;
    bool halving = false;
    int outer_k = 0;
    std::string resume;
    void add_to(CLI::App& app);
    // Flag combinations and values (UsageError naming the flag), before any data is read.
    void check() const;
    bool nested() const { return outer_k > 0; }
    // The search options; with --resume FILE, the points FILE already scored (a file
    // that does not exist yet resumes nothing). `n_splits` is the scheme's split count.
    SearchOptions options(const SplitOptions& split, const std::string& metric, const std::vector<GridAxis>& axes,
                          std::size_t n_splits) const;
};


// "5 folds", "5 folds x 2 repeats", "leave-one-out (120 folds)", "10 shuffle-splits", ...
std::string splits_text(const SplitOptions& s, std::size_t n_splits);

// Halving rounds and resumed points, as lines above the table ("" when neither).
std::string search_rounds_text(const GridSearchResult& r);

std::string nested_text(const NestedSearchResult& r);

}  // namespace kestrel::cli
