#pragma once
// The presorted training features of a tree fit, dense or sparse, built once and
// shared read-only by every tree of a forest or boosting run: build() grows one tree
// on the dense or the sparse column store (sparse features are never densified); both
// give the same tree on the same data. build() may be called from several threads.
#include <memory>
#include <span>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/common/tree.hpp"
#include "kestrel/tree/tree_params.hpp"

namespace kestrel {

// Private to lib/src/tree.
class SortedColumns;
class SparseColumns;
class DenseColumnStore;
class SparseColumnStore;
template <class Columns>
class TreeBuilder;

class TreeGrower {
public:
    // One thread's builder: grows trees one after another in the same scratch memory
    // (a forest would otherwise allocate, and fault in, megabytes per tree). A tree
    // depends only on its row weights and generator, never on the trees before it.
    class Builder {
    public:
        Builder(Builder&&) noexcept;
        Builder& operator=(Builder&&) noexcept;
        ~Builder();
        // The tree as grown: up to half of its arrays' capacity is spare, for the caller
        // to release (shrink_to_fit) if it keeps the tree.
        Tree build(std::span<const double> row_weights, Rng& rng);
        // The same, grown in the builder's own tree: valid until the next grow().
        const Tree& grow(std::span<const double> row_weights, Rng& rng);

    private:
        friend class TreeGrower;
        Builder();
        void build(std::span<const double> row_weights, Rng& rng, Tree& tree);

        std::unique_ptr<TreeBuilder<DenseColumnStore>> dense_;
        std::unique_ptr<TreeBuilder<SparseColumnStore>> sparse_;
        Tree grown_;
    };

    // X, y borrowed (must outlive the grower). n_classes = 0 for regression.
    // categories: per feature 0 (numeric) or its k categories (Dataset::category_counts;
    // empty: all numeric), split on sets of codes; dense features only.
    TreeGrower(const Features& X, const Vector& y, Index n_classes, TreeParams params, int threads,
               std::span<const Index> categories = {});
    ~TreeGrower();
    // Borrows the grower: it must outlive the builder. scan_threads > 1: a large node's
    // features are scanned in parallel (dense features, all of them candidates); the
    // tree is the same at any count.
    Builder builder(int scan_threads = 1) const;
    // One tree, its large nodes scanned on the grower's threads.
    Tree build(std::span<const double> row_weights, Rng& rng) const {
        return builder(threads_).build(row_weights, rng);
    }

private:
    const Vector& y_;
    Index n_classes_;
    TreeParams p_;
    int threads_;
    std::unique_ptr<SortedColumns> dense_;
    std::unique_ptr<SparseColumns> sparse_;
};

}  // namespace kestrel
