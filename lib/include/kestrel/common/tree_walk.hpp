#pragma once
// Fitted trees laid out for prediction: the one walk the forest and gbdt predict with.
// Every node of every tree sits in three flat arrays (structure of arrays), numbered so
// that a split's two children are neighbours: node w splits on feature
// key[w] >> 1 at threshold[w], sends a missing value (NaN) left when key[w] & 1, and its
// children are left[w] and left[w] + 1. A leaf points to itself (threshold +inf, key 1),
// so that a step is the same branch-free arithmetic at a split and at a leaf: rows walk
// in lockstep, a group of them a level at a time (independent chains of loads, which the
// CPU overlaps), until none of the group moves (a tree of depth 8 or less, boosting's,
// is walked to its depth: checking costs more than the levels it saves). A walk is comparisons only: every row
// reaches the leaf Tree::apply finds. Trees with categorical splits are laid out too
// (their leaves have indices), but their family walks them (numeric(t) is false).
// Each numeric tree's top levels (common/simd's WalkLevels, at most kWalkLevels) are
// laid out a second time in level order, for the vector path that walks them (AVX-512):
// it takes the rows down those levels, the lockstep walk on from there. A deeper tree has
// a second tier, the next kWalkLevels levels of the subtree under each bottom position of
// the first; with kTierRows (256) rows or more they are sorted by the position they
// reached and each subtree's tables walk its rows, the lockstep walk on from level 12.
#include <cstdint>
#include <vector>

#include "kestrel/common/simd.hpp"
#include "kestrel/common/tree.hpp"
#include "kestrel/core/dataset.hpp"

namespace kestrel {

class TreeWalk {
public:
    TreeWalk() = default;
    // `tables`: lay out the level tables too (by default when the path in use walks them;
    // without them every path walks the portable way).
    explicit TreeWalk(const std::vector<Tree>& trees, bool tables = simd_loops().walk_levels != nullptr);

    // Nodes over all trees; a walk index w is below this.
    std::int32_t size() const { return static_cast<std::int32_t>(key_.size()); }
    bool numeric(std::size_t t) const { return depth_[t] >= 0; }
    // at[r] = the walk index of the leaf row r (n values from x + r·stride) reaches in tree
    // t, a numeric tree; the rows walk in groups of `group`. `loops`: the vector path's
    // (tests pass each path's); its walk_levels, where there is one, takes the top levels.
    void leaves(std::size_t t, const double* x, Index stride, Index n, std::int32_t* at, Index group = 8,
                const SimdLoops& loops = simd_loops()) const;
    // Tree t's top levels in level order (depth 0 for a lone leaf or a categorical tree).
    WalkLevels levels(std::size_t t) const;
    // The walk index of node i of tree t (−1: a node no split leads to), and back.
    std::int32_t index(std::size_t t, int i) const { return index_[first_[t] + static_cast<std::size_t>(i)]; }
    int node(std::int32_t w) const { return node_[static_cast<std::size_t>(w)]; }
    // Tree t's walk indices are [begin(t), begin(t + 1)); begin(trees) is size().
    std::int32_t begin(std::size_t t) const { return begin_[t]; }

private:
    void add_levels(const Tree& tree, const std::int32_t* index);  // the last tree's tables
    // Tables `root`'s subtree to `depth` levels; its bottom nodes into *bottom.
    std::int32_t add_table(const Tree& tree, int root, int depth, const std::int32_t* index,
                           std::vector<int>* bottom = nullptr);
    WalkLevels table(std::int32_t id) const;

    std::vector<std::int32_t> key_, left_;
    std::vector<double> threshold_;
    std::vector<int> node_;                // walk index -> its tree's node
    std::vector<std::int32_t> index_;      // per tree, per node: its walk index
    std::vector<std::size_t> first_;       // per tree, its first entry in index_
    std::vector<std::int32_t> begin_;      // per tree (and one past the last), its first walk index
    std::vector<int> depth_;               // per tree, its depth; −1: it has categorical splits
    // Level tables (common/simd's WalkLevels): kWalkLevelOffset[depth] thresholds and keys
    // from `entries`, 2^depth bottom walk indices from `bottom`.
    struct Table {
        std::size_t entries, bottom;
        int depth;
    };
    std::vector<Table> tables_;
    std::vector<double> level_threshold_;
    std::vector<std::int32_t> level_key_;
    std::vector<std::int32_t> level_bottom_;
    std::vector<std::int32_t> top_;  // per tree, its first tier's table (−1: none; empty: no tables)
    // Per tree deeper than kWalkLevels, the first of its 2^kWalkLevels second-tier tables
    // (the subtree under each bottom position of the first tier); −1: none.
    std::vector<std::int32_t> sub_;
};

}  // namespace kestrel
