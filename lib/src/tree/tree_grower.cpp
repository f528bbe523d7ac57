#include "kestrel/tree/tree_grower.hpp"

#include <algorithm>

#include "kestrel/core/error.hpp"
#include "dense_columns.hpp"
#include "sparse_columns.hpp"
#include "tree_builder.hpp"

namespace kestrel {

TreeGrower::TreeGrower(const Features& X, const Vector& y, Index n_classes, TreeParams params, int threads,
                       std::span<const Index> categories)
    : y_(y), n_classes_(n_classes), p_(params), threads_(std::max(1, threads)) {
    if (X.is_sparse()) {
        if (std::any_of(categories.begin(), categories.end(), [](Index k) { return k > 0; }))
            // LIBSVM --categorical on a file too wide for a dense read.
            throw DataError(
                "tree: categorical features need a dense table, and this sparse one is too wide to "
                "densify (drop " +
                option_named("categorical_features") + ", or give the file fewer features)");
        sparse_ = std::make_unique<SparseColumns>(X.sparse_ref(), threads);
    } else {
        dense_ = std::make_unique<SortedColumns>(X.dense_ref(), threads, categories,
                                                 DenseColumnStore::sorts_per_node(params.max_features, X.cols()));
    }
}

TreeGrower::~TreeGrower() = default;

TreeGrower::Builder TreeGrower::builder(int scan_threads) const {
    Builder b;
    if (sparse_)
        b.sparse_ = std::make_unique<TreeBuilder<SparseColumnStore>>(SparseColumnStore(*sparse_), y_, n_classes_, p_);
    else
        b.dense_ = std::make_unique<TreeBuilder<DenseColumnStore>>(DenseColumnStore(*dense_, p_.max_features), y_, n_classes_, p_,
                                                                    std::max(1, scan_threads));
    return b;
}

TreeGrower::Builder::Builder() = default;
TreeGrower::Builder::Builder(Builder&&) noexcept = default;
TreeGrower::Builder& TreeGrower::Builder::operator=(Builder&&) noexcept = default;
TreeGrower::Builder::~Builder() = default;

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
