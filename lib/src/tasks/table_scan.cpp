// The reads of a training file in pieces shared by the quantized store and the stream.
#include "table_scan.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <utility>

#include "kestrel/common/quantized_table.hpp"  // shape_only
#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/tasks/quantized_training.hpp"  // store_piece_bytes
#include "kestrel/tasks/training_columns.hpp"
#include "training_shard_categories.hpp"

namespace kestrel::detail {

namespace {

bool texts_are_numbers(const RawLabels& labels) {
    for (std::size_t i = 0; i < labels.text.size(); ++i)
        if (labels.text[i] != number_label_text(labels.numeric[i])) return false;
    return true;
}

// Appends a piece's labels to the file's. The file's are kept as numbers (their texts not
// held: RawLabels::texts_are_numbers) for as long as every row's text is its number's; the
// first piece with one that is not writes the texts of the rows before it.
void append_labels(RawLabels& all, RawLabels& piece, std::size_t expected_rows) {
    const auto move_in = [](auto& to, auto& from) { to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end())); };
    if (all.texts_are_numbers && !texts_are_numbers(piece)) {
        all.text.reserve(std::max(expected_rows, all.numeric.size() + piece.text.size()));
        all.write_texts();
    }
    if (!all.texts_are_numbers) move_in(all.text, piece.text);
    move_in(all.numeric, piece.numeric);
    move_in(all.line, piece.line);
    move_in(all.qid, piece.qid);
    all.source = piece.source;
}

// Adds X's column sums to `sums`, widened to X's width.
void add_column_sums(Vector& sums, const Features& X) {
    if (sums.size() < X.cols()) {
        Vector wider = Vector::Zero(X.cols());
        wider.head(sums.size()) = sums;
        sums = std::move(wider);
    }
    sums.head(X.cols()) += X.transpose_multiply(Vector::Ones(X.rows()));
}

// Room for the labels of the whole file, estimated from the first piece's rows a byte, so
// that the O(rows) label arrays, the scan's largest holding, grow without doubling (which
// holds the old and the new array at once: up to three times their final size).
// (The texts, when they must be kept, are reserved as they start to be: append_labels.)
std::size_t reserve_labels(RawLabels& labels, const Table& first, std::size_t piece_bytes, std::uint64_t file_bytes) {
    const double piece = static_cast<double>(first.bytes > 0 ? first.bytes : piece_bytes);
    const auto rows = static_cast<std::size_t>(1.02 * static_cast<double>(first.X.rows()) *
                                               static_cast<double>(file_bytes) / std::max(piece, 1.0)) + 1024;
    labels.numeric.reserve(rows);
    labels.line.reserve(rows);
    if (!first.labels->qid.empty()) labels.qid.reserve(rows);
    return rows;
}

// A piece's query and weights columns taken out as a whole read takes them out of the table
// (the query column first, as training_dataset does), its query ids into t.labels->qid,
// unchecked (the scan checks every piece's together); returns the weights (none without a
// weights column) and whether the query column held words in this piece.
Vector take_piece_columns(Table& t, const TrainingDataOptions& columns, Index first, bool& query_words) {
    query_words = take_group_column(t, columns, QueryIdCheck::caller);
    return columns.weights_column.empty() ? Vector() : take_weights_column(t, columns, first);
}

}  // namespace

Scan scan_file(const std::string& path, const ReadOptions& read, std::size_t piece_bytes,
               const TrainingDataOptions* columns) {
    Scan s;
    s.labels.texts_are_numbers = true;
    if (columns != nullptr) s.columns = *columns;
    std::vector<std::vector<std::string>> words;
    std::error_code size_error;
    const std::uint64_t file_bytes = std::filesystem::file_size(path, size_error);
    std::size_t expected_rows = 0;
    s.dropped = each_piece(path, read, piece_bytes, [&](Table& t, Index first) {
        bool query_words = false;
        const Vector w = take_piece_columns(t, s.columns, first, query_words);
        s.query_words = s.query_words || query_words;
        if (s.rows == 0 && t.labels && !size_error) {
            expected_rows = reserve_labels(s.labels, t, piece_bytes, file_bytes);
            if (!s.columns.weights_column.empty()) s.weights.reserve(expected_rows);
        }
        s.weights.insert(s.weights.end(), w.data(), w.data() + w.size());
        s.rows += t.X.rows();
        s.width = std::max(s.width, t.X.cols());
        s.sparse = s.sparse || t.X.is_sparse();
        if (t.labels) {
            s.has_labels = true;
            append_labels(s.labels, *t.labels, expected_rows);
        }
        if (s.feature_names.empty()) s.feature_names = t.feature_names;
        add_column_sums(s.column_sums, t.X);
        if (!t.X.is_sparse()) {
            const DenseView m = t.X.dense_ref();
            s.missing.resize(static_cast<std::size_t>(std::max<Index>(static_cast<Index>(s.missing.size()), m.cols())), 0);
            for (Index i = 0; i < m.rows(); ++i)
                for (Index f = 0; f < m.cols(); ++f) s.missing[static_cast<std::size_t>(f)] += std::isnan(m(i, f));
        }
        s.label_name = t.label_name;
        s.source = t.source;
        s.fields = t.fields;
        words.resize(std::max(words.size(), t.categories.size()));
        for (std::size_t f = 0; f < t.categories.size(); ++f)
            words[f].insert(words[f].end(), t.categories[f].begin(), t.categories[f].end());
    });
    s.bytes = std::filesystem::file_size(path);
    // The query ids of every piece checked together, as a whole read checks the table's (a
    // query's rows may span pieces); the lines are the file's. A column of words is coded
    // by each piece on its own: the caller reads such a file as doubles instead.
    if (!s.columns.group_column.empty() && !s.query_words)
        check_query_ids(Eigen::Map<const Vector>(s.labels.qid.data(), static_cast<Index>(s.labels.qid.size())),
                        s.labels.line, s.source);
    for (std::size_t f = 0; f < words.size(); ++f) {
        if (words[f].empty()) continue;
        std::sort(words[f].begin(), words[f].end());
        words[f].erase(std::unique(words[f].begin(), words[f].end()), words[f].end());
        if (static_cast<Index>(words[f].size()) > read.max_categories)
            throw DataError(s.source + ": column " +
                            (s.feature_names.empty() ? std::to_string(f) : "'" + s.feature_names[f] + "'") + " has " +
                            std::to_string(words[f].size()) + " categories, more than " +
                            option_named("read.max_categories") + " (" + std::to_string(read.max_categories) + ")");
        s.categorical.push_back(static_cast<Index>(f));
    }
    if (!s.categorical.empty()) {
        words.resize(static_cast<std::size_t>(s.width));
        s.categories = std::move(words);
    }
    return s;
}

namespace {

// The bytes the scan holds a row: its labels (as numbers, or as text) and the weights and
// query ids taken out of the pieces.
std::uint64_t scan_row_bytes(const Scan& s) {
    std::uint64_t bytes = 2 * sizeof(double);  // RawLabels::numeric, line
    if (!s.labels.texts_are_numbers) bytes += sizeof(std::string);
    if (!s.columns.weights_column.empty()) bytes += sizeof(double);
    if (!s.columns.group_column.empty()) bytes += sizeof(double);
    return bytes;
}

// One piece of `piece_bytes` (or the whole file, when smaller), with what the scan keeps of
// every row, within the budget.
void check_piece_room(std::size_t piece_bytes, const Scan& s, std::uint64_t max_memory) {
    const std::uint64_t piece = std::min<std::uint64_t>(piece_bytes, s.bytes);
    check_memory(piece + scan_row_bytes(s) * static_cast<std::uint64_t>(s.rows), max_memory,
                 s.source + ": reading in pieces of " + format_bytes(piece_bytes) + " beside the labels of " +
                     std::to_string(s.rows) + " rows");
}

}  // namespace

BudgetScan scan_in_budget_pieces(const std::string& path, const ReadOptions& read, std::size_t piece_bytes,
                                 const TrainingDataOptions* columns, const std::string& reader) {
    const bool budget_pieces = piece_bytes == 0;
    BudgetScan out;
    out.piece_bytes = budget_pieces ? store_piece_bytes(read.max_memory) : piece_bytes;
    const auto why = [&](const MemoryLimitError& e) {
        return MemoryLimitError(e.text() + "; " + reader + " reads a sixteenth of the budget at a time, at least " +
                                format_bytes(kMinPieceBytes) + " (docs/large-data.md)");
    };
    try {
        out.scan = scan_file(path, read, out.piece_bytes, columns);
    } catch (const MemoryLimitError& e) {
        // A piece's doubles beyond the budget: only a budget below the pieces' floor.
        if (!budget_pieces || read.max_memory == 0) throw;
        throw why(e);
    }
    if (budget_pieces && read.max_memory != 0) {
        try {
            check_piece_room(out.piece_bytes, out.scan, read.max_memory);
        } catch (const MemoryLimitError& e) {
            throw why(e);
        }
    }
    return out;
}

void refuse_empty_columns(const std::string& path, const ReadOptions& read, std::size_t piece_bytes, const Scan& s) {
    const auto empty = std::find(s.missing.begin(), s.missing.end(), s.rows);
    if (empty == s.missing.end()) return;
    TableStream stream(path, read, piece_bytes);
    TableStream::Piece piece;
    if (stream.next(piece)) {
        ReadOptions whole = read;
        whole.first_line = piece.first_line;
        (void)read_table_from_buffer(piece.text, stream.source(), whole);
    }
    throw DataError(s.source + ": every cell of feature " + std::to_string(empty - s.missing.begin() + 1) +
                    " is missing; drop it with " + option_named("ignore_columns"));
}

void check_scanned_table(const std::string& path, const ReadOptions& read, std::size_t piece_bytes, const Scan& s) {
    if (!s.has_labels) throw DataError(s.source + ": no label column");
    refuse_empty_columns(path, read, piece_bytes, s);
    if (read.max_rows > 0 && s.rows > read.max_rows)
        throw DataError(s.source + ": " + std::to_string(s.rows) + " data rows, more than " + option_named("max_rows") +
                        " " + std::to_string(read.max_rows));
}

Table shape_table(Scan&& s) {
    Table shape;
    shape.X = shape_only(s.rows, s.width);
    shape.labels = std::move(s.labels);
    shape.feature_names = std::move(s.feature_names);
    shape.categories = std::move(s.categories);
    shape.label_name = s.label_name;
    shape.source = s.source;
    shape.dropped_rows = s.dropped;
    shape.bytes = s.bytes;
    shape.fields = s.fields;
    return shape;
}

void align_piece(Table& t, const Scan& s, Index first) {
    bool words = false;
    (void)take_piece_columns(t, s.columns, first, words);
    detail::widen_table(t, s.width);
    if (s.categorical.empty()) return;
    t.categories.resize(static_cast<std::size_t>(s.width));
    for (const Index f : s.categorical) {
        const auto& mine = t.categories[static_cast<std::size_t>(f)];
        const auto& all = s.categories[static_cast<std::size_t>(f)];
        std::vector<double> code(mine.size());
        for (std::size_t c = 0; c < mine.size(); ++c)
            code[c] = static_cast<double>(std::lower_bound(all.begin(), all.end(), mine[c]) - all.begin());
        const auto to = [&code](double& x) {
            if (!std::isnan(x) && x >= 0 && x < static_cast<double>(code.size())) x = code[static_cast<std::size_t>(x)];
        };
        if (t.X.is_sparse()) {
            SparseMatrix& m = t.X.sparse_mut();
            for (Index i = 0; i < m.outerSize(); ++i)
                for (SparseMatrix::InnerIterator it(m, i); it; ++it)
                    if (it.col() == f) to(it.valueRef());
        } else {
            DenseMatrix& m = t.X.dense_mut();
            for (Index r = 0; r < m.rows(); ++r) to(m(r, f));
        }
    }
}

}  // namespace kestrel::detail
