#pragma once
// Quantile binning of feature values and the binned matrix, shared by the histogram learners: `gbdt`
// (docs/models/gbdt.md, "Binning") and the forest's tree_method=hist (docs/models/forest.md,
// "On shards"). Feature f's non-missing values fall into bins 0..n_bins(f)−1, bin b holding
// the values in (upper(f, b−1), upper(f, b)]; missing values (NaN, and entries absent
// from a sparse row) have their own bin, n_bins(f). A split "bin <= b" is therefore the
// split "x <= upper(f, b)" on raw values, which is what the fitted trees store.
//
// A categorical feature (Dataset::category_counts) is not cut at quantiles: each category
// code seen in the training rows has its own bin, in code order, and codes not seen
// (no training row), invalid cells and NaN fall into the missing bin. With more seen
// categories than max_bins, the max_bins − 1 most frequent (ties: the lower code) keep
// their own bins and the others share the last bin.
#include <cstdint>
#include <span>
#include <vector>

#include "kestrel/common/code_pages.hpp"
#include "kestrel/common/row_shards.hpp"  // RowSpan
#include "kestrel/common/tree.hpp"  // category_code
#include "kestrel/core/dataset.hpp"

namespace kestrel {

// Branch-free lower bound: the first of the nb ascending edges e[0..nb) that is >= x
// (nb when none is; the last edge of a BinCuts feature holds every finite x).
inline int first_edge_at_least(const double* e, int nb, double x) {
    const double* first = e;
    auto len = static_cast<std::size_t>(nb);
    while (len > 1) {
        const std::size_t half = len / 2;
        first += static_cast<std::size_t>(first[half - 1] < x) * half;  // no branch to mispredict
        len -= half;
    }
    return static_cast<int>(first - e) + (*first < x ? 1 : 0);
}

class BinCuts {
public:
    BinCuts() = default;
    // Cut points from the rows `rows` of X (all rows when empty): with at most max_bins
    // distinct values, one bin per value (edges at midpoints); else edges at the
    // j/max_bins quantiles, j = 1..max_bins−1 (linear interpolation, duplicates merged).
    // At most 200000 rows are looked at (a seeded sample beyond that, as LightGBM and
    // scikit-learn do). Values must be finite or NaN (the caller checks).
    // category_counts: per feature 0 (numeric) or its k categories; empty = all numeric.
    // A categorical feature's bins count every training row (not the sample).
    static BinCuts fit(const Features& X, std::span<const Index> rows, int max_bins, std::uint64_t seed,
                       int threads, std::span<const Index> category_counts = {});
    // The cuts fit() gives on the whole data, when X holds rows span.first .. of the rows
    // spread over MPI ranks (kestrel-train --shard; every rank calls it): the sample is
    // drawn over the whole data's row numbers exactly as fit() draws it, each rank sends
    // the sampled values it holds, and every rank cuts the gathered values. A categorical
    // feature's code counts are summed over the ranks (its codes the whole data's, the
    // same on every rank: kestrel-train --shard agrees on them), so its bins are fit()'s
    // too. A collective step.
    static BinCuts fit_over_ranks(const Features& X, RowSpan span, int max_bins, std::uint64_t seed,
                                  std::span<const Index> category_counts = {});

    // The parts of fit() for rows met one block at a time (the quantized store built while
    // a file is read, docs/large-data.md), giving fit()'s cuts on all the rows:
    // the rows whose values fix the cuts, ascending (all n_all rows up to 200000, else the
    // seeded sample fit() draws);
    static std::vector<Index> sample_rows(Index n_all, std::uint64_t seed);
    // a numeric feature's upper edges from the sampled rows' non-missing values (in any
    // order; `values` is sorted and may be freed after);
    static std::vector<double> feature_edges(std::vector<double>& values, int max_bins);
    // the cuts from each numeric feature's edges and each categorical feature's code counts
    // over every row (empty for a numeric feature; `code_counts` empty: all numeric).
    static BinCuts from_parts(std::vector<std::vector<double>> edges, const std::vector<std::vector<Index>>& code_counts,
                              int max_bins);

    Index n_features() const { return static_cast<Index>(bin_offset_.size()) - 1; }
    int n_bins(Index f) const { return static_cast<int>(edge_offset_[f + 1] - edge_offset_[f]); }
    int missing_bin(Index f) const { return n_bins(f); }
    // Upper edge of bin b; the last bin's is the largest double (every finite value).
    double upper(Index f, int b) const { return edges_[static_cast<std::size_t>(edge_offset_[f] + b)]; }
    const double* edges(Index f) const { return edges_.data() + edge_offset_[f]; }
    // Bin of value x of feature f (NaN: the missing bin).
    int bin_of(Index f, double x) const;
    // Categorical features: whether f is one, its k categories, and the bin of each code
    // (−1: the missing bin; no training row had the code).
    bool is_categorical(Index f) const {
        return !code_bin_.empty() && !code_bin_[static_cast<std::size_t>(f)].empty();
    }
    Index n_categories(Index f) const { return static_cast<Index>(code_bin_[static_cast<std::size_t>(f)].size()); }
    const std::vector<int>& code_bins(Index f) const { return code_bin_[static_cast<std::size_t>(f)]; }
    bool any_categorical() const { return !code_bin_.empty(); }
    // Histogram layout: feature f's cells (its bins and its missing bin) start at offset(f).
    Index offset(Index f) const { return bin_offset_[static_cast<std::size_t>(f)]; }
    Index total_cells() const { return bin_offset_.back(); }
    // Whether every bin index (missing included) fits a byte.
    bool fits_byte() const { return max_cells_ <= 256; }

private:
    // The layout from each feature's upper edges (the last one the largest double).
    static BinCuts from_edges(const std::vector<std::vector<double>>& edges);

    std::vector<double> edges_;       // per feature, n_bins upper edges
    std::vector<Index> edge_offset_;  // n_features + 1
    std::vector<Index> bin_offset_;   // n_features + 1, cells = n_bins + 1
    Index max_cells_ = 0;
    std::vector<std::vector<int>> code_bin_;  // per feature: code -> bin (empty: numeric); empty: all numeric
};

// The bins of a set of rows, column-major (feature f's column is contiguous) so that a
// histogram of one feature is one pass over one column. One byte a bin when every
// feature has at most 255 bins, else two. The codes are in heap memory, or in the pages of
// a mapped temporary file (common/code_pages.hpp: the quantized store that does not fit
// the memory budget); every reader sees the same pointers either way.
class BinnedMatrix {
public:
    BinnedMatrix() = default;
    // Row i of the matrix is row rows[i] of X (all rows of X in order when `rows` is empty).
    BinnedMatrix(const BinCuts& cuts, const Features& X, std::span<const Index> rows, int threads);
    // n rows of d features, every bin 0, to be filled block by block (fill_rows): the
    // quantized store written while a file is read (docs/large-data.md).
    BinnedMatrix(const BinCuts& cuts, Index n, Index d);
    // The same in `pages`, code_bytes(cuts, n, d) zero bytes (in memory or in a file).
    BinnedMatrix(const BinCuts& cuts, Index n, Index d, CodePages pages);
    // The bytes of the codes of n rows of d features under `cuts` (one or two a cell).
    static std::uint64_t code_bytes(const BinCuts& cuts, Index n, Index d);
    // Rows first .. first + X.rows() − 1 binned from the rows of X (a block of the input):
    // the same bins as the constructor from all the rows gives them.
    void fill_rows(const BinCuts& cuts, const Features& X, Index first, int threads);
    // The rows given, in that order (the hold-out of early stopping), in memory.
    BinnedMatrix rows_subset(std::span<const Index> rows) const;

    Index rows() const { return n_; }
    Index cols() const { return d_; }
    bool wide() const { return wide_ || codes_.size() == 0; }
    const std::uint8_t* column8(Index f) const {
        return reinterpret_cast<const std::uint8_t*>(codes_.data()) + f * n_;
    }
    const std::uint16_t* column16(Index f) const {
        return reinterpret_cast<const std::uint16_t*>(codes_.data()) + f * n_;
    }
    int bin(Index f, Index i) const {
        return wide_ ? static_cast<int>(column16(f)[i]) : static_cast<int>(column8(f)[i]);
    }
    // Where the codes are: in a mapped file (and its directory), or in memory.
    const CodePages& pages() const { return codes_; }
    // Column f's codes read ahead from disk when they are in a file (CodePages::will_need).
    void will_need_column(Index f) const {
        const auto unit = static_cast<std::size_t>(wide_ ? 2 : 1);
        codes_.will_need(static_cast<std::size_t>(f * n_) * unit, static_cast<std::size_t>(n_) * unit);
    }

private:
    std::uint8_t* codes8() { return reinterpret_cast<std::uint8_t*>(codes_.data()); }
    std::uint16_t* codes16() { return reinterpret_cast<std::uint16_t*>(codes_.data()); }

    Index n_ = 0, d_ = 0;
    bool wide_ = false;  // two bytes a code
    CodePages codes_;
};

}  // namespace kestrel
