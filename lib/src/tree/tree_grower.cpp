#include "kestrel/tree/tree_grower.hpp"

namespace kestrel {

TreeGrower::TreeGrower(const Features& X, const Vector& y, Index n_classes, TreeParams params, int threads)
    : X_(X), y_(y), n_classes_(n_classes), p_(params) {
    if (X.is_sparse())
        sparse_ = std::make_unique<SparseColumns>(X.sparse_ref(), threads);
    else
        dense_ = std::make_unique<SortedColumns>(X.dense_ref(), threads);
}

TreeGrower::Builder TreeGrower::builder() const {
    Builder b;
    if (sparse_)
        b.sparse_ = std::make_unique<SparseTreeBuilder>(*sparse_, y_, n_classes_, p_);
    else
        b.dense_ = std::make_unique<TreeBuilder>(X_.dense_ref(), y_, n_classes_, *dense_, p_);
    return b;
}

Tree TreeGrower::Builder::build(std::span<const double> row_weights, Rng& rng) {
    Tree tree;
    build(row_weights, rng, tree);
    return tree;
}

const Tree& TreeGrower::Builder::grow(std::span<const double> row_weights, Rng& rng) {
    build(row_weights, rng, grown_);
    return grown_;
}

void TreeGrower::Builder::build(std::span<const double> row_weights, Rng& rng, Tree& tree) {
    if (sparse_)
        sparse_->build(row_weights, rng, tree);
    else
        dense_->build(row_weights, rng, tree);
}

}  // namespace kestrel
