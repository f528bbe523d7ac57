#pragma once
// The forest's histogram mode, tree_method=hist (docs/models/forest.md, "On shards"):
// CART trees grown level by level on binned features, each tree's rows drawn per row
// (row_bagging.hpp). It is the forest that trains on rows spread over MPI ranks: every
// sum over rows (the root's statistics, each level's histograms) is taken on this rank's
// rows, then summed over the ranks, so every rank finds the same splits and grows the same
// trees; a one-process run (rows not sharded) grows the same trees from its one part.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "kestrel/common/quantized_table.hpp"
#include "kestrel/common/tree.hpp"
#include "kestrel/core/dataset.hpp"
#include "kestrel/tree/tree_params.hpp"

namespace kestrel {

struct HistForestSetup {
    Index n_classes = 0;  // 0: regression (criterion variance)
    TreeParams tree;      // max_leaf_nodes must be 0 (growth is level by level)
    Index n_trees = 1;
    bool bootstrap = true;
    double max_samples = 1;
    int max_bins = 255;
    std::uint64_t seed = 0;
    int threads = 1;
    bool rows_sharded = false;
    // A level's histograms are summed in pieces of at most this many numbers (and nodes ×
    // features lookups): bounded memory on deep levels; tests make it small.
    std::size_t piece_cells = std::size_t{1} << 22;
};

struct HistForest {
    std::vector<Tree> trees;          // leaf values only, as the exact forest keeps them
    std::vector<Vector> importance;   // per tree, its normalised impurity decreases
    std::vector<std::uint64_t> bag_seeds;  // per tree, the seed of the sample it grew on
    Index first_row = 0;                   // this rank's first row in the whole data
};

// X: this rank's rows (dense or sparse; NaN is missing, a sparse row's absent entry 0),
// y: class indices or targets, weights: each row's sample weight (class weights applied).
HistForest grow_hist_forest(const Features& X, const Vector& y, const Vector& weights, const HistForestSetup& s);
// The same forest from rows held quantized (docs/large-data.md), one process: the store's
// cuts are those grow_hist_forest makes when they were cut with s.max_bins and s.seed and
// absent sparse entries as zeros (the caller checks), so the trees are the same.
HistForest grow_hist_forest(const QuantizedTable& store, const Vector& y, const Vector& weights,
                            const HistForestSetup& s);

// in_bag[t][i]: whether this rank's row i was in tree t's sample (a positive count times
// weight), for the out-of-bag score.
std::vector<std::vector<char>> hist_in_bag(const HistForest& forest, const Vector& weights, const HistForestSetup& s);

}  // namespace kestrel
