// The LIBSVM reader: lines and entries counted per chunk, the CSR arrays allocated
// once, then the chunks parsed in parallel straight into them. Dense data written in
// LIBSVM format (svm-scale's output: every feature but the zeros) is read into a dense
// matrix when the caller allows it (ReadOptions::densify) and that takes no more memory
// than CSR: no column index per entry, and the models' dense paths.
#include "kestrel/io/libsvm_format.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>

#include "kestrel/core/error.hpp"
#include "number_field.hpp"
#include "read_hints.hpp"
#include "read_limits.hpp"
#include "readers.hpp"

namespace kestrel {
namespace detail {
namespace {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// The content of a line: up to a '#' comment, without trailing spaces.
inline const char* content_end(const char* p, const char* le) {
    const void* hash = std::memchr(p, '#', static_cast<std::size_t>(le - p));
    const char* e = hash ? static_cast<const char*>(hash) : le;
    while (e > p && is_space(e[-1])) --e;
    return e;
}

inline const char* skip_spaces(const char* p, const char* e) {
    while (p < e && is_space(*p)) ++p;
    return p;
}

inline const char* token_end(const char* p, const char* e) {
    while (p < e && !is_space(*p)) ++p;
    return p;
}

// The index of a record's last entry, which is its highest if the record is well
// formed (the parse checks); 0 when there is none to read.
std::uint64_t last_index(const char* s, const char* ce) {
    const char* e = ce;
    while (e > s && e[-1] != ':') --e;
    if (e == s) return 0;
    const char* b = --e;
    while (b > s && e - b < 10 && b[-1] >= '0' && b[-1] <= '9') --b;
    std::uint64_t index = 0;
    for (const char* q = b; q < e; ++q) index = index * 10 + static_cast<std::uint64_t>(*q - '0');
    return index;
}

// The `qid:` token right after a record's label (SVMrank's and XGBoost's query id), or
// nullptr when the record has none.
const char* qid_token(const char* s, const char* ce) {
    const char* q = skip_spaces(token_end(s, ce), ce);
    return ce - q >= 4 && std::memcmp(q, "qid:", 4) == 0 ? q : nullptr;
}

void count_chunk(std::string_view text, Chunk& c) {
    const char* p = text.data() + c.begin;
    const char* end = text.data() + c.end;
    while (p < end) {
        const char* le = line_end(p, end);
        const char* ce = content_end(p, le);
        const char* s = skip_spaces(p, ce);
        if (s < ce) {
            ++c.records;
            c.nnz += static_cast<std::uint64_t>(std::count(s, ce, ':'));
            if (qid_token(s, ce)) {  // its ':' is not a feature's
                --c.nnz;
                ++c.qid_records;
            }
            c.last_index = std::max(c.last_index, last_index(s, ce));
        }
        if (le == end) break;
        ++c.lines;
        p = le + 1;
    }
}

// Where parsed entries go: CSR arrays, or (dense_width > 0) a zeroed row-major dense
// matrix of that width.
struct SparseSink {
    int* outer = nullptr;  // row starts, absolute positions before compaction
    int* inner = nullptr;
    double* values = nullptr;
    Index dense_width = 0;
    RawLabels* labels = nullptr;
    MissingPolicy missing = MissingPolicy::error;
    Index expected_features = -1;
    const std::string* source = nullptr;
};

// Thrown by a dense parse that meets a record which is not features 1..width.
struct NotDense {};

class ChunkParser {
public:
    ChunkParser(std::string_view text, Chunk& chunk, const SparseSink& sink)
        : chunk_(chunk), sink_(sink), p_(text.data() + chunk.begin), end_(text.data() + chunk.end) {}

    void run() {
        std::uint64_t line = chunk_.first_line;
        Index row = chunk_.first_row;
        std::uint64_t w = chunk_.first_nnz;
        Index seen = 0;
        std::uint64_t entries = 0;
        while (p_ < end_) {
            const char* le = line_end(p_, end_);
            const char* ce = content_end(p_, le);
            const char* s = skip_spaces(p_, ce);
            if (s < ce) {
                if (seen == chunk_.records) throw InternalError("LIBSVM chunk holds more lines than counted");
                line_ = line;
                const std::uint64_t row_start = w;
                if (!dense()) sink_.outer[row] = static_cast<int>(w);
                const bool keep = parse_line(s, ce, row, w);
                entries += w - row_start;
                if (keep) {
                    ++row;
                } else {
                    w = row_start;
                    // The next record reuses this row, and writes only its own entries.
                    if (dense()) std::fill_n(sink_.values + row * sink_.dense_width, sink_.dense_width, 0.0);
                }
                ++seen;
            }
            if (le == end_) break;
            ++line;
            p_ = le + 1;
        }
        if (seen != chunk_.records || entries != chunk_.nnz)
            throw InternalError("LIBSVM chunk differs from its count");
        chunk_.kept = row - chunk_.first_row;
        chunk_.kept_nnz = w - chunk_.first_nnz;
    }

private:
    bool parse_line(const char* s, const char* ce, Index row, std::uint64_t& w) {
        bool keep = true;
        const char* t = token_end(s, ce);
        store_label(s, t, row, keep);
        std::uint64_t token = 1;
        long long prev = 0;
        const char* first = skip_spaces(t, ce);
        if (const char* qt = qid_token(s, ce)) {
            ++token;
            first = store_qid(qt, ce, row);
        } else if (!sink_.labels->qid.empty()) {
            fail(2, ErrorText("no qid: this line has no query id where other lines of the file have one"));
        }
        for (const char* q = first; q < ce; q = skip_spaces(q, ce)) {
            ++token;
            const char* tok = q;
            long long index = 0;
            while (q < ce && *q >= '0' && *q <= '9' && index <= INT_MAX) index = index * 10 + (*q++ - '0');
            if (q == tok || q == ce || *q != ':' || index > INT_MAX)
                fail(token, ErrorText("malformed feature " + quote_field({tok, token_end(tok, ce)}) +
                                      " (expected index:value)"));
            if (index == 0) fail(token, ErrorText("feature index 0: indices are 1-based"));
            if (index <= prev)
                fail(token, ErrorText("feature index " + std::to_string(index) + " after " + std::to_string(prev) +
                                      ": indices must be strictly increasing"));
            if (sink_.expected_features >= 0 && index > sink_.expected_features)
                fail(token, ErrorText("feature index " + std::to_string(index) + " is beyond the model's " +
                                      std::to_string(sink_.expected_features) + " features"));
            // The width came from the count's look at each record's last index: a
            // record out of order may still go past it, and is then read as CSR.
            if (dense() && index > sink_.dense_width) throw NotDense{};
            ++q;
            double v;
            const char* r = parse_number_prefix(q, ce, v);
            if (r && (r == ce || is_space(*r))) {
                q = r;
            } else {
                const char* te = token_end(q, ce);
                v = slow_value(tok, q, te, token, keep);
                q = te;
            }
            if (dense()) {
                sink_.values[static_cast<std::uint64_t>(row * sink_.dense_width + index - 1)] = v;
            } else {
                sink_.inner[w] = static_cast<int>(index - 1);
                sink_.values[w] = v;
            }
            ++w;
            prev = index;
        }
        if (keep) chunk_.max_index = std::max<Index>(chunk_.max_index, prev);
        return keep;
    }

    double slow_value(const char* tok, const char* b, const char* e, std::uint64_t token, bool& keep) {
        const std::string_view value(b, static_cast<std::size_t>(e - b));
        if (value.empty() || value.find(':') != std::string_view::npos)
            fail(token, ErrorText("malformed feature " + quote_field({tok, e}) + " (expected index:value)"));
        double v = 0;
        switch (classify_number(b, e, v)) {
            case FieldKind::number: return v;
            case FieldKind::missing:
                if (sink_.missing == MissingPolicy::error)
                    fail(token, "missing value " + quote_field({tok, e}) + " (" + drop_missing_hint() +
                                    " to skip such rows or " + option_named("missing") + "=mean to impute them)");
                if (sink_.missing == MissingPolicy::drop) keep = false;
                return std::numeric_limits<double>::quiet_NaN();
            case FieldKind::infinite:
                fail(token, ErrorText("value " + quote_field({tok, e}) +
                                      " is infinite or out of range; only finite numbers are allowed"));
            case FieldKind::invalid: break;
        }
        fail(token,
             ErrorText("value " + quote_field(value) + " of feature " + quote_field({tok, e}) + " is not a number"));
    }

    void store_label(const char* b, const char* e, Index row, bool& keep) {
        if (std::memchr(b, ':', static_cast<std::size_t>(e - b)))
            fail(1, ErrorText("missing label: the line starts with the feature " + quote_field({b, e})));
        double v = std::numeric_limits<double>::quiet_NaN();
        const FieldKind kind = classify_number(b, e, v);
        if (kind == FieldKind::missing) {
            if (sink_.missing == MissingPolicy::drop) keep = false;
            else
                fail(1, "missing label " + quote_field({b, e}) + " (" + drop_missing_hint() + " to skip such rows)");
        }
        if (kind != FieldKind::number) v = std::numeric_limits<double>::quiet_NaN();
        RawLabels& L = *sink_.labels;
        const auto r = static_cast<std::size_t>(row);
        // LIBSVM reads a label as a number: +1, 1 and 1.0 are one class, named by the
        // shortest text of its value ("1").
        if (kind == FieldKind::number) {
            char text[32];
            const auto res = std::to_chars(text, text + sizeof text, v);
            L.text[r].assign(text, res.ptr);
        } else {
            L.text[r].assign(b, e);
        }
        L.numeric[r] = v;
        L.line[r] = line_;
    }

    // `qid:N` (token 2), N a non-negative integer; returns where the features start.
    const char* store_qid(const char* b, const char* ce, Index row) {
        const char* e = token_end(b, ce);
        const char* digits = b + 4;
        unsigned long long id = 0;
        const auto [ptr, ec] = std::from_chars(digits, e, id);
        if (digits == e || ec != std::errc() || ptr != e || id > (1ULL << 53))
            fail(2, ErrorText("malformed query id " + quote_field({b, e}) +
                              " (expected qid:N, N an integer from 0 to 2^53)"));
        sink_.labels->qid[static_cast<std::size_t>(row)] = static_cast<double>(id);
        return skip_spaces(e, ce);
    }

    // ErrorText: a message naming an option keeps the mention, for the command to respell.
    [[noreturn]] void fail(std::uint64_t token, const ErrorText& what) const {
        throw DataError(SourceLocation{*sink_.source, line_, token}, what);
    }
    bool dense() const { return sink_.dense_width > 0; }

    Chunk& chunk_;
    const SparseSink& sink_;
    const char* p_;
    const char* end_;
    std::uint64_t line_ = 0;
};

// The width of a dense read, or 0 to read CSR. Dense only when the caller allows it
// and the dense matrix is no larger than the CSR arrays. At predict time the width is
// the model's feature count; otherwise the highest last index of a record, which the
// parse confirms.
Index dense_width(const std::vector<Chunk>& chunks, Index rows, std::uint64_t nnz, const ReadOptions& opts) {
    if (!opts.densify) return 0;
    std::uint64_t widest = 0;
    for (const auto& c : chunks) widest = std::max(widest, c.last_index);
    const std::uint64_t width =
        opts.expected_features >= 0 ? static_cast<std::uint64_t>(opts.expected_features) : widest;
    if (width == 0 || width > static_cast<std::uint64_t>(INT_MAX)) return 0;
    const std::uint64_t dense_bytes = static_cast<std::uint64_t>(rows) * width * sizeof(double);
    const std::uint64_t csr_bytes =
        nnz * (sizeof(double) + sizeof(int)) + static_cast<std::uint64_t>(rows + 1) * sizeof(int);
    return dense_bytes <= csr_bytes ? static_cast<Index>(width) : 0;
}

// Forgets what an abandoned parse recorded in the chunks (labels are overwritten).
void reset_parse_results(std::vector<Chunk>& chunks) {
    for (auto& c : chunks) {
        c.kept = 0;
        c.kept_nnz = 0;
        c.max_index = 0;
    }
}

// Both readers take a sink with the labels, policy and source filled, and point it at their arrays.
Features read_dense(std::string_view text, const TextInput& in, std::vector<Chunk>& chunks, int threads, Index total,
                    Index width, SparseSink sink) {
    DenseMatrix X = DenseMatrix::Zero(total, width);
    sink.values = X.data();
    sink.dense_width = width;
    run_chunks(chunks.size(), threads, [&](std::size_t k) {
        ChunkParser(text, chunks[k], sink).run();
        in.done_with(chunks[k].begin, chunks[k].end);
    });
    const Index kept = compact_chunks(chunks, [&](Index dst, const Chunk& c) {
        std::memmove(X.data() + dst * width, X.data() + c.first_row * width,
                     static_cast<std::size_t>(c.kept * width) * sizeof(double));
        move_label_rows(*sink.labels, dst, c.first_row, c.kept);
    });
    if (kept < X.rows()) X.conservativeResize(kept, width);
    return Features(std::move(X));
}

Features read_sparse(std::string_view text, const TextInput& in, std::vector<Chunk>& chunks, int threads, Index total,
                     std::uint64_t total_nnz, SparseSink sink) {
    // Built with no columns, filled as CSR, then widened: the width is known only
    // once every line is read, and widening a row-major matrix touches no entry.
    SparseMatrix X(total, 0);
    X.resizeNonZeros(static_cast<Index>(total_nnz));
    sink.outer = X.outerIndexPtr();
    sink.inner = X.innerIndexPtr();
    sink.values = X.valuePtr();
    run_chunks(chunks.size(), threads, [&](std::size_t k) {
        ChunkParser(text, chunks[k], sink).run();
        in.done_with(chunks[k].begin, chunks[k].end);
    });

    Index kept = 0;
    std::uint64_t kept_nnz = 0;
    Index width = 0;
    for (const auto& c : chunks) {
        if (kept != c.first_row) {
            const auto shift = static_cast<int>(c.first_nnz - kept_nnz);
            for (Index r = 0; r < c.kept; ++r) X.outerIndexPtr()[kept + r] = X.outerIndexPtr()[c.first_row + r] - shift;
            if (c.kept_nnz > 0) {
                std::memmove(X.innerIndexPtr() + kept_nnz, X.innerIndexPtr() + c.first_nnz, c.kept_nnz * sizeof(int));
                std::memmove(X.valuePtr() + kept_nnz, X.valuePtr() + c.first_nnz, c.kept_nnz * sizeof(double));
            }
            move_label_rows(*sink.labels, kept, c.first_row, c.kept);
        }
        kept += c.kept;
        kept_nnz += c.kept_nnz;
        width = std::max(width, c.max_index);
    }
    X.outerIndexPtr()[kept] = static_cast<int>(kept_nnz);
    if (sink.expected_features >= 0) width = sink.expected_features;
    if (kept < total) X.resizeNonZeros(static_cast<Index>(kept_nnz));
    X.conservativeResize(kept, width);
    // Eigen 3.4's SparseMatrix has no move constructor: swap instead of copying.
    return Features(std::move(X));
}

// A piece of a stream without data rows: no rows, the expected width.
Table empty_piece(const std::string& source, const ReadOptions& opts) {
    Table table;
    table.X = Features(DenseMatrix(0, std::max<Index>(opts.expected_features, 0)));
    table.labels = make_labels(0, source);
    table.source = source;
    return table;
}

}  // namespace

Table read_libsvm_input(const TextInput& in, const std::string& source, const ReadOptions& opts) {
    if (!opts.numeric_columns.empty() || !opts.ignore_columns.empty())
        throw UsageError(
            (opts.numeric_columns.empty() ? option_named("ignore_columns") : option_named("numeric_columns")) +
            " names CSV columns; " + source + " is a LIBSVM file, whose features are numbers unless " +
            option_named("categorical_columns") + " names their indices");
    const std::string_view text = in.text;
    const std::size_t begin = bom_length(text);
    check_estimated_size(in, begin, 0, true, source, opts);
    auto chunks = split_at_newlines(text, begin, chunk_target(text.size() - begin));
    in.done_with(begin, text.size());  // the probes' pages (see count_records in csv.cpp)
    const int threads = resolve_threads(opts.threads, chunks.size());
    run_chunks(chunks.size(), threads, [&](std::size_t k) {
        count_chunk(text, chunks[k]);
        in.done_with(chunks[k].begin, chunks[k].end);
    });
    const Index total = assign_offsets(chunks, opts.first_line);
    if (total == 0 && opts.piece_of_stream) return empty_piece(source, opts);
    if (total == 0) throw DataError(source + ": empty file: no data lines");
    const std::uint64_t total_nnz = chunks.back().first_nnz + chunks.back().nnz;
    if (total_nnz > static_cast<std::uint64_t>(INT_MAX))
        throw DataError(source + ": more than " + std::to_string(INT_MAX) + " nonzero values");
    check_table_size(total, table_bytes(total, 0, total_nnz, true, true),
                     std::to_string(total) + " rows with " + std::to_string(total_nnz) + " nonzero values", source,
                     opts);

    RawLabels labels = make_labels(total, source);
    Index qid_records = 0;
    for (const auto& c : chunks) qid_records += c.qid_records;
    if (qid_records > 0) labels.qid.assign(static_cast<std::size_t>(total), 0.0);
    SparseSink sink;
    sink.labels = &labels;
    sink.missing = opts.missing;
    sink.expected_features = opts.expected_features;
    sink.source = &source;
    Table table;
    const Index width = dense_width(chunks, total, total_nnz, opts);
    bool dense_read = false;
    if (width > 0) {
        try {
            table.X = read_dense(text, in, chunks, threads, total, width, sink);
            dense_read = true;
        } catch (const NotDense&) {
            reset_parse_results(chunks);
        }
    }
    if (!dense_read) table.X = read_sparse(text, in, chunks, threads, total, total_nnz, sink);
    const Index kept = table.X.rows();
    if (kept == 0 && opts.piece_of_stream) {
        Table empty = empty_piece(source, opts);
        empty.dropped_rows = total;
        return empty;
    }
    if (kept == 0)
        throw DataError(source + ": all " + std::to_string(total) + " rows have missing values and were dropped");
    if (kept < total) truncate_labels(labels, kept);
    if (!labels.qid.empty())
        check_query_ids(Eigen::Map<const Vector>(labels.qid.data(), static_cast<Index>(labels.qid.size())), labels.line,
                        source);
    table.labels = std::move(labels);
    table.source = source;
    table.dropped_rows = total - kept;
    table.bytes = text.size();
    code_libsvm_categories(table, opts);
    return table;
}

}  // namespace detail

Table read_libsvm(std::string_view text, const std::string& source, const ReadOptions& opts) {
    return detail::read_libsvm_input(detail::TextInput{text, {}}, source, opts);
}

}  // namespace kestrel
