#pragma once
// The dense column store of the tree builder (tree_builder.hpp): split search by
// presorted partitioning. Every column is sorted once (SortedColumns, shared read-only
// by all the trees of a forest); each node owns the same range [begin, end) in every
// column's sorted list of the sample's rows, and a split stably partitions those
// ranges, so the lists stay sorted. A level of the tree costs O(n · features), not a
// sort per node.
#include <cmath>
#include <span>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "split_scan.hpp"
#include "tree_sample.hpp"

namespace kestrel {

// Each column's row order by increasing value (ties by row), missing values (NaN) last,
// with the sorted values. A categorical column (categories[f] = k > 0) holds its codes
// 0..k-1; a cell that is no such code is missing.
class SortedColumns {
public:
    SortedColumns(const DenseMatrix& X, int threads, std::span<const Index> categories);
    Index rows() const { return rows_; }
    Index cols() const { return cols_; }
    Index categories(Index f) const { return categories_[static_cast<std::size_t>(f)]; }
    bool has_missing(Index f) const { return has_missing_[static_cast<std::size_t>(f)] != 0; }
    std::span<const int> order(Index f) const { return {order_.data() + f * rows_, static_cast<std::size_t>(rows_)}; }
    std::span<const double> values(Index f) const {
        return {values_.data() + f * rows_, static_cast<std::size_t>(rows_)};
    }

private:
    Index rows_ = 0, cols_ = 0;
    std::vector<Index> categories_;  // per column: 0 numeric, else k
    std::vector<char> has_missing_;
    std::vector<int> order_;  // column-major: cols x rows
    std::vector<double> values_;
};

class DenseColumnStore {
public:
    // scan() only reads the store: a node's features may be scanned on several threads.
    static constexpr bool kConcurrentScans = true;
    // Splits may be categorical or send missing values left (Split::by_prefix() false).
    static constexpr bool kGeneralSplits = true;
    explicit DenseColumnStore(const SortedColumns& sorted);
    Index rows() const { return sorted_.rows(); }
    Index cols() const { return sorted_.cols(); }

    // Each column's sorted list cut down to the sample's rows, by local index.
    void gather(const TreeSample& sample);
    // The sample's rows in column 0's order.
    std::span<const int> root_order() const { return {order_.data(), static_cast<std::size_t>(m_)}; }
    void open_node(Index /*begin*/, Index /*end*/) {}
    // The features to scan in column order when all of them are candidates.
    std::span<const int> all_candidates() const { return all_features_; }
    // Scores the boundaries of feature f in the node into `best`; false, scanning
    // nothing, when the feature is constant there. Scan: ClassScan or VarianceScan.
    template <class Scan>
    bool scan(const ScanInputs& in, Index f, Index begin, Index end, Split& best);
    // The node's rows in f's sorted order.
    std::span<const int> node_order(Index f, Index begin, Index end) const {
        return {order_.data() + f * m_ + begin, static_cast<std::size_t>(end - begin)};
    }
    Index categories(Index f) const { return sorted_.categories(f); }
    // The node's rows each side of a split (any split, by_prefix() or not).
    void sides(const Split& split, Index begin, Index end, std::vector<int>& left, std::vector<int>& right) const;
    // Sends [begin, split.pos) of the split feature's order left and the rest right, in
    // every column.
    void partition(Index begin, Index end, const Split& split);

private:
    // Missing values sort last: a node whose values are all missing is constant; one with
    // some missing is not (observed against missing is a split).
    bool constant(Index f, Index begin, Index end) const {
        const double* v = values_.data() + f * m_;
        return std::isnan(v[begin]) || v[end - 1] <= v[begin] + kFeatureThreshold;
    }
    template <class Scan>
    void scan_categories(const ScanInputs& in, Index f, Index begin, Index end, Split& best) const;

    const SortedColumns& sorted_;
    std::vector<int> all_features_;
    Index m_ = 0;
    std::vector<int> order_;      // cols x m local indices, each node a range per column
    std::vector<double> values_;  // cols x m, the matching feature values
    std::vector<char> goes_left_;
    std::vector<int> tmp_order_;
    std::vector<double> tmp_values_;
};

}  // namespace kestrel
