#pragma once
// The sparse column store of the tree builder (tree_builder.hpp): sparse features are
// never densified (docs/models/tree.md, "Sparse input"), and the tree is the one the
// dense store gives on the densified matrix.
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
#include "split_scan.hpp"
#include "tree_sample.hpp"

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

// The interface of DenseColumnStore (dense_columns.hpp). A node's rows are one range of
// rows_, kept increasing; open_node() marks them and lists the columns present there,
// and node_order() needs the node open.
class SparseColumnStore {
public:
    explicit SparseColumnStore(const SparseColumns& columns) : cols_(columns) {}
    Index rows() const { return cols_.rows(); }
    Index cols() const { return cols_.cols(); }

    void gather(const TreeSample& sample);
    std::span<const int> root_order();
    void open_node(Index begin, Index end);
    // The columns present in the open node, in column order: every other one is all
    // zero there.
    std::span<const int> all_candidates();
    template <class Scan>
    bool scan(const ScanInputs& in, Index f, Index begin, Index end, Split& best);
    // scan() fills the store's scratch entries: one feature at a time.
    static constexpr bool kConcurrentScans = false;
    // Numeric splits only, missing values right: LIBSVM input has no categories, and its
    // features must be finite (require_finite_features).
    static constexpr bool kGeneralSplits = false;
    std::span<const int> node_order(Index f, Index begin, Index end);
    void partition(Index begin, Index end, const Split& split);

private:
    struct Entry {
        int local;
        double value;
    };
    void mark_node(Index begin, Index end);
    void extract(Index f, Index begin, Index end, std::vector<Entry>& out);

    const SparseColumns& cols_;
    const TreeSample* sample_ = nullptr;
    std::vector<int> rows_;      // local indices; each node a range, increasing within it
    std::vector<int> mark_;      // local -> stamp of the node it was last marked in
    std::vector<char> nonzero_;  // local -> scratch flag
    std::vector<char> goes_left_;
    std::vector<int> tmp_;
    std::vector<Entry> entries_;
    std::vector<int> positions_;
    std::vector<int> order_;
    std::vector<int> present_;  // feature -> stamp of the last node with a nonzero in it
    std::vector<int> present_list_;
    int stamp_ = 0;
};

}  // namespace kestrel
