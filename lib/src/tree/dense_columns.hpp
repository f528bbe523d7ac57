#pragma once
// The dense column store of the tree builder (tree_builder.hpp): split search by
// presorted partitioning. Every column is sorted once (SortedColumns, shared read-only
// by all the trees of a forest); each node owns the same range [begin, end) in every
// column's sorted list of the sample's rows, and a split stably partitions those
// ranges, so the lists stay sorted. A level of the tree costs O(n · features), not a
// sort per node.
#include <span>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "split_scan.hpp"
#include "tree_sample.hpp"

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

class DenseColumnStore {
public:
    // scan() only reads the store: a node's features may be scanned on several threads.
    static constexpr bool kConcurrentScans = true;
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
    // Sends [begin, split.pos) of the split feature's order left and the rest right, in
    // every column.
    void partition(Index begin, Index end, const Split& split);

private:
    bool constant(Index f, Index begin, Index end) const {
        const double* v = values_.data() + f * m_;
        return v[end - 1] <= v[begin] + kFeatureThreshold;
    }

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
