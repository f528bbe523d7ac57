#pragma once
// The dense column store of the tree builder (tree_builder.hpp): split search by
// presorted partitioning. Every column is sorted once (SortedColumns, shared read-only
// by all the trees of a forest); each node owns the same range [begin, end) in every
// column's sorted list of the sample's rows, and a split stably partitions those
// ranges, so the lists stay sorted. A level of the tree costs O(n · features), not a
// sort per node.
//
// When a node draws a few of many features (a forest's max_features), that partition
// of every column is most of the fit, and most columns of real tables hold a handful
// of values (flags, categories, counts). Such a column is "ranked": it is not
// partitioned at all, and a node that draws it sorts its rows by value on the spot
// (a counting sort over the column's ranks, O(rows + ranks)), from the node's row list
// kept in row order. Sorting by (value, row) gives exactly the order the partition
// would have kept, so the tree is the same either way.
#include <cmath>
#include <cstdint>
#include <span>
#include <utility>
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
    // ranked: find the ranked columns (else none is), for stores that draw few columns.
    SortedColumns(const DenseView& X, int threads, std::span<const Index> categories, bool ranked);
    Index rows() const { return rows_; }
    Index cols() const { return cols_; }
    Index categories(Index f) const { return categories_[static_cast<std::size_t>(f)]; }
    bool has_missing(Index f) const { return has_missing_[static_cast<std::size_t>(f)] != 0; }
    std::span<const int> order(Index f) const { return {order_.data() + f * rows_, static_cast<std::size_t>(rows_)}; }
    std::span<const double> values(Index f) const {
        return {values_.data() + f * rows_, static_cast<std::size_t>(rows_)};
    }
    // A column of at most kMaxRanks distinct values (missing counting as one, last) is
    // ranked: ranks(f) > 0 values, rank_values(f) increasing, and each row's rank.
    static constexpr Index kMaxRanks = 256;
    Index ranks(Index f) const {
        return rank_begin_[static_cast<std::size_t>(f) + 1] - rank_begin_[static_cast<std::size_t>(f)];
    }
    std::span<const double> rank_values(Index f) const {
        return {rank_values_.data() + rank_begin_[static_cast<std::size_t>(f)], static_cast<std::size_t>(ranks(f))};
    }
    std::span<const std::uint8_t> rank_of_row(Index f) const {
        return {rank_of_row_.data() + f * rows_, static_cast<std::size_t>(rows_)};
    }

private:
    Index rows_ = 0, cols_ = 0;
    std::vector<Index> categories_;  // per column: 0 numeric, else k
    std::vector<char> has_missing_;
    std::vector<int> order_;  // column-major: cols x rows
    std::vector<double> values_;
    std::vector<Index> rank_begin_;           // cols + 1 offsets into rank_values_
    std::vector<double> rank_values_;         // per ranked column, its distinct values
    std::vector<std::uint8_t> rank_of_row_;   // column-major: cols x rows (0 for a column not ranked)
};

class DenseColumnStore {
public:
    // Sorting a ranked column's node costs about this many partitions of it.
    static constexpr Index kSortCostRatio = 3;
    // Whether a node drawing `draws` of d columns sorts its ranked columns (0: all drawn).
    static bool sorts_per_node(Index draws, Index d) { return draws > 0 && kSortCostRatio * draws <= d; }
    // A node's features may be scanned on several threads: scan() writes only its own
    // feature's column (a ranked column sorted for the node).
    static constexpr bool kConcurrentScans = true;
    // Splits may be categorical or send missing values left (Split::by_prefix() false).
    static constexpr bool kGeneralSplits = true;
    // draws: the features a node draws (0: all of them, in order). Ranked columns are
    // sorted per node only when a node draws few enough of them to make that cheaper
    // than partitioning them at every split.
    DenseColumnStore(const SortedColumns& sorted, Index draws);
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
    std::span<const int> node_order(Index f, Index begin, Index end) {
        sort_split_feature(f, begin, end);
        return {order_.data() + f * m_ + begin, static_cast<std::size_t>(end - begin)};
    }
    Index categories(Index f) const { return sorted_.categories(f); }
    // The node's rows each side of a split (any split, by_prefix() or not).
    void sides(const Split& split, Index begin, Index end, std::vector<int>& left, std::vector<int>& right);
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
    bool sorted_per_node(Index f) const { return per_node_[static_cast<std::size_t>(f)] != 0; }
    // Writes the node's rows of a ranked column, sorted, into its range of order_ /
    // values_; false (nothing written) when the column is constant in the node.
    bool sort_node(Index f, Index begin, Index end);
    // A ranked column scanned from its counts is sorted once chosen: the split's sides
    // and partition read its order.
    void sort_split_feature(Index f, Index begin, Index end) {
        if (sorted_per_node(f) && sorted_range_[static_cast<std::size_t>(f)] != std::pair<Index, Index>{begin, end})
            sort_node(f, begin, end);
    }
    // The scan of a ranked column from the node's weight per (rank, class), without
    // sorting the rows (classification with whole-number weights, where sums in any
    // order are the same); false when the column is constant in the node.
    template <class Scan>
    bool scan_counts(const ScanInputs& in, Index f, Index begin, Index end, Split& best);

    const SortedColumns& sorted_;
    std::vector<int> all_features_;
    std::vector<char> per_node_;  // per column: sorted per node (ranked), not partitioned
    Index m_ = 0;
    std::vector<int> order_;      // cols x m local indices, each node a range per column
    std::vector<double> values_;  // cols x m, the matching feature values
    std::vector<int> rows_;       // the node's rows in row order, each node a range
    std::vector<std::uint8_t> rank_;  // cols x m: the rank of each local row (ranked columns)
    // Per column sorted per node: the range its order_ / values_ hold sorted (each node
    // has its own range), and its counting sort's buckets (4 parts x kMaxRanks).
    std::vector<std::pair<Index, Index>> sorted_range_;
    std::vector<int> buckets_;
    bool whole_weights_ = false;        // every sample weight a whole number (counted scans)
    std::vector<double> counted_w_;     // ranks x classes
    std::vector<int> counted_n_, nonempty_;  // rows per rank; the ranks with rows
    std::vector<char> goes_left_;
    std::vector<int> tmp_order_;
    std::vector<double> tmp_values_;
};

}  // namespace kestrel
