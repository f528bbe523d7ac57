#pragma once
// Grows one CART tree on sparse features without densifying them (docs/models/tree.md,
// "Sparse input"). The tree is the one TreeBuilder grows on the densified matrix: the
// same splits, thresholds, leaf values and draws of candidate features.
//
// Each column keeps only its nonzero entries, sorted once by (value, row). In a node,
// the sorted order of a column is its negative entries, then the node's implicit
// zeros as one block, then its positive entries; a split scan moves the zero block
// from right to left in one step. A node's nonzero entries in a column come from
// walking the column (when it is short) or from a binary search per node row (when
// the node is small), so a node costs about min(nnz, rows · log nnz) per column, not
// rows. A column with no nonzero in the node's rows (found from the rows themselves) is
// constant there and costs nothing. Memory is O(nnz + rows + columns).
#include <span>
#include <vector>

#include "kestrel/common/tree.hpp"
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/tree/tree_builder.hpp"

namespace kestrel {

// The nonzero entries of each column (explicit zeros dropped), sorted by (value, row),
// and the same entries by increasing row with their position in the sorted list.
class SparseColumns {
public:
    SparseColumns(const SparseMatrix& X, int threads);
    Index rows() const { return rows_; }
    Index cols() const { return cols_; }
    std::size_t nnz(Index f) const { return start_[f + 1] - start_[f]; }
    std::span<const int> sorted_rows(Index f) const { return {sorted_rows_.data() + start_[f], nnz(f)}; }
    std::span<const double> sorted_values(Index f) const { return {sorted_values_.data() + start_[f], nnz(f)}; }
    std::span<const int> rows_by_index(Index f) const { return {rows_by_index_.data() + start_[f], nnz(f)}; }
    std::span<const int> position_of(Index f) const { return {position_of_.data() + start_[f], nnz(f)}; }
    // The matrix itself (borrowed), for the columns present in a node's rows.
    const SparseMatrix& rows_matrix() const { return *X_; }

private:
    const SparseMatrix* X_;
    Index rows_ = 0, cols_ = 0;
    std::vector<std::size_t> start_;  // cols + 1 offsets
    std::vector<int> sorted_rows_;
    std::vector<double> sorted_values_;
    std::vector<int> rows_by_index_;
    std::vector<int> position_of_;
};

class SparseTreeBuilder {
public:
    // As TreeBuilder: y holds class indices (n_classes > 0) or targets; all borrowed.
    SparseTreeBuilder(const SparseColumns& columns, const Vector& y, Index n_classes, TreeParams params);
    Tree build(std::span<const double> row_weights, Rng& rng) {
        Tree tree;
        build(row_weights, rng, tree);
        return tree;
    }
    // The same, grown in `tree` (emptied first): a tree grown again in the same object
    // reuses its arrays.
    void build(std::span<const double> row_weights, Rng& rng, Tree& tree);

private:
    struct Entry {
        int local;
        double value;
    };
    struct NodeStats;
    struct Split;
    struct Frontier;

    void gather_rows(std::span<const double> row_weights);
    void mark_node(Index begin, Index end);
    void extract(Index f, Index begin, Index end, std::vector<Entry>& out);
    void feature_order(Index f, Index begin, Index end, std::vector<int>& out);
    NodeStats stats_of(std::span<const int> locals) const;
    bool may_split(const NodeStats& s, int depth) const;
    Split find_split(Index begin, Index end, const NodeStats& s, Rng& rng);
    bool scan_feature(Index f, Index begin, Index end, const NodeStats& s, Split& best);

    const SparseColumns& cols_;
    const Vector& y_;
    Index n_classes_;
    TreeParams p_;

    Index m_ = 0;
    std::vector<int> local_of_;   // global row -> local index, -1 when not in the sample
    std::vector<int> global_of_;  // local -> global row
    std::vector<int> klass_;
    std::vector<double> target_;
    std::vector<double> weight_;
    std::vector<int> rows_;      // local indices; each node a range, increasing within it
    std::vector<int> mark_;      // local -> stamp of the node it was last marked in
    std::vector<char> nonzero_;  // local -> scratch flag
    std::vector<char> goes_left_;
    std::vector<int> tmp_;
    std::vector<Entry> entries_;
    std::vector<int> positions_;
    std::vector<int> order_;
    std::vector<int> features_;  // the identity permutation between nodes
    std::vector<int> touched_;   // positions of features_ a node's draws swapped
    std::vector<int> present_;   // feature -> stamp of the last node with a nonzero in it
    std::vector<int> present_list_;
    int stamp_ = 0;
    double root_weight_ = 0;
};

}  // namespace kestrel
