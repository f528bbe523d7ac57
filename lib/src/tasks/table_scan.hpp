#pragma once
// A training file read in pieces, several times (docs/large-data.md): the reads of the
// quantized store and of a stream share the first one, which learns the rows, labels,
// names, width and categories, and the way every later piece is made as wide and coded
// as the whole table. Each piece goes through TableStream, the reader of a whole file.
#include <cstdint>
#include <string>
#include <vector>

#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/table_stream.hpp"
#include "kestrel/tasks/training_data.hpp"

namespace kestrel::detail {

// Each parsed piece of the file with rows, in input order, with the row number of its first
// row; the stream's end checks (no data rows, every row dropped) as a whole read makes them.
// Returns the rows dropped (missing policy drop).
template <class Visit>
Index each_piece(const std::string& path, const ReadOptions& read, std::size_t piece_bytes, Visit&& visit) {
    TableStream stream(path, read, piece_bytes);
    TableStream::Piece piece;
    Index rows = 0, dropped = 0;
    while (stream.next(piece)) {
        Table t = stream.parse(piece, read.threads);
        stream.learn(t);
        dropped += t.dropped_rows;
        if (t.X.rows() == 0) continue;
        visit(t, rows);
        rows += t.X.rows();
    }
    stream.finish(rows, dropped);
    return dropped;
}

// What the first read learns: the rows, their labels, the names, the width and each
// column's categories (the sorted union of the pieces' lists, as the reader merges the
// dictionaries of a whole file's chunks).
struct Scan {
    Index rows = 0, dropped = 0, width = 0;
    RawLabels labels;
    bool has_labels = false;
    std::vector<std::string> feature_names;
    std::string label_name, source;
    std::size_t fields = 0;
    std::uint64_t bytes = 0;
    CategoryLists categories;  // per column; empty: every column numeric
    std::vector<Index> categorical;
    std::vector<Index> missing;  // per column of a dense table: its missing cells
    Vector column_sums;          // per column: the sum of its cells (absent sparse entries 0)
    bool sparse = false;         // the pieces are sparse rows (LIBSVM)
    // The query and weights columns taken out of every piece (columns.group_column and
    // weights_column; empty: none), as a whole read takes them out of the table: the query
    // ids kept in labels.qid, the weights here, a row each. query_words: the query column
    // held words in some piece (its ids are then each piece's own category codes).
    TrainingDataOptions columns;
    std::vector<double> weights;
    bool query_words = false;
};

// The first read of the file (its rows, labels, names, width, categories, missing cells
// and column sums, and the query ids and weights of columns->group_column and
// weights_column when given, taken out of the features); DataError for a column with more
// categories than read.max_categories, and the whole read's DataError "file:line: ..." for
// a query id that is not a number or a query whose rows are not contiguous (unless the
// query column held words).
Scan scan_file(const std::string& path, const ReadOptions& read, std::size_t piece_bytes,
               const TrainingDataOptions* columns = nullptr);

// The first read in pieces of `piece_bytes`, or, when it is 0, in pieces sized by the memory
// budget (store_piece_bytes: a sixteenth of read.max_memory, 64 KB to 4 MB); then one piece
// beside what the scan keeps of every row (its labels, weights and query ids) must fit
// read.max_memory, and a MemoryLimitError adds that `reader` reads a sixteenth of the budget at
// a time. `piece_bytes` in the result is the size read.
struct BudgetScan {
    Scan scan;
    std::size_t piece_bytes = 0;
};
BudgetScan scan_in_budget_pieces(const std::string& path, const ReadOptions& read, std::size_t piece_bytes,
                                 const TrainingDataOptions* columns, const std::string& reader);

// A CSV column missing in every row is refused by the whole-file reader, which a piece
// cannot know: the first piece is read again as a whole input for the reader's own error.
void refuse_empty_columns(const std::string& path, const ReadOptions& read, std::size_t piece_bytes, const Scan& s);

// The checks a whole read makes over the whole table, made on the scan: a label column, no
// CSV column missing in every row (refuse_empty_columns), at most read.max_rows rows.
void check_scanned_table(const std::string& path, const ReadOptions& read, std::size_t piece_bytes, const Scan& s);

// The scanned table without its cells: X its shape (shape_only: rows x width, no entries),
// its labels, names and categories, for training_dataset.
Table shape_table(Scan&& s);

// A piece as the whole table has it: its query and weights columns taken out (its first
// row is data row `first` + 1), as wide, its category codes the union lists' codes.
void align_piece(Table& t, const Scan& s, Index first);

}  // namespace kestrel::detail
