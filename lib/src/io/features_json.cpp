#include "kestrel/io/features_json.hpp"

#include <algorithm>
#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/core/json_packed.hpp"
#include "kestrel/core/json_read.hpp"

namespace kestrel {

Json features_to_json(const Features& X) {
    if (!X.is_sparse()) {
        const DenseView m = X.dense_ref();
        Json rows = Json::array();
        for (Index i = 0; i < m.rows(); ++i) rows.push_back(std::vector<double>(m.row(i).begin(), m.row(i).end()));
        return {{"format", "dense"}, {"rows", std::move(rows)}};
    }
    const SparseMatrix& s = X.sparse_ref();
    Json idx = Json::array(), val = Json::array();
    for (Index i = 0; i < s.rows(); ++i) {
        std::vector<int> ii;
        std::vector<double> vv;
        for (SparseMatrix::InnerIterator it(s, i); it; ++it) {
            ii.push_back(static_cast<int>(it.index()));
            vv.push_back(it.value());
        }
        idx.push_back(std::move(ii));
        val.push_back(std::move(vv));
    }
    return {{"format", "sparse"}, {"indices", std::move(idx)}, {"values", std::move(val)}};
}

namespace {

bool all_finite(const Features& X) {
    if (X.is_sparse()) {
        const SparseMatrix& s = X.sparse_ref();
        return std::all_of(s.valuePtr(), s.valuePtr() + s.nonZeros(), [](double v) { return std::isfinite(v); });
    }
    return X.dense_ref().allFinite();
}

// Rows r of `count`, as Json::dump() writes an array of number arrays: [[a,b],[c]].
template <class Row>
JsonTextSlots::Writer rows_writer(Index count, Row row) {
    return [count, row](std::string& out, int) {
        out += '[';
        for (Index r = 0; r < count; ++r) {
            if (r) out += ',';
            out += '[';
            row(r, out);
            out += ']';
        }
        out += ']';
    };
}

void append_numbers(std::string& out, const double* v, Index n) {
    for (Index k = 0; k < n; ++k) {
        if (k) out += ',';
        append_json_number(out, v[k]);
    }
}

}  // namespace

Json features_to_json(const Features& X, JsonTextSlots& slots) {
    if (!all_finite(X) || (X.is_sparse() && !X.sparse_ref().isCompressed())) return features_to_json(X);
    if (!X.is_sparse()) {
        const DenseView m = X.dense_ref();
        return {{"format", "dense"},
                {"rows", slots.add(rows_writer(m.rows(), [m](Index r, std::string& out) {
                     append_numbers(out, m.data() + r * m.cols(), m.cols());
                 }))}};
    }
    const SparseMatrix& s = X.sparse_ref();
    const auto entries = [&s](Index r) { return s.outerIndexPtr()[r + 1] - s.outerIndexPtr()[r]; };
    return {{"format", "sparse"},
            {"indices", slots.add(rows_writer(s.rows(),
                                              [&s, entries](Index r, std::string& out) {
                                                  const int* idx = s.innerIndexPtr() + s.outerIndexPtr()[r];
                                                  for (Index k = 0; k < entries(r); ++k) {
                                                      if (k) out += ',';
                                                      append_json_number(out, std::int64_t{idx[k]});
                                                  }
                                              }))},
            {"values", slots.add(rows_writer(s.rows(), [&s, entries](Index r, std::string& out) {
                 append_numbers(out, s.valuePtr() + s.outerIndexPtr()[r], entries(r));
             }))}};
}

namespace {

// Appends row i of n entries to a row-major matrix being built with startVec /
// insertBack, checking what a saved row promises: indices in [0, d), increasing.
template <class IndexAt, class ValueAt>
void append_row(SparseMatrix& s, Index i, std::size_t n, IndexAt index_at, ValueAt value_at, Index d) {
    s.startVec(i);
    for (std::size_t t = 0; t < n; ++t) {
        const std::int64_t c = index_at(t);
        if (c < 0 || c >= d) throw ModelStateError("feature row feature index out of range");
        if (t > 0 && c <= index_at(t - 1)) throw ModelStateError("feature row feature indices must increase");
        s.insertBack(i, static_cast<Index>(c)) = value_at(t);
    }
}

// Feature rows as parse_model_json keeps them (core/json_packed.hpp): no DOM of the
// numbers. The checks and messages are those of the DOM path below.
Features dense_from_packed(const PackedArray& rows, Index d) {
    if (rows.kind != PackedKind::real_rows) throw ModelStateError("feature rows: \"rows\" must be an array");
    if (rows.size > 0 && static_cast<Index>(rows.width) != d)
        throw ModelStateError("feature row with the wrong length");
    DenseMatrix m(static_cast<Index>(rows.size), d);
    for (Index i = 0; i < m.rows(); ++i)
        for (Index c = 0; c < d; ++c) m(i, c) = rows.real(static_cast<std::size_t>(i * d + c));
    return Features(std::move(m));
}

Features sparse_from_packed(const PackedArray& idx, const PackedArray& val, Index d) {
    if (idx.kind != PackedKind::ragged_integers || val.kind != PackedKind::ragged_reals || idx.size != val.size)
        throw ModelStateError("feature row indices and values differ in count");
    SparseMatrix s(static_cast<Index>(idx.size), d);
    s.reserve(static_cast<Index>(idx.row_start(idx.size)));
    for (std::size_t i = 0; i < idx.size; ++i) {
        const std::size_t b = idx.row_start(i), vb = val.row_start(i), n = idx.row_start(i + 1) - b;
        if (n != val.row_start(i + 1) - vb) throw ModelStateError("feature row indices and values differ in length");
        append_row(s, static_cast<Index>(i), n, [&](std::size_t t) { return idx.integer(b + t); },
                   [&](std::size_t t) { return val.real(vb + t); }, d);
    }
    s.finalize();
    return Features(std::move(s));
}

}  // namespace

Features features_from_json(const Json& j, Index d) {
    if (!j.is_object()) throw ModelStateError("feature rows must be an object");
    const auto fmt = j.at("format").get<std::string>();
    if (fmt == "dense") {
        const Json& rows = j.at("rows");
        if (const auto packed = packed_array(rows)) return dense_from_packed(*packed, d);
        if (!rows.is_array()) throw ModelStateError("feature rows: \"rows\" must be an array");
        DenseMatrix m(static_cast<Index>(rows.size()), d);
        for (Index i = 0; i < m.rows(); ++i) {
            const auto r = rows[static_cast<std::size_t>(i)].get<std::vector<double>>();
            if (static_cast<Index>(r.size()) != d) throw ModelStateError("feature row with the wrong length");
            for (Index c = 0; c < d; ++c) m(i, c) = r[static_cast<std::size_t>(c)];
        }
        return Features(std::move(m));
    }
    if (fmt != "sparse") throw ModelStateError("unknown feature row format '" + fmt + "'");
    const Json& idx = j.at("indices");
    const Json& val = j.at("values");
    {
        const auto pi = packed_array(idx), pv = packed_array(val);
        if (pi && pv) return sparse_from_packed(*pi, *pv, d);
        if (pi || pv) throw ModelStateError("feature row indices and values differ in count");
    }
    if (!idx.is_array() || !val.is_array() || idx.size() != val.size())
        throw ModelStateError("feature row indices and values differ in count");
    // Built row by row: setFromTriplets would sort through a column-major copy whose
    // size grows with the width, which a sparse model declaring 2^31 features (a
    // LIBSVM model with a high index) cannot afford. Saved rows are sorted.
    SparseMatrix s(static_cast<Index>(idx.size()), d);
    std::size_t nnz = 0;
    for (const auto& r : idx) nnz += r.is_array() ? r.size() : 0;
    s.reserve(static_cast<Index>(nnz));
    for (std::size_t i = 0; i < idx.size(); ++i) {
        const auto ii = json_integers<int>(idx[i]);
        const auto vv = val[i].get<std::vector<double>>();
        if (ii.size() != vv.size()) throw ModelStateError("feature row indices and values differ in length");
        append_row(s, static_cast<Index>(i), ii.size(), [&](std::size_t t) { return std::int64_t{ii[t]}; },
                   [&](std::size_t t) { return vv[t]; }, d);
    }
    s.finalize();
    return Features(std::move(s));
}

}  // namespace kestrel
