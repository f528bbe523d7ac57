#include "kestrel/core/dataset.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/core/number_text.hpp"

namespace kestrel {

const char* to_string(Task t) { return t == Task::classification ? "classification" : "regression"; }

Task task_from_string(const std::string& s) {
    if (s == "classification") return Task::classification;
    if (s == "regression") return Task::regression;
    throw UsageError("unknown task '" + s + "' (valid: classification, regression)");
}

Features::Storage Features::owned_copy(const Storage& m) {
    if (const auto* b = std::get_if<Borrowed>(&m)) return DenseMatrix(b->map());
    return m;
}

Features Features::borrowed(const double* values, Index rows, Index cols) {
    Features f;
    f.m_ = Borrowed{values, rows, cols};
    return f;
}

Features Features::view() const {
    if (is_sparse() || is_borrowed()) {
        Features f;
        f.m_ = m_;  // sparse: a copy; borrowed: the same rows
        return f;
    }
    const DenseMatrix& m = std::get<DenseMatrix>(m_);
    return borrowed(m.data(), m.rows(), m.cols());
}

Index Features::rows() const {
    if (const auto* b = std::get_if<Borrowed>(&m_)) return b->rows;
    return is_sparse() ? std::get<SparseMatrix>(m_).rows() : std::get<DenseMatrix>(m_).rows();
}

Index Features::cols() const {
    if (const auto* b = std::get_if<Borrowed>(&m_)) return b->cols;
    return is_sparse() ? std::get<SparseMatrix>(m_).cols() : std::get<DenseMatrix>(m_).cols();
}

DenseView Features::dense_ref() const {
    if (const auto* b = std::get_if<Borrowed>(&m_)) return b->map();
    return std::get<DenseMatrix>(m_);
}

DenseMatrix& Features::dense_mut() {
    if (const auto* b = std::get_if<Borrowed>(&m_)) m_ = DenseMatrix(b->map());  // never write borrowed rows
    return std::get<DenseMatrix>(m_);
}

namespace {

// A sparse file with a few huge indices densifies to terabytes: say so instead of
// letting the out-of-memory killer end the process.
void check_densify(const SparseMatrix& m) {
    const auto bytes = static_cast<double>(m.rows()) * static_cast<double>(m.cols()) * sizeof(double);
    const std::string what = "densifying " + std::to_string(m.rows()) + " rows x " + std::to_string(m.cols()) +
                             " features (a model without a sparse path)";
    if (bytes >= 0x1p62) throw DataError(what + " needs more than 4 EB of memory");
    check_memory(static_cast<std::uint64_t>(bytes), 0, what);
}

}  // namespace

DenseMatrix Features::to_dense() const {
    if (is_sparse()) {
        check_densify(sparse_ref());
        return DenseMatrix(sparse_ref());
    }
    return DenseMatrix(dense_ref());
}

DenseView Features::dense(DenseMatrix& scratch) const {
    if (!is_sparse()) return dense_ref();
    check_densify(sparse_ref());
    scratch = DenseMatrix(sparse_ref());
    return scratch;
}

Features Features::rows_subset(std::span<const Index> rows) const {
    if (!is_sparse()) {
        const DenseView m = dense_ref();
        DenseMatrix out(static_cast<Index>(rows.size()), m.cols());
        for (std::size_t i = 0; i < rows.size(); ++i) out.row(static_cast<Index>(i)) = m.row(rows[i]);
        return out;
    }
    const auto& m = sparse_ref();
    // Build the CSR arrays directly: one pass for the row pointers, one for the entries.
    SparseMatrix out(static_cast<Index>(rows.size()), m.cols());
    Index nnz = 0;
    for (Index r : rows) nnz += m.outerIndexPtr()[r + 1] - m.outerIndexPtr()[r];
    out.resizeNonZeros(nnz);
    int* outer = out.outerIndexPtr();
    int* inner = out.innerIndexPtr();
    double* val = out.valuePtr();
    outer[0] = 0;
    Index pos = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Index r = rows[i];
        for (int k = m.outerIndexPtr()[r]; k < m.outerIndexPtr()[r + 1]; ++k, ++pos) {
            inner[pos] = m.innerIndexPtr()[k];
            val[pos] = m.valuePtr()[k];
        }
        outer[i + 1] = static_cast<int>(pos);
    }
    return out;
}

Features Features::with_cols(Index n) const {
    if (n == cols()) return *this;
    if (!is_sparse()) {
        const DenseView m = dense_ref();
        DenseMatrix out = DenseMatrix::Zero(m.rows(), n);
        const Index keep = std::min(n, m.cols());
        out.leftCols(keep) = m.leftCols(keep);
        return out;
    }
    const auto& m = sparse_ref();
    if (n >= m.cols()) {
        SparseMatrix out = m;
        out.conservativeResize(m.rows(), n);
        return out;
    }
    std::vector<Eigen::Triplet<double, int>> t;
    for (Index r = 0; r < m.outerSize(); ++r)
        for (SparseMatrix::InnerIterator it(m, r); it; ++it)
            if (it.col() < n) t.emplace_back(static_cast<int>(r), static_cast<int>(it.col()), it.value());
    SparseMatrix out(m.rows(), n);
    out.setFromTriplets(t.begin(), t.end());
    return out;
}

Vector Features::multiply(const Vector& w) const {
    if (is_sparse()) return sparse_ref() * w;
    return dense_ref() * w;
}

Eigen::MatrixXd Features::multiply(const Eigen::MatrixXd& w) const {
    if (is_sparse()) return sparse_ref() * w;
    return dense_ref() * w;
}

Vector Features::transpose_multiply(const Vector& v) const {
    if (is_sparse()) return sparse_ref().transpose() * v;
    return dense_ref().transpose() * v;
}

namespace {

// A dataset derived from `from` (its rows over other columns, or some of its rows) starts
// with what describes its labels: their classes and task, and the file and column they
// came from.
Dataset labelled_like(const Dataset& from) {
    Dataset d;
    d.classes = from.classes;
    d.task = from.task;
    d.source = from.source;
    d.label_column = from.label_column;
    return d;
}

// v's entries at `rows`, in that order.
Vector entries_at(const Vector& v, std::span<const Index> rows) {
    Vector out(static_cast<Index>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) out[static_cast<Index>(i)] = v[rows[i]];
    return out;
}

}  // namespace

Dataset Dataset::with_features(Features features) const {
    Dataset d = labelled_like(*this);
    d.X = std::move(features);
    d.y = y;
    d.weights = weights;
    d.qid = qid;
    return d;
}

Dataset Dataset::subset(std::span<const Index> rows) const {
    Dataset d = labelled_like(*this);
    d.X = X.rows_subset(rows);
    d.y = entries_at(y, rows);
    if (has_weights()) d.weights = entries_at(weights, rows);
    if (has_queries()) d.qid = entries_at(qid, rows);
    d.feature_names = feature_names;
    d.category_counts = category_counts;
    d.categories = categories;
    return d;
}

std::vector<Index> query_starts(const Vector& qid) {
    std::vector<Index> starts;
    for (Index i = 0; i < qid.size(); ++i)
        if (i == 0 || qid[i] != qid[i - 1]) starts.push_back(i);
    starts.push_back(qid.size());
    return starts;
}

void check_query_ids(const Vector& qid, const std::vector<std::uint64_t>& line, const std::string& source) {
    const auto where = [&](Index i) {
        const auto r = static_cast<std::size_t>(i);
        return source + ":" + std::to_string(r < line.size() ? line[r] : static_cast<std::uint64_t>(i + 1)) + ": ";
    };
    std::unordered_map<double, Index> first_row;  // query id -> its first row
    for (Index i = 0; i < qid.size(); ++i) {
        if (!std::isfinite(qid[i])) throw DataError(where(i) + "the query id is missing or not a number");
        if (i > 0 && qid[i] == qid[i - 1]) continue;
        const auto [it, fresh] = first_row.emplace(qid[i], i);
        if (!fresh) {
            const auto r = static_cast<std::size_t>(it->second);
            throw DataError(where(i) + "query " + format_number(qid[i]) + " reappears after other queries (first on line " +
                            std::to_string(r < line.size() ? line[r] : static_cast<std::uint64_t>(it->second + 1)) +
                            "); the rows of a query must be contiguous");
        }
    }
}

std::string number_label_text(double v) {
    if (!std::isfinite(v) || (v == 0 && std::signbit(v))) return {};
    char buffer[32];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, r.ptr);
}

std::string RawLabels::text_at(std::size_t i) const {
    return texts_are_numbers ? number_label_text(numeric[i]) : text[i];
}

void RawLabels::write_texts() {
    if (!texts_are_numbers) return;
    text.resize(numeric.size());
    for (std::size_t i = 0; i < numeric.size(); ++i) text[i] = number_label_text(numeric[i]);
    texts_are_numbers = false;
}

bool RawLabels::all_numeric() const {
    return std::all_of(numeric.begin(), numeric.end(), [](double v) { return std::isfinite(v); });
}

bool RawLabels::all_integer() const {
    return std::all_of(numeric.begin(), numeric.end(),
                       [](double v) { return std::isfinite(v) && v == std::floor(v); });
}

namespace {

SourceLocation label_location(const RawLabels& labels, std::size_t i) {
    SourceLocation loc;
    loc.file = labels.source;
    loc.line = i < labels.line.size() ? labels.line[i] : 0;
    return loc;
}

}  // namespace

// Exact order of two integer texts whose doubles are equal (beyond 2^53:
// 18446744073709551614 and ...615 are one double). nullopt when either is not a
// plain integer or both are the same number written differently ("7", "007").
namespace {

std::optional<bool> integer_text_less(const std::string& a, const std::string& b) {
    struct Parsed {
        bool negative = false;
        std::string_view digits;
    };
    auto parse = [](const std::string& s) -> std::optional<Parsed> {
        std::string_view v = s;
        Parsed p;
        if (!v.empty() && (v[0] == '-' || v[0] == '+')) {
            p.negative = v[0] == '-';
            v.remove_prefix(1);
        }
        if (v.empty() || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
        while (v.size() > 1 && v[0] == '0') v.remove_prefix(1);
        p.digits = v;
        return p;
    };
    const auto x = parse(a), y = parse(b);
    if (!x || !y || x->negative != y->negative || x->digits == y->digits) return std::nullopt;
    const bool magnitude_less = x->digits.size() != y->digits.size() ? x->digits.size() < y->digits.size()
                                                                     : x->digits < y->digits;
    return x->negative ? !magnitude_less : magnitude_less;
}

}  // namespace

namespace {

// encode_classes for labels kept as numbers: each distinct value is a class, in numeric
// order (the order of their texts' numbers, as encode_classes gives it).
// Class labels are few: up to this many distinct values are found by a scan of those seen so
// far, and a row's class by a binary search of the sorted values (a hash map per row cost more
// than the rest of a small fit's preparation); past it, by a hash map.
constexpr std::size_t kFewLabelValues = 32;

// The distinct values of `v` (each once, in no particular order).
std::vector<double> distinct_values(const std::vector<double>& v) {
    std::vector<double> seen;
    for (const double x : v) {
        if (std::find(seen.begin(), seen.end(), x) != seen.end()) continue;
        if (seen.size() == kFewLabelValues) {
            const std::unordered_set<double> all(v.begin(), v.end());
            return {all.begin(), all.end()};
        }
        seen.push_back(x);
    }
    return seen;
}

void encode_number_classes(const RawLabels& labels, Dataset& out) {
    std::vector<double> values = distinct_values(labels.numeric);
    std::sort(values.begin(), values.end());
    out.classes.clear();
    for (const double v : values) out.classes.push_back(number_label_text(v));
    out.y.resize(static_cast<Index>(labels.numeric.size()));
    const auto class_of_sorted = [&](double v) {
        return static_cast<double>(std::lower_bound(values.begin(), values.end(), v) - values.begin());
    };
    if (values.size() <= kFewLabelValues) {
        for (std::size_t i = 0; i < labels.numeric.size(); ++i)
            out.y[static_cast<Index>(i)] = class_of_sorted(labels.numeric[i]);
        return;
    }
    std::unordered_map<double, Index> index;
    for (std::size_t c = 0; c < values.size(); ++c) index.emplace(values[c], static_cast<Index>(c));
    for (std::size_t i = 0; i < labels.numeric.size(); ++i)
        out.y[static_cast<Index>(i)] = static_cast<double>(index.at(labels.numeric[i]));
}

// Whether rows i and j have the same label text: the same bits of their numbers when the
// texts are written from the numbers (the same number, the same text), else the same text.
bool same_label(const RawLabels& labels, std::size_t i, std::size_t j) {
    if (!labels.texts_are_numbers) return labels.text[i] == labels.text[j];
    return std::bit_cast<std::uint64_t>(labels.numeric[i]) == std::bit_cast<std::uint64_t>(labels.numeric[j]);
}

// The rows of the last two distinct labels met: a row's label compared with theirs before
// any hash (a hash of every row's text was most of the encoding of 200,000 labels).
struct RecentLabels {
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::size_t row[2] = {kNone, kNone};
    // A recent row with row i's label, or kNone.
    std::size_t find(const RawLabels& labels, std::size_t i) const {
        for (const std::size_t r : row)
            if (r != kNone && same_label(labels, i, r)) return r;
        return kNone;
    }
    void add(std::size_t i) {
        row[1] = row[0];
        row[0] = i;
    }
};

}  // namespace

void encode_classes(const RawLabels& labels, Dataset& out) {
    if (labels.texts_are_numbers) return encode_number_classes(labels, out);
    std::vector<std::string> classes;
    std::unordered_map<std::string, std::size_t> seen;  // each class's first row
    RecentLabels recent;
    for (std::size_t i = 0; i < labels.text.size(); ++i) {
        if (recent.find(labels, i) != RecentLabels::kNone) continue;  // seen: no hash
        recent.add(i);
        if (seen.emplace(labels.text[i], i).second) classes.push_back(labels.text[i]);
    }
    if (labels.all_numeric()) {
        // Numeric order ("2" before "10"); equal values written differently keep text order.
        // A class's value is its first row's.
        std::map<std::string, double> value;
        for (const std::string& c : classes) value.emplace(c, labels.numeric[seen.at(c)]);
        std::stable_sort(classes.begin(), classes.end(), [&](const std::string& a, const std::string& b) {
            const double va = value[a], vb = value[b];
            if (va != vb) return va < vb;
            return integer_text_less(a, b).value_or(false);
        });
    } else {
        std::sort(classes.begin(), classes.end());
    }
    out.classes = classes;
    out.y = encode_with_classes(labels, out.classes);
}

Vector encode_with_classes(const RawLabels& labels, std::vector<std::string>& classes) {
    std::unordered_map<std::string, Index> index;
    for (std::size_t c = 0; c < classes.size(); ++c) index.emplace(classes[c], static_cast<Index>(c));
    Vector y(static_cast<Index>(labels.size()));
    RecentLabels recent;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        // A row with the label of one of the last two distinct labels' rows takes its class
        // without a text or a hash (two classes: every row).
        if (const std::size_t r = recent.find(labels, i); r != RecentLabels::kNone) {
            y[static_cast<Index>(i)] = y[static_cast<Index>(r)];
            continue;
        }
        recent.add(i);
        std::string text = labels.text_at(i);
        auto [it, added] = index.emplace(text, static_cast<Index>(classes.size()));
        if (added) classes.push_back(std::move(text));
        y[static_cast<Index>(i)] = static_cast<double>(it->second);
    }
    return y;
}

Vector numeric_targets(const RawLabels& labels, const std::string& source) {
    Vector y(static_cast<Index>(labels.numeric.size()));
    for (std::size_t i = 0; i < labels.numeric.size(); ++i) {
        if (!std::isfinite(labels.numeric[i])) {
            SourceLocation loc = label_location(labels, i);
            if (loc.file.empty()) loc.file = source;
            throw DataError(loc, "regression target '" + labels.text_at(i) + "' is not a finite number");
        }
        y[static_cast<Index>(i)] = labels.numeric[i];
    }
    return y;
}

}  // namespace kestrel
