// The CSV reader: dialect and header first (sequential, a few lines), then the
// records counted per line-aligned chunk, the matrix allocated once, and the
// chunks parsed in parallel straight into it.
#include "kestrel/io/csv.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "csv_fields.hpp"
#include "csv_internal.hpp"
#include "kestrel/core/error.hpp"
#include "number_field.hpp"
#include "read_limits.hpp"
#include "readers.hpp"

namespace kestrel {
namespace detail {
namespace {

// Skips blank lines from p; returns false when the text ends first.
bool skip_blank_lines(const char*& p, const char* end, bool tab_is_space, std::uint64_t& line) {
    while (p < end) {
        const char* le = line_end(p, end);
        if (!is_blank(p, le, tab_is_space)) return true;
        if (le == end) break;
        ++line;
        p = le + 1;
    }
    p = end;
    return false;
}

// Reads the fields of one record (the header, or the first row to learn the width).
std::vector<std::string> read_record(const char*& p, const char* end, char delim, std::uint64_t& line,
                                     const std::string& source) {
    std::vector<std::string> fields;
    std::string scratch;
    std::string_view text;
    for (;;) {
        const std::uint64_t field_line = line;
        const FieldEnd fe = scan_field(p, end, delim, text, scratch, line);
        if (field_failed(fe))
            throw DataError(SourceLocation{source, field_line, fields.size() + 1}, field_error_text(fe));
        fields.emplace_back(text);
        if (fe == FieldEnd::record) ++line;
        if (fe != FieldEnd::delimiter) return fields;
    }
}

void count_plain_chunk(std::string_view text, Chunk& c, bool tab_is_space) {
    const char* p = text.data() + c.begin;
    const char* end = text.data() + c.end;
    while (p < end) {
        const char* le = line_end(p, end);
        if (!is_blank(p, le, tab_is_space)) ++c.records;
        if (le == end) break;
        ++c.lines;
        p = le + 1;
    }
}

// When quotes occur in the data a record may span lines, so chunk boundaries are
// found by one sequential quote-aware pass.
std::vector<Chunk> split_quoted_records(const TextInput& in, std::size_t begin, std::size_t target,
                                        bool tab_is_space) {
    std::vector<Chunk> chunks;
    const char* base = in.text.data();
    const char* end = base + in.text.size();
    const char* p = base + begin;
    Chunk c;
    c.begin = begin;
    while (p < end) {
        const char* le = line_end(p, end);
        if (is_blank(p, le, tab_is_space)) {
            if (le < end) ++c.lines;
            p = le < end ? le + 1 : end;
        } else {
            ++c.records;
            bool in_quotes = false;
            const char* q = p;
            for (; q < end; ++q) {
                const char ch = *q;
                if (ch == '"') {
                    in_quotes = !in_quotes;
                } else if (ch == '\n') {
                    ++c.lines;
                    if (!in_quotes) break;
                }
            }
            p = q < end ? q + 1 : end;
        }
        const auto at = static_cast<std::size_t>(p - base);
        if (at - c.begin >= target || p == end) {
            c.end = at;
            chunks.push_back(c);
            in.done_with(c.begin, c.end);
            c = Chunk{};
            c.begin = at;
        }
    }
    return chunks;
}

std::vector<Chunk> count_records(const TextInput& in, std::size_t begin, bool tab_is_space, int threads) {
    const std::size_t target = chunk_target(in.text.size() - begin);
    auto chunks = split_at_newlines(in.text, begin, target);
    // Each probe for a chunk's end faulted in a whole page-cache folio (megabytes on
    // recent kernels): hand them back before counting, so the resident set stays small.
    in.done_with(begin, in.text.size());
    std::atomic<bool> quoted{false};
    run_chunks(chunks.size(), resolve_threads(threads, chunks.size()), [&](std::size_t k) {
        Chunk& c = chunks[k];
        if (quoted.load(std::memory_order_relaxed)) return;
        if (std::memchr(in.text.data() + c.begin, '"', c.end - c.begin)) quoted = true;
        else count_plain_chunk(in.text, c, tab_is_space);
        in.done_with(c.begin, c.end);
    });
    if (quoted) chunks = split_quoted_records(in, begin, target, tab_is_space);
    return chunks;
}

// The number of fields of each of the first records, split by `delim`; a record
// cut by the end of the sample is left out.
std::vector<std::size_t> sample_field_counts(std::string_view sample, bool whole_text, char delim) {
    constexpr std::size_t kMaxRecords = 20;
    std::vector<std::size_t> counts;
    const char* p = sample.data();
    const char* end = p + sample.size();
    std::uint64_t line = 1;
    std::string scratch;
    std::string_view text;
    while (counts.size() < kMaxRecords && skip_blank_lines(p, end, true, line)) {
        std::size_t n = 0;
        FieldEnd fe = FieldEnd::delimiter;
        while (fe == FieldEnd::delimiter) {
            fe = scan_field(p, end, delim, text, scratch, line);
            ++n;
        }
        if (field_failed(fe) || (fe == FieldEnd::eof && !whole_text)) break;
        counts.push_back(n);
    }
    return counts;
}

// The categorical feature columns: named so, or (automatic ones) holding a cell that
// is not a number in any chunk.
std::vector<Index> categorical_features(const CsvLayout& layout, const std::vector<ChunkColumns>& columns) {
    std::vector<char> text(static_cast<std::size_t>(layout.n_features), 0);
    for (std::size_t j = 0; j < layout.n_fields; ++j)
        if (layout.target[j] >= 0 && layout.field_type[j] == FieldType::categorical)
            text[static_cast<std::size_t>(layout.target[j])] = 1;
    for (const auto& c : columns)
        for (std::size_t f = 0; f < c.text_seen.size(); ++f) text[f] |= c.text_seen[f] > 0;
    std::vector<Index> out;
    for (std::size_t f = 0; f < text.size(); ++f)
        if (text[f]) out.push_back(static_cast<Index>(f));
    return out;
}

// Two mistakes that would otherwise turn a numeric column into categories silently: a
// header row read as data (header = false, one word at the top of a column of numbers),
// and decimal commas ("1,5" in a ';'-separated file). Both are errors at the first such
// cell. "drop header" asks to undo the caller's header = false: the command gives it as a
// flag and prints "drop --no-header" there.
void refuse_mistyped_numbers(const CsvLayout& layout, const std::vector<Chunk>& chunks,
                             const std::vector<ChunkColumns>& columns, const ReadOptions& opts,
                             const std::string& source) {
    const bool header = opts.header;
    for (std::size_t f = 0; f < static_cast<std::size_t>(layout.n_features); ++f) {
        Index count = 0;
        const ChunkColumns* first = nullptr;
        for (const auto& c : columns) {
            if (c.text_seen[f] > 0 && !first) first = &c;
            count += c.text_seen[f];
        }
        if (!first) continue;
        const std::string& text = first->first_text[f];
        const std::uint64_t line = first->first_text_line[f];
        const std::size_t field = first->first_text_field[f];
        const std::string column =
            layout.header.empty() ? "column " + std::to_string(field) : "column '" + layout.header[field] + "'";
        if (!header && count == 1 && !chunks.empty() && line == chunks.front().first_line)
            throw DataError(SourceLocation{source, line, field + 1},
                            quote_field(text) + " in " + column +
                                " is not a number, and every other cell is: a header row? (drop " +
                                option_named("header") + ", or " + option_named("categorical_columns") +
                                " to read the column as categories)");
        if (text.find(',') != std::string::npos) {
            std::string dotted = text;
            std::replace(dotted.begin(), dotted.end(), ',', '.');
            double v = 0;
            if (classify_number(dotted.data(), dotted.data() + dotted.size(), v) == FieldKind::number)
                throw DataError(SourceLocation{source, line, field + 1},
                                quote_field(text) + " in " + column +
                                    " is not a number: a decimal comma? kestrel reads numbers with '.' (" +
                                    option_named("categorical_columns") + " reads the column as categories)");
        }
    }
}

// A training column whose every cell is missing holds nothing to learn or impute from.
void refuse_empty_columns(const CsvLayout& layout, const std::vector<Chunk>& chunks,
                          const std::vector<ChunkColumns>& columns, const std::string& source) {
    Index rows = 0;
    for (const auto& c : chunks) rows += c.kept;
    if (rows == 0) return;
    for (std::size_t f = 0; f < static_cast<std::size_t>(layout.n_features); ++f) {
        Index missing = 0;
        for (const auto& c : columns) missing += c.missing[f];
        if (missing < rows) continue;
        std::size_t field = 0;
        while (layout.target[field] != static_cast<int>(f)) ++field;
        throw DataError(
            SourceLocation{source, 1, field + 1},
            "every cell of " +
                (layout.header.empty() ? "column " + std::to_string(field) : "column '" + layout.header[field] + "'") +
                " is missing; drop it with " + option_named("ignore_columns"));
    }
}

// A piece of a stream without data rows: no rows, the piece's columns.
Table empty_piece(CsvLayout layout, std::size_t n_fields, const std::string& source) {
    Table table;
    table.X = Features(DenseMatrix(0, layout.n_features));
    if (layout.label_field >= 0) table.labels = make_labels(0, source);
    table.kept.assign(layout.kept_names.size(), {});
    table.kept_names = layout.kept_names;
    table.feature_names = std::move(layout.feature_names);
    table.source = source;
    table.fields = n_fields;
    return table;
}

}  // namespace

Table read_csv_input(const TextInput& in, const std::string& source, const ReadOptions& opts) {
    const std::string_view text = in.text;
    const char delim = opts.delimiter ? opts.delimiter : detect_delimiter(text);
    if (delim == '"' || delim == '\n' || delim == '\r' || delim == ' ')
        throw UsageError("invalid CSV delimiter '" + std::string(1, delim) + "'");
    const bool tab_is_space = delim != '\t';

    const char* p = text.data() + bom_length(text);
    const char* end = text.data() + text.size();
    std::uint64_t line = opts.first_line;
    if (!skip_blank_lines(p, end, tab_is_space, line) && opts.piece_of_stream) {
        Table blank;  // a piece of blank lines (a CSV without a header)
        blank.source = source;
        return blank;
    }
    if (p == end)
        throw DataError(source + ": empty file: no " + (opts.header ? "header and no " : "") + "data rows");

    std::vector<std::string> header;
    std::size_t n_fields = 0;
    if (opts.header) {
        header = read_record(p, end, delim, line, source);
        n_fields = header.size();
    } else if (opts.csv_fields > 0) {
        n_fields = opts.csv_fields;
    } else {
        const char* first = p;
        std::uint64_t first_line = line;
        n_fields = read_record(first, end, delim, first_line, source).size();
    }
    CsvLayout layout = resolve_csv_layout(std::move(header), n_fields, opts, source);
    layout.delimiter = delim;
    resolve_kept_columns(layout, opts, source);
    resolve_field_types(layout, opts, source);

    const auto data_begin = static_cast<std::size_t>(p - text.data());
    check_estimated_size(in, data_begin, layout.n_features, false, source, opts);
    auto chunks = count_records(in, data_begin, tab_is_space, opts.threads);
    const Index total = assign_offsets(chunks, line);
    if (total == 0 && opts.piece_of_stream) return empty_piece(std::move(layout), n_fields, source);
    if (total == 0)
        throw DataError(source + ": no data rows" + (opts.header ? " after the header" : ""));
    check_table_size(total, table_bytes(total, layout.n_features, 0, false, layout.label_field >= 0),
                     std::to_string(total) + " rows x " + std::to_string(layout.n_features) + " features", source, opts);

    Table table;
    DenseMatrix X(total, layout.n_features);
    std::optional<RawLabels> labels;
    if (layout.label_field >= 0) labels = make_labels(total, source);
    std::vector<std::vector<std::string>> kept_text(layout.kept_names.size(),
                                               std::vector<std::string>(static_cast<std::size_t>(total)));
    CsvSink sink{X.data(), labels ? &*labels : nullptr, opts.missing, &source, &kept_text};
    sink.code_text = !opts.feature_categories && opts.missing != MissingPolicy::drop;
    std::vector<ChunkColumns> columns(chunks.size());
    run_chunks(chunks.size(), resolve_threads(opts.threads, chunks.size()), [&](std::size_t k) {
        parse_csv_chunk(text, chunks[k], layout, sink, columns[k]);
        in.done_with(chunks[k].begin, chunks[k].end);
    });
    const std::vector<Index> categorical = categorical_features(layout, columns);
    if (!opts.feature_categories) {
        refuse_mistyped_numbers(layout, chunks, columns, opts, source);
        // A column empty in one piece of a stream may hold values in the next: the
        // reader of the whole stream decides (tasks/quantized_training.cpp).
        if (!opts.piece_of_stream) refuse_empty_columns(layout, chunks, columns, source);
    }
    if (!categorical.empty())
        categorize_csv(in, chunks, layout, columns, categorical, X.data(), opts, source, table.categories);

    const Index cols = layout.n_features;
    const Index kept = compact_chunks(chunks, [&](Index dst, const Chunk& c) {
        if (cols > 0)
            std::memmove(X.data() + dst * cols, X.data() + c.first_row * cols,
                         static_cast<std::size_t>(c.kept * cols) * sizeof(double));
        if (labels) move_label_rows(*labels, dst, c.first_row, c.kept);
        for (auto& column : kept_text)
            std::move(column.begin() + c.first_row, column.begin() + c.first_row + c.kept, column.begin() + dst);
    });
    if (kept == 0 && opts.piece_of_stream) {
        Table empty = empty_piece(std::move(layout), n_fields, source);
        empty.dropped_rows = total;
        return empty;
    }
    if (kept == 0)
        throw DataError(source + ": all " + std::to_string(total) + " rows have missing values and were dropped");
    if (kept < total) {
        X.conservativeResize(kept, cols);
        if (labels) truncate_labels(*labels, kept);
        for (auto& column : kept_text) column.resize(static_cast<std::size_t>(kept));
    }
    table.kept = std::move(kept_text);
    table.kept_names = layout.kept_names;

    table.X = Features(std::move(X));
    table.labels = std::move(labels);
    table.feature_names = std::move(layout.feature_names);
    if (layout.label_field >= 0 && !layout.header.empty())
        table.label_name = layout.header[static_cast<std::size_t>(layout.label_field)];
    table.source = source;
    table.dropped_rows = total - kept;
    table.bytes = text.size();
    table.fields = n_fields;
    return table;
}

}  // namespace detail

Table read_csv(std::string_view text, const std::string& source, const ReadOptions& opts) {
    return detail::read_csv_input(detail::TextInput{text, {}}, source, opts);
}

char detect_delimiter(std::string_view text) {
    constexpr std::size_t kSampleBytes = std::size_t{64} << 10;
    text.remove_prefix(detail::bom_length(text));
    const bool whole = text.size() <= kSampleBytes;
    const std::string_view sample = text.substr(0, kSampleBytes);
    char best = ',';
    bool best_consistent = false;
    std::size_t best_fields = 1;
    for (const char d : {',', ';', '\t'}) {
        const auto counts = detail::sample_field_counts(sample, whole, d);
        if (counts.empty() || counts.front() < 2) continue;
        const bool consistent = std::all_of(counts.begin(), counts.end(), [&](std::size_t n) { return n == counts.front(); });
        if ((consistent && !best_consistent) || (consistent == best_consistent && counts.front() > best_fields)) {
            best = d;
            best_consistent = consistent;
            best_fields = counts.front();
        }
    }
    return best;
}

}  // namespace kestrel
