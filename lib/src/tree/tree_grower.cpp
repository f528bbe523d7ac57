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
    if (sparse_) {
        SparseTreeBuilder builder(*sparse_, y_, n_classes_, p_);
        return builder.build(row_weights, rng);
    }
    TreeBuilder builder(X_.dense_ref(), y_, n_classes_, *dense_, p_);
    return builder.build(row_weights, rng);
}

}  // namespace kestrel
