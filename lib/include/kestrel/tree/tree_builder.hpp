#pragma once
// Grows one CART tree (docs/models/tree.md). The builder is separate from the
// estimators so that `tree`, `forest` and boosting share it: they choose the rows
// (through per-row weights, 0 = not in the sample) and the growth limits.
//
// Split search is by presorted partitioning: every column is sorted once
// (SortedColumns, shared read-only by all the trees of a forest); each node owns the
// same range [begin, end) in every column's sorted list, and a split stably
// partitions those ranges, so the lists stay sorted. A level of the tree costs
// O(n · features), not a sort per node.
#include <cstdint>
#include <span>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/tree/split_criteria.hpp"
#include "kestrel/tree/tree.hpp"
#include "kestrel/tree/tree_params.hpp"

namespace kestrel {

// Each column's row order by increasing value (ties by row), with the sorted values.
class SortedColumns {
public:
    SortedColumns(const DenseMatrix& X, int threads);
    Index rows() const { return rows_; }
    Index cols() const { return cols_; }
    std::span<const int> order(Index f) const { return {order_.data() + f * rows_, static_cast<std::size_t>(rows_)}; }
    std::span<const double> values(Index f) const {
        return {values_.data() + f * rows_, static_cast<std::size_t>(rows_)};
    }

private:
    Index rows_ = 0, cols_ = 0;
    std::vector<int> order_;  // column-major: cols x rows
    std::vector<double> values_;
};

class TreeBuilder {
public:
    // X: the training features; y: class index 0..n_classes-1, or the target when
    // n_classes == 0 (regression, criterion variance). All are borrowed: they must
    // outlive the builder.
    TreeBuilder(const DenseMatrix& X, const Vector& y, Index n_classes, const SortedColumns& sorted, TreeParams params);

    // Grows a tree on the rows with weight > 0 (a bootstrap count times a sample
    // weight, say). `rng` draws the candidate features when max_features < cols.
    Tree build(std::span<const double> row_weights, Rng& rng) {
        Tree tree;
        build(row_weights, rng, tree);
        return tree;
    }
    // The same, grown in `tree` (emptied first): a tree grown again in the same object
    // reuses its arrays.
    void build(std::span<const double> row_weights, Rng& rng, Tree& tree);

private:
    struct Split;
    struct Frontier;
    struct NodeStats;

    void gather_rows(std::span<const double> row_weights);
    NodeStats stats_of(Index begin, Index end, Index feature) const;
    Split find_split(Index begin, Index end, const NodeStats& stats, Rng& rng);
    void scan_feature(Index f, Index begin, Index end, const NodeStats& stats, Split& best) const;
    void partition(Index begin, Index split_pos, Index end, Index feature);
    bool may_split(const NodeStats& s, int depth) const;

    const DenseMatrix& X_;
    const Vector& y_;
    Index n_classes_;
    const SortedColumns& sorted_;
    TreeParams p_;

    // Per build: the m rows in the sample, by local index.
    Index m_ = 0;
    std::vector<int> klass_;      // class of local row (classification)
    std::vector<double> target_;  // target of local row (regression)
    std::vector<double> weight_;
    std::vector<int> order_;      // cols x m local indices, each node a range per column
    std::vector<double> values_;  // cols x m, the matching feature values
    std::vector<char> goes_left_;
    std::vector<int> tmp_order_;
    std::vector<double> tmp_values_;
    std::vector<int> features_;  // candidate feature draw (Fisher–Yates, per node)
    double root_weight_ = 0;
};

}  // namespace kestrel
