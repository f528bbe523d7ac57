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

}  // namespace kestrel
