#include "kestrel/common/quantized_table.hpp"

#include <optional>
#include <string>
#include <utility>

#include "kestrel/core/error.hpp"

namespace kestrel {
namespace {

thread_local const QuantizedTable* current_store = nullptr;

}  // namespace

Features shape_only(Index rows, Index cols) {
    SparseMatrix empty(rows, cols);
    empty.makeCompressed();
    return Features(std::move(empty));
}

std::shared_ptr<const QuantizedTable> quantize(const Features& X, std::span<const Index> category_counts,
                                               int max_bins, std::uint64_t seed, int threads,
                                               bool absent_is_missing) {
    std::optional<Features> densified;
    if (!absent_is_missing && X.is_sparse()) densified.emplace(X.to_dense());
    const Features& rows = densified ? *densified : X;
    BinCuts cuts = BinCuts::fit(rows, {}, max_bins, seed, threads, category_counts);
    BinnedMatrix bins(cuts, rows, {}, threads);
    return std::make_shared<const QuantizedTable>(std::move(cuts), std::move(bins), max_bins, seed, absent_is_missing);
}

QuantizedRows::QuantizedRows(std::shared_ptr<const QuantizedTable> store)
    : store_(std::move(store)), outer_(current_store) {
    current_store = store_.get();
}

QuantizedRows::~QuantizedRows() { current_store = outer_; }

const QuantizedTable* quantized_rows_of(const Dataset& data) {
    const QuantizedTable* s = current_store;
    if (s == nullptr || !data.X.is_sparse() || data.X.sparse_ref().nonZeros() != 0) return nullptr;
    // A shape of another size is the store's shape subset (folds, one-vs-one's pairs): its
    // rows are not the store's, and fitting it would read every cell as missing.
    if (data.rows() != s->bins().rows() || data.cols() != s->bins().cols())
        throw InternalError("rows held quantized (" + std::to_string(s->bins().rows()) + " x " +
                            std::to_string(s->bins().cols()) + ") were given as " + std::to_string(data.rows()) +
                            " x " + std::to_string(data.cols()) + ": a store's rows cannot be subset");
    return s;
}

}  // namespace kestrel
