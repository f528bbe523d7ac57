#pragma once
// The quantized store (docs/large-data.md): a table's features as the histogram learners
// read them, bin codes under cuts fixed once (common/bin_cuts.hpp), one byte a cell (two
// where a feature has more than 255 bins), and no double of the features. Labels, weights,
// query ids, names and categories stay in a Dataset whose X is the store's shape (an n x d
// sparse matrix without entries, O(rows)), so that every check of a fit reads them as for
// any table. gbdt and the histogram forest fit on it to the same model file as on the doubles the codes came from
// when the cuts are the same (those BinCuts::fit gives on all the rows, same max_bins and
// seed).
#include <cstdint>
#include <memory>
#include <span>
#include <utility>

#include "kestrel/common/bin_cuts.hpp"
#include "kestrel/core/dataset.hpp"

namespace kestrel {

class QuantizedTable {
public:
    QuantizedTable(BinCuts cuts, BinnedMatrix bins, int max_bins, std::uint64_t seed, bool absent_is_missing = true)
        : cuts_(std::move(cuts)), bins_(std::move(bins)), max_bins_(max_bins), seed_(seed),
          absent_is_missing_(absent_is_missing) {}

    const BinCuts& cuts() const { return cuts_; }
    const BinnedMatrix& bins() const { return bins_; }
    // What the cuts were fit with: a fit asking other bins cannot use them.
    int max_bins() const { return max_bins_; }
    std::uint64_t seed() const { return seed_; }
    // How an entry absent from a sparse row was coded: missing (gbdt's reading), or the
    // value 0 (the forest's, which bins sparse rows dense). A dense table's store is both.
    bool absent_is_missing() const { return absent_is_missing_; }

private:
    BinCuts cuts_;
    BinnedMatrix bins_;
    int max_bins_ = 0;
    std::uint64_t seed_ = 0;
    bool absent_is_missing_ = true;
};

// The shape a Dataset holding a store gives its X: rows x cols, no entries (O(rows)).
Features shape_only(Index rows, Index cols);

// The store of X: the cuts BinCuts::fit gives on all its rows (its categorical features as
// category_counts says) and every row's codes. absent_is_missing false: a sparse X's absent
// entries are the value 0 (X is binned dense, as the histogram forest bins it).
std::shared_ptr<const QuantizedTable> quantize(const Features& X, std::span<const Index> category_counts,
                                               int max_bins, std::uint64_t seed, int threads,
                                               bool absent_is_missing = true);

// The store reaches a fit beside its Dataset, not in it: core's Dataset is a table of
// doubles that every floor reads, and a field there for one family's input would be a
// field every model must refuse. While a QuantizedRows is alive on a thread, a histogram
// learner fitting there on a Dataset whose X is the store's shape (shape_only) reads the
// store's codes instead; any other Dataset is fit as before.
class QuantizedRows {
public:
    explicit QuantizedRows(std::shared_ptr<const QuantizedTable> store);
    ~QuantizedRows();
    QuantizedRows(const QuantizedRows&) = delete;
    QuantizedRows& operator=(const QuantizedRows&) = delete;

private:
    std::shared_ptr<const QuantizedTable> store_;
    const QuantizedTable* outer_;
};

// The store of `data` on this thread (a QuantizedRows is alive and X is its shape), or null;
// InternalError for an X without entries of another shape while one is alive (the shape
// subset: rows the store does not hold).
const QuantizedTable* quantized_rows_of(const Dataset& data);

}  // namespace kestrel
