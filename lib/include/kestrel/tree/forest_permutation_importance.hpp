#pragma once
// Out-of-bag permutation importance of a random forest (Breiman 2001; ranger's
// importance="permutation", unscaled): for tree t and feature j, the error of t on its
// out-of-bag rows with feature j's values permuted among those rows, minus its error
// on them as they are; averaged over the trees. The error is the misclassification
// rate of the tree's majority class, or the mean squared error. A tree that never
// splits on j contributes exactly 0. The permutation of (t, j) comes from
// derive_seed(seed, t, j): the result does not depend on the thread count.
//
// The generic model_selection/permutation_importance scores a whole model on held-out
// rows; this one needs each tree's own out-of-bag rows, so it walks the trees itself.
#include <cstdint>
#include <vector>

#include "kestrel/common/quantized_table.hpp"
#include "kestrel/common/tree.hpp"
#include "kestrel/core/dataset.hpp"

namespace kestrel {

// in_bag[t][i]: row i was in tree t's sample. y: class indices or targets.
// rows_sharded: X holds this rank's rows of the whole data spread over MPI ranks in row
// order (kestrel-train --shard; a collective step): each tree's out-of-bag values of the
// features it uses are gathered on every rank (8 bytes a value), so the permutations are
// the one-process ones, and the error counts are summed over the ranks.
Vector oob_permutation_importance(const std::vector<Tree>& trees, const std::vector<std::vector<char>>& in_bag,
                                  const Features& X, const Vector& y, bool classification, std::uint64_t seed,
                                  int threads, bool rows_sharded = false);
// The same of rows held quantized (docs/large-data.md), on one process: a row's value of a
// feature is its code's bin's upper edge (NaN for the missing code), which every split of a
// tree cut on the store sends where it sends the row's own value, so the walks, the
// permutations and the importances are those of the values.
Vector oob_permutation_importance(const std::vector<Tree>& trees, const std::vector<std::vector<char>>& in_bag,
                                  const QuantizedTable& store, const Vector& y, bool classification,
                                  std::uint64_t seed, int threads);

}  // namespace kestrel
