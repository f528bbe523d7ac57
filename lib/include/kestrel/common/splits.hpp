#pragma once
// Train/test index splits for cross-validation. Every split is a pure function of
// (labels, k, seed): the same seed gives the same folds on any thread count.
#include <cstdint>
#include <vector>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

struct Fold {
    std::vector<Index> train;  // sorted
    std::vector<Index> test;   // sorted
    int repeat = 0;            // which repetition of a repeated k-fold
    int index = 0;             // fold number within its repetition
};

// Shuffled k-fold: fold sizes differ by at most one. UsageError if k < 2 or k > n.
std::vector<Fold> kfold(Index n, int k, std::uint64_t seed);
// Stratified k-fold: each class's rows are spread evenly over the folds (as sklearn's
// StratifiedKFold with shuffle). UsageError if k < 2 or k > n.
std::vector<Fold> stratified_kfold(const Vector& class_index, Index n_classes, int k, std::uint64_t seed);
// `repeats` repetitions with seeds derived from `seed`; stratified when n_classes > 0.
std::vector<Fold> repeated_kfold(const Vector& y, Index n_classes, int k, int repeats, std::uint64_t seed);

// Leave-one-out: n folds, fold i tests row i (sklearn's LeaveOneOut). UsageError if n < 2.
std::vector<Fold> leave_one_out(Index n);
// Monte Carlo cross-validation: `splits` independent random splits, each testing
// ceil(test_fraction * n) rows (sklearn's ShuffleSplit; rows may be tested several
// times or never). UsageError naming the option shuffle_splits or test_fraction.
std::vector<Fold> shuffle_split(Index n, int splits, double test_fraction, std::uint64_t seed);
// The same, each split keeping the class proportions in train and test (sklearn's
// StratifiedShuffleSplit: per-class test counts by its approximate mode, ties broken
// at random). UsageError if a class has fewer than 2 rows.
std::vector<Fold> stratified_shuffle_split(const Vector& class_index, Index n_classes, int splits, double test_fraction,
                                           std::uint64_t seed);
// Group k-fold: whole groups are tested together, so no group is on both sides
// (sklearn's GroupKFold: groups by decreasing size into the currently lightest fold;
// deterministic, no seed). `group_of_row` holds group ids 0..g-1. UsageError naming
// --groups when there is one group, and -k when k > groups.
std::vector<Fold> group_kfold(const std::vector<Index>& group_of_row, int k);

}  // namespace kestrel
