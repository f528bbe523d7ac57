#include "kestrel/tree/tree_grower.hpp"

namespace kestrel {

TreeGrower::TreeGrower(const Features& X, const Vector& y, Index n_classes, TreeParams params, int threads)
    : X_(X), y_(y), n_classes_(n_classes), p_(params) {
    if (X.is_sparse())
        sparse_ = std::make_unique<SparseColumns>(X.sparse_ref(), threads);
    else
        dense_ = std::make_unique<SortedColumns>(X.dense_ref(), threads);
}

Tree TreeGrower::build(std::span<const double> row_weights, Rng& rng) const {
    Tree tree;
    if (sparse_) {
        SparseTreeBuilder builder(*sparse_, y_, n_classes_, p_);
        tree = builder.build(row_weights, rng);
    } else {
        TreeBuilder builder(X_.dense_ref(), y_, n_classes_, *dense_, p_);
        tree = builder.build(row_weights, rng);
    }
    tree.shrink_to_fit();  // up to half of a grown vector is spare: the trees are kept
    return tree;
}

}  // namespace kestrel
