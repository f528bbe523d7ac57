// The hot loop of the CSV reader: one chunk of records parsed straight into the
// preallocated matrix. Plain numeric fields take one call of the number fast path; anything
// else (quotes, spaces, missing markers, errors) goes through the field scanner.
#include <cmath>
#include <limits>

#include "csv_fields.hpp"
#include "csv_internal.hpp"
#include "kestrel/core/error.hpp"
#include "number_field.hpp"
#include "read_hints.hpp"

namespace kestrel::detail {
namespace {

class CsvChunkParser {
public:
    CsvChunkParser(std::string_view text, Chunk& chunk, const CsvLayout& layout, const CsvSink& sink,
                ChunkColumns& columns)
        : chunk_(chunk), layout_(layout), sink_(sink), columns_(columns),
          p_(text.data() + chunk.begin), end_(text.data() + chunk.end), line_(chunk.first_line),
          delim_(layout.delimiter), tab_is_space_(layout.delimiter != '\t') {}

    void run() {
        columns_.text_seen.assign(static_cast<std::size_t>(layout_.n_features), 0);
        columns_.first_text_line.assign(static_cast<std::size_t>(layout_.n_features), 0);
        columns_.first_text_field.assign(static_cast<std::size_t>(layout_.n_features), 0);
        columns_.first_text.assign(static_cast<std::size_t>(layout_.n_features), {});
        columns_.missing.assign(static_cast<std::size_t>(layout_.n_features), 0);
        columns_.dropped.clear();
        columns_.dictionaries.assign(sink_.code_text ? static_cast<std::size_t>(layout_.n_features) : 0, {});
        columns_.coded.assign(static_cast<std::size_t>(layout_.n_features), 0);
        Index row = chunk_.first_row;
        Index seen = 0;
        while (p_ < end_) {
            if (skip_blank_line()) continue;
            if (seen == chunk_.records)
                throw InternalError("CSV chunk holds more records than counted");
            if (parse_record(row)) ++row;
            else columns_.dropped.push_back(seen);
            ++seen;
        }
        if (seen != chunk_.records) throw InternalError("CSV chunk holds fewer records than counted");
        chunk_.kept = row - chunk_.first_row;
        // The merge reads only the texts; a chunk scanned again rebuilds its tables.
        for (auto& dictionary : columns_.dictionaries) dictionary.release_index();
    }

private:
    bool skip_blank_line() {
        const char c = *p_;
        if (c != '\n' && !is_field_space(c, tab_is_space_)) return false;
        const char* le = line_end(p_, end_);
        if (!is_blank(p_, le, tab_is_space_)) return false;
        if (le < end_) ++line_;
        p_ = le < end_ ? le + 1 : end_;
        return true;
    }

    // Returns whether the row is kept (false when MissingPolicy::drop removes it).
    bool parse_record(Index row) {
        record_line_ = line_;
        double* dst = sink_.X + row * layout_.n_features;
        bool keep = true;
        const std::size_t n = layout_.n_fields;
        for (std::size_t j = 0;; ++j) {
            if (j == n) too_many_fields();
            const int target = layout_.target[j];
            FieldEnd fe;
            if (!layout_.keep_slot.empty() && layout_.keep_slot[j] >= 0) {
                // A field copied to the output: scanned whole, then read as it is.
                const std::uint64_t field_line = line_;
                fe = scan(j);
                (*sink_.kept)[static_cast<std::size_t>(layout_.keep_slot[j])][static_cast<std::size_t>(row)].assign(
                    field_.data(), field_.size());
                if (target >= 0) scanned_cell(j, target, field_line, dst[target], keep);
                else if (target == kFieldLabel) store_label(j, row, field_line, keep);
            } else if (target >= 0 && layout_.field_type[j] == FieldType::categorical) {
                const std::uint64_t field_line = line_;
                fe = scan(j);
                scanned_cell(j, target, field_line, dst[target], keep);
            } else if (target >= 0) {
                fe = numeric_field(j, target, dst[target], keep);
            } else {
                const std::uint64_t field_line = line_;
                fe = scan(j);
                if (target == kFieldLabel) store_label(j, row, field_line, keep);
            }
            if (fe == FieldEnd::delimiter) continue;
            if (fe == FieldEnd::record) ++line_;
            if (j + 1 != n) too_few_fields(j + 1);
            return keep;
        }
    }

    FieldEnd numeric_field(std::size_t j, int target, double& out, bool& keep) {
        const char c = p_ < end_ ? *p_ : '\0';
        if ((c >= '0' && c <= '9') || c == '-' || c == '.') {
            double v;
            if (const char* q = parse_number_prefix(p_, end_, v)) {
                if (q == end_) {
                    out = v;
                    p_ = end_;
                    return FieldEnd::eof;
                }
                if (*q == delim_ || *q == '\n') {
                    out = v;
                    p_ = q + 1;
                    return *q == delim_ ? FieldEnd::delimiter : FieldEnd::record;
                }
                if (*q == '\r' && q + 1 < end_ && q[1] == '\n') {
                    out = v;
                    p_ = q + 2;
                    return FieldEnd::record;
                }
            }
        }
        const std::uint64_t field_line = line_;
        const FieldEnd fe = scan(j);
        scanned_cell(j, target, field_line, out, keep);
        return fe;
    }

    // The cell in the field just scanned: a number, a missing marker, or (in a column
    // that may be categorical) text that categorize_csv codes in pass 2.
    void scanned_cell(std::size_t j, int target, std::uint64_t field_line, double& out, bool& keep) {
        double v = 0;
        const FieldKind kind = surely_text(field_) ? FieldKind::invalid
                                                   : classify_number(field_.data(), field_.data() + field_.size(), v);
        if (kind == FieldKind::missing) {
            out = std::numeric_limits<double>::quiet_NaN();
            // Counted in kept rows only (a dropped row leaves nothing missing).
            if (sink_.missing == MissingPolicy::keep) ++columns_.missing[static_cast<std::size_t>(target)];
            on_missing(j, field_line, keep);
            return;
        }
        const FieldType type = layout_.field_type[j];
        if (type == FieldType::categorical) {
            out = code_text(target);
            return;
        }
        if (kind == FieldKind::invalid && type == FieldType::automatic) {
            const auto f = static_cast<std::size_t>(target);
            if (columns_.text_seen[f]++ == 0) {
                columns_.first_text_line[f] = field_line;
                columns_.first_text_field[f] = j;
                columns_.first_text[f].assign(field_.data(), field_.size());
            }
            out = code_text(target);
            return;
        }
        switch (kind) {
            case FieldKind::number: out = v; break;
            case FieldKind::missing: break;
            case FieldKind::infinite:
                fail(field_line, j,
                     ErrorText(quote_field(field_) + in_column(j) +
                               " is infinite or out of range; only finite numbers are allowed"));
            case FieldKind::invalid:
                fail(field_line, j,
                     ErrorText(quote_field(field_) + in_column(j) + " is not a number" +
                               (layout_.header.empty() ? "" : " (a numeric column)")));
        }
    }

    // The chunk's code of the text cell just scanned (0 when pass 2 codes the cells).
    double code_text(int target) {
        if (!sink_.code_text) return 0;
        const auto f = static_cast<std::size_t>(target);
        ++columns_.coded[f];
        return columns_.dictionaries[f].code(field_);
    }

    void store_label(std::size_t j, Index row, std::uint64_t field_line, bool& keep) {
        double v = std::numeric_limits<double>::quiet_NaN();
        const FieldKind kind = classify_number(field_.data(), field_.data() + field_.size(), v);
        if (kind == FieldKind::missing) {
            if (sink_.missing == MissingPolicy::drop) keep = false;
            else
                fail(field_line, j,
                     "missing label" + in_column(j) + " (" + drop_missing_hint() + " to skip such rows)");
        }
        if (kind != FieldKind::number) v = std::numeric_limits<double>::quiet_NaN();
        RawLabels& L = *sink_.labels;
        const auto r = static_cast<std::size_t>(row);
        L.text[r].assign(field_.data(), field_.size());
        L.numeric[r] = v;
        L.line[r] = record_line_;
    }

    void on_missing(std::size_t j, std::uint64_t field_line, bool& keep) {
        switch (sink_.missing) {
            case MissingPolicy::keep: return;
            case MissingPolicy::drop: keep = false; return;
            case MissingPolicy::error:
                fail(field_line, j,
                     "missing value" + in_column(j) + " (" + drop_missing_hint() +
                         " to skip such rows, or auto, keep or an imputer)");
        }
    }

    FieldEnd scan(std::size_t j) {
        const std::uint64_t field_line = line_;
        const FieldEnd fe = scan_field(p_, end_, delim_, field_, scratch_, line_);
        if (field_failed(fe)) fail(field_line, j, ErrorText(field_error_text(fe)));
        return fe;
    }

    [[noreturn]] void too_many_fields() {
        std::size_t found = layout_.n_fields;
        FieldEnd fe = FieldEnd::delimiter;
        while (fe == FieldEnd::delimiter) {
            fe = scan_field(p_, end_, delim_, field_, scratch_, line_);
            ++found;
        }
        ragged(found);
    }

    [[noreturn]] void too_few_fields(std::size_t found) { ragged(found); }

    [[noreturn]] void ragged(std::size_t found) {
        throw DataError(SourceLocation{*sink_.source, record_line_, 0},
                        "expected " + std::to_string(layout_.n_fields) + " fields" +
                            (layout_.header.empty() ? " (as in the first row)" : " (as in the header)") +
                            ", found " + std::to_string(found));
    }

    std::string in_column(std::size_t j) const {
        return layout_.header.empty() ? std::string() : " in column '" + layout_.header[j] + "'";
    }

    // ErrorText: a message naming an option keeps the mention, for the command to respell.
    [[noreturn]] void fail(std::uint64_t line, std::size_t j, const ErrorText& what) const {
        throw DataError(SourceLocation{*sink_.source, line, j + 1}, what);
    }

    Chunk& chunk_;
    const CsvLayout& layout_;
    const CsvSink& sink_;
    ChunkColumns& columns_;
    const char* p_;
    const char* end_;
    std::uint64_t line_;
    std::uint64_t record_line_ = 0;
    const char delim_;
    const bool tab_is_space_;
    std::string_view field_;
    std::string scratch_;
};

}  // namespace

void parse_csv_chunk(std::string_view text, Chunk& chunk, const CsvLayout& layout, const CsvSink& sink,
                     ChunkColumns& columns) {
    CsvChunkParser(text, chunk, layout, sink, columns).run();
}

}  // namespace kestrel::detail
