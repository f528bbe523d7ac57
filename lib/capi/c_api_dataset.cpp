// The C interface's datasets: a file to read when used, or rows from the caller's arrays
// (copied into the library's matrices, or row-major float64 borrowed: read in place) with
// labels, weights, query ids and names.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>

#include "c_api_handles.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/io/coded_columns.hpp"
#include "kestrel/tasks/option_assignments.hpp"

namespace kestrel::capi {
namespace {

// Hands a new dataset to the caller; the handle is theirs to free.
void give(std::unique_ptr<KestrelDataset> data, KestrelDataset** out) { *out = data.release(); }

std::unique_ptr<KestrelDataset> in_memory(Features X) {
    auto data = std::make_unique<KestrelDataset>();
    data->table.X = std::move(X);
    data->table.source = kMemorySource;
    return data;
}

template <class Value>
DenseMatrix dense_copy(const Value* values, std::size_t n_rows, std::size_t n_cols, int layout) {
    if (layout != KESTREL_ROW_MAJOR && layout != KESTREL_COL_MAJOR)
        throw UsageError("layout " + std::to_string(layout) + ": must be KESTREL_ROW_MAJOR or KESTREL_COL_MAJOR");
    DenseMatrix m(static_cast<Index>(n_rows), static_cast<Index>(n_cols));
    for (std::size_t i = 0; i < n_rows; ++i)
        for (std::size_t j = 0; j < n_cols; ++j) {
            const std::size_t at = layout == KESTREL_ROW_MAJOR ? i * n_cols + j : j * n_rows + i;
            m(static_cast<Index>(i), static_cast<Index>(j)) = static_cast<double>(values[at]);
        }
    return m;
}

// DataError naming the first infinite cell of `m` in row order (rows and columns from 1,
// as the readers name a cell), for KESTREL_DENSE_REJECT_INFINITE.
void reject_infinite(const DenseView& m) {
    for (Index i = 0; i < m.rows(); ++i)
        for (Index j = 0; j < m.cols(); ++j)
            if (std::isinf(m(i, j)))
                throw DataError(std::string(kMemorySource) + ": row " + std::to_string(i + 1) + ", column " +
                                std::to_string(j + 1) + ": " + (m(i, j) > 0 ? "+inf" : "-inf") +
                                " is not a number the rows can hold (NaN is a missing cell)");
}

template <class Value>
int from_dense(const Value* values, std::size_t n_rows, std::size_t n_cols, int layout, int flags,
               KestrelDataset** out, const char* function) {
    return guarded([&] {
        require(out, function, "out");
        if (n_rows * n_cols > 0) require(values, function, "values");
        if ((flags & ~(KESTREL_DENSE_BORROW | KESTREL_DENSE_REJECT_INFINITE)) != 0)
            throw UsageError(std::string(function) + ": flags " + std::to_string(flags) +
                             ": only KESTREL_DENSE_BORROW and KESTREL_DENSE_REJECT_INFINITE are known");
        Features rows;
        if constexpr (std::is_same_v<Value, double>) {
            if ((flags & KESTREL_DENSE_BORROW) != 0 && layout == KESTREL_ROW_MAJOR)
                rows = Features::borrowed(values, static_cast<Index>(n_rows), static_cast<Index>(n_cols));
        }
        if (!rows.is_borrowed()) rows = dense_copy(values, n_rows, n_cols, layout);
        if ((flags & KESTREL_DENSE_REJECT_INFINITE) != 0) reject_infinite(rows.dense_ref());
        give(in_memory(std::move(rows)), out);
    });
}

// The CSR arrays checked (DataError naming the row) and copied.
SparseMatrix csr_copy(const std::int64_t* indptr, const std::int32_t* indices, const double* values,
                      std::size_t n_rows, std::size_t n_cols) {
    if (indptr[0] != 0) throw DataError("CSR rows: indptr[0] is " + std::to_string(indptr[0]) + ", not 0");
    const std::int64_t nnz = indptr[n_rows];
    if (nnz > std::numeric_limits<int>::max()) throw DataError("CSR rows: more entries than the library's 2^31 - 1");
    SparseMatrix m(static_cast<Index>(n_rows), static_cast<Index>(n_cols));
    m.reserve(static_cast<Index>(nnz));
    for (std::size_t i = 0; i < n_rows; ++i) {
        if (indptr[i + 1] < indptr[i]) throw DataError("CSR row " + std::to_string(i) + ": indptr decreases");
        m.startVec(static_cast<Index>(i));
        for (std::int64_t k = indptr[i]; k < indptr[i + 1]; ++k) {
            const std::int32_t j = indices[k];
            if (j < 0 || static_cast<std::size_t>(j) >= n_cols || (k > indptr[i] && j <= indices[k - 1]))
                throw DataError("CSR row " + std::to_string(i) + ": column " + std::to_string(j) +
                                " out of order or beyond n_cols " + std::to_string(n_cols));
            m.insertBack(static_cast<Index>(i), j) = values[k];
        }
    }
    m.finalize();
    return m;
}

// The dataset's rows, UsageError for a file dataset (its rows are the file's).
template <class Handle>
Handle& in_memory_rows(Handle* data, const char* function) {
    require(data, function, "data");
    if (data->from_file)
        throw UsageError(std::string(function) + ": the dataset is a file, read with its own columns");
    return *data;
}

void require_one_per_row(const KestrelDataset& data, std::size_t n, const char* what) {
    if (static_cast<Index>(n) != data.table.X.rows())
        throw DataError(std::string(what) + ": " + std::to_string(n) + " given for " +
                        std::to_string(data.table.X.rows()) + " rows");
}

RawLabels raw_labels(const KestrelDataset& data, std::size_t n) {
    RawLabels labels;
    labels.source = kMemorySource;
    labels.line.resize(n);
    for (std::size_t i = 0; i < n; ++i) labels.line[i] = i + 1;  // messages name rows from 1, as lines
    if (data.table.labels) labels.qid = data.table.labels->qid;  // set_groups may come first
    return labels;
}

// Sets labels on a dataset of rows; `fill` fills texts and numbers, or the numbers alone when
// `numbers_only` (RawLabels::texts_are_numbers: each text is its number's, written when needed).
template <class Fill>
int set_labels(KestrelDataset* data, std::size_t n, const void* given, const char* function, Fill fill,
               bool numbers_only = false) {
    return guarded([&] {
        KestrelDataset& d = in_memory_rows(data, function);
        if (n > 0) require(given, function, "labels");
        require_one_per_row(d, n, "labels");
        RawLabels labels = raw_labels(d, n);
        labels.texts_are_numbers = numbers_only;
        if (!numbers_only) labels.text.resize(n);
        labels.numeric.resize(n);
        for (std::size_t i = 0; i < n; ++i) fill(i, labels);
        d.table.labels = std::move(labels);
    });
}

}  // namespace
}  // namespace kestrel::capi

using kestrel::capi::guarded;
using kestrel::capi::require;

extern "C" {

int kestrel_dataset_from_file(const char* path, const char* const* options, size_t n_options, KestrelDataset** out) {
    return guarded([&] {
        require(path, "kestrel_dataset_from_file", "path");
        require(out, "kestrel_dataset_from_file", "out");
        auto data = std::make_unique<KestrelDataset>();
        data->from_file = true;
        data->file = kestrel::training_options_from_assignments(
            path, kestrel::capi::texts(options, n_options, "kestrel_dataset_from_file", "options"));
        kestrel::capi::give(std::move(data), out);
    });
}

int kestrel_dataset_from_dense(const double* values, size_t n_rows, size_t n_cols, int layout, KestrelDataset** out) {
    return kestrel::capi::from_dense(values, n_rows, n_cols, layout, 0, out, "kestrel_dataset_from_dense");
}

int kestrel_dataset_from_dense_ex(const double* values, size_t n_rows, size_t n_cols, int layout, int flags,
                                  KestrelDataset** out) {
    return kestrel::capi::from_dense(values, n_rows, n_cols, layout, flags, out, "kestrel_dataset_from_dense_ex");
}

int kestrel_dataset_from_dense_f32(const float* values, size_t n_rows, size_t n_cols, int layout,
                                   KestrelDataset** out) {
    return kestrel::capi::from_dense(values, n_rows, n_cols, layout, 0, out, "kestrel_dataset_from_dense_f32");
}

int kestrel_dataset_from_dense_f32_ex(const float* values, size_t n_rows, size_t n_cols, int layout, int flags,
                                      KestrelDataset** out) {
    return kestrel::capi::from_dense(values, n_rows, n_cols, layout, flags, out, "kestrel_dataset_from_dense_f32_ex");
}

int kestrel_dataset_from_csr(const int64_t* indptr, const int32_t* indices, const double* values, size_t n_rows,
                             size_t n_cols, KestrelDataset** out) {
    return guarded([&] {
        require(out, "kestrel_dataset_from_csr", "out");
        require(indptr, "kestrel_dataset_from_csr", "indptr");
        if (indptr[n_rows] > 0) {
            require(indices, "kestrel_dataset_from_csr", "indices");
            require(values, "kestrel_dataset_from_csr", "values");
        }
        kestrel::capi::give(kestrel::capi::in_memory(kestrel::capi::csr_copy(indptr, indices, values, n_rows, n_cols)),
                            out);
    });
}

int kestrel_dataset_set_labels(KestrelDataset* data, const double* labels, size_t n) {
    // Finite labels other than -0 (whose text "-0" is a class apart) are held as numbers only:
    // writing and hashing a text per row was a fifth of a small logistic fit.
    const bool numbers_only = labels && std::all_of(labels, labels + n, [](double v) {
        return std::isfinite(v) && !(v == 0 && std::signbit(v));
    });
    return kestrel::capi::set_labels(
        data, n, labels, "kestrel_dataset_set_labels",
        [&](std::size_t i, kestrel::RawLabels& out) {
            out.numeric[i] = labels[i];
            if (!numbers_only) out.text[i] = kestrel::format_number(labels[i]);
        },
        numbers_only);
}

int kestrel_dataset_set_label_strings(KestrelDataset* data, const char* const* labels, size_t n) {
    return kestrel::capi::set_labels(data, n, labels, "kestrel_dataset_set_label_strings",
                                     [&](std::size_t i, kestrel::RawLabels& out) {
                                         require(labels[i], "kestrel_dataset_set_label_strings", "a label");
                                         out.text[i] = labels[i];
                                         const auto x = kestrel::parse_number_text(out.text[i]);
                                         out.numeric[i] = x ? *x : std::nan("");
                                     });
}

int kestrel_dataset_set_weights(KestrelDataset* data, const double* weights, size_t n) {
    return guarded([&] {
        auto& d = kestrel::capi::in_memory_rows(data, "kestrel_dataset_set_weights");
        if (n > 0) require(weights, "kestrel_dataset_set_weights", "weights");
        kestrel::capi::require_one_per_row(d, n, "weights");
        d.weights = Eigen::Map<const kestrel::Vector>(weights, static_cast<kestrel::Index>(n));
    });
}

int kestrel_dataset_set_groups(KestrelDataset* data, const double* qid, size_t n) {
    return guarded([&] {
        auto& d = kestrel::capi::in_memory_rows(data, "kestrel_dataset_set_groups");
        if (n > 0) require(qid, "kestrel_dataset_set_groups", "qid");
        kestrel::capi::require_one_per_row(d, n, "query ids");
        const kestrel::Vector ids = Eigen::Map<const kestrel::Vector>(qid, static_cast<kestrel::Index>(n));
        kestrel::check_query_ids(ids, {}, kestrel::capi::kMemorySource);
        if (!d.table.labels) d.table.labels = kestrel::capi::raw_labels(d, 0);
        d.table.labels->qid.assign(qid, qid + n);
    });
}

int kestrel_dataset_set_feature_names(KestrelDataset* data, const char* const* names, size_t n) {
    return guarded([&] {
        auto& d = kestrel::capi::in_memory_rows(data, "kestrel_dataset_set_feature_names");
        if (static_cast<kestrel::Index>(n) != d.table.X.cols())
            throw kestrel::DataError("feature names: " + std::to_string(n) + " given for " +
                                     std::to_string(d.table.X.cols()) + " columns");
        d.table.feature_names = kestrel::capi::texts(names, n, "kestrel_dataset_set_feature_names", "names");
    });
}

int kestrel_dataset_set_categories(KestrelDataset* data, size_t column, const char* const* names, size_t n_names) {
    return guarded([&] {
        auto& d = kestrel::capi::in_memory_rows(data, "kestrel_dataset_set_categories");
        kestrel::set_coded_column(d.table, static_cast<kestrel::Index>(column),
                                  kestrel::capi::texts(names, n_names, "kestrel_dataset_set_categories", "names"));
    });
}

int kestrel_dataset_shape(const KestrelDataset* data, size_t* n_rows, size_t* n_cols) {
    return guarded([&] {
        const KestrelDataset& d = kestrel::capi::in_memory_rows(data, "kestrel_dataset_shape");
        if (n_rows) *n_rows = static_cast<size_t>(d.table.X.rows());
        if (n_cols) *n_cols = static_cast<size_t>(d.table.X.cols());
    });
}

void kestrel_dataset_free(KestrelDataset* data) { delete data; }

}  // extern "C"
