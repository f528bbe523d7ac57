#pragma once
// The presorted training features of a tree fit, dense or sparse, built once and
// shared read-only by every tree of a forest or boosting run: build() grows one tree
// with TreeBuilder (dense) or SparseTreeBuilder (sparse, never densified); both give
// the same tree on the same data. build() may be called from several threads.
#include <memory>
#include <span>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/tree/sparse_tree_builder.hpp"
#include "kestrel/tree/tree_builder.hpp"

namespace kestrel {

class TreeGrower {
public:
    // X, y borrowed (must outlive the grower). n_classes = 0 for regression.
    TreeGrower(const Features& X, const Vector& y, Index n_classes, TreeParams params, int threads);
    Tree build(std::span<const double> row_weights, Rng& rng) const;

private:
    const Features& X_;
    const Vector& y_;
    Index n_classes_;
    TreeParams p_;
    std::unique_ptr<SortedColumns> dense_;
    std::unique_ptr<SparseColumns> sparse_;
};

}  // namespace kestrel
