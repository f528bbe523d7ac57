#pragma once
// Which cross-validation scheme a cv, a search or a learning curve uses, as one value
// that every command passes down unchanged (docs/model-selection.md describes each).
#include <cstdint>
#include <string>
#include <vector>

#include "kestrel/common/splits.hpp"

namespace kestrel {

enum class CvScheme {
    kfold,          // stratified for classification; `repeats` reshuffles (-k, --repeat)
    leave_one_out,  // --loo, or -k n
    shuffle_split,  // --shuffle-split R --test-fraction f; stratified for classification
    group_kfold,    // --groups COLUMN
    fixed,          // splits given as they are (--validation FILE)
};

struct SplitOptions {
    CvScheme scheme = CvScheme::kfold;
    int k = 5;                   // kfold, group_kfold
    int repeats = 1;             // kfold
    int shuffle_splits = 10;     // shuffle_split
    double test_fraction = 0.2;  // shuffle_split
    std::vector<Index> groups;   // group_kfold: group id 0..g-1 of each row
    std::vector<Fold> fixed;     // fixed: the splits
};

// The splits of `data` under `opts`. Everything wrong with the request is a
// UsageError naming its flag, thrown before any fit.
std::vector<Fold> make_splits(const Dataset& data, const SplitOptions& opts, std::uint64_t seed);

// "5-fold", "5-fold x 3 repeats", "leave-one-out", "10 shuffle-splits (test fraction 0.2)", ...
std::string describe(const SplitOptions& opts);

// Whether the test sets of one repetition partition the rows (so out-of-fold
// predictions are one per row): k-fold, leave-one-out and group k-fold.
bool tests_partition_rows(CvScheme scheme);

}  // namespace kestrel
