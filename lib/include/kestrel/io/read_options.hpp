#pragma once
// How to read a data file: format, CSV dialect, label column, missing values. The
// readers' messages name these options by their library names (option_named in
// kestrel/core/error.hpp: "ignore_columns", "max_rows"), as every library message does.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

enum class FileFormat { automatic, csv, libsvm };
FileFormat file_format_from_string(const std::string& s);  // "auto", "csv", "libsvm"; UsageError
// A CSV delimiter as a user writes it: "," ";" or "tab" ("\\t" or a tab character too);
// UsageError naming the option "delimiter" for anything else.
char delimiter_from_string(const std::string& s);

enum class MissingPolicy {
    error,  // a missing cell is an error naming file:line:column (the library's default)
    drop,   // rows with a missing feature are dropped (the count is reported)
    keep,   // kept as NaN, for the model or an imputation step fitted later (the CLI's default)
};
// Missing markers: an empty field, NA, N/A, NaN, nan, NAN, ?. Infinities are never data
// (an error whatever the policy). A missing label is an error unless the policy is
// drop; keep keeps its text with a NaN numeric value.

struct ReadOptions {
    FileFormat format = FileFormat::automatic;
    bool header = true;            // CSV: first row names the columns
    std::string label_col;         // name or 0-based index; empty = "label" if present, else column 0
    char delimiter = 0;            // 0 = detect among , ; and tab
    MissingPolicy missing = MissingPolicy::error;
    int threads = 0;               // 0 = all cores
    // LIBSVM: read into a dense matrix, absent entries as zeros, when that takes no more
    // memory than CSR. Off for models that read an absent entry as missing (gbdt).
    bool densify = false;
    // Limits checked before the matrix is allocated (DataError naming the need):
    Index max_rows = 0;            // more data rows than this is an error; 0 = no limit
    std::uint64_t max_memory = 0;  // bytes the table may take; 0 = the memory available

    // Predict time: read the named feature columns in this order (CSV with a header;
    // extra columns are ignored, a missing one is an error). Without a header it is not
    // used: give expected_features instead.
    std::optional<std::vector<std::string>> feature_columns;
    // Predict time: the model's feature count (CSV without header: by position; LIBSVM:
    // the width, an index beyond it is an error).
    Index expected_features = -1;
    // Predict time: a file without a label column is fine (labels then empty).
    bool labels_optional = false;

    // Streaming (TableStream hands the readers one piece of the input at a time):
    // the line number of the text's first line, so that errors name the line of the
    // whole input; and a piece without data rows (blank lines only, or every row
    // dropped) reads as an empty table instead of failing.
    std::uint64_t first_line = 1;
    bool piece_of_stream = false;
    // CSV without a header: the fields every record has (0 = those of the first record).
    std::size_t csv_fields = 0;
    // CSV: fields whose text is copied into Table::kept, as read (kestrel-predict's
    // --id-col / --keep-cols): header names, or 0-based field indices.
    std::vector<std::string> keep_columns;

    // CSV column types (train time). A feature column is numeric when every non-missing
    // cell is a number, categorical otherwise; these override that (header names, or
    // 0-based field indices). Ignored columns are not read at all.
    std::vector<std::string> categorical_columns;
    std::vector<std::string> numeric_columns;
    std::vector<std::string> ignore_columns;
    // Feature columns (0-based, in the order of the table's features) read as categories
    // whatever their cells, as --categorical reads them: kestrel-train --shard, where a
    // column is categorical when any rank's part makes it so (docs/distributed.md).
    std::vector<Index> categorical_features;
    // Predict time: the model's categories per feature (CategoryLists, in feature order).
    // A category not in the list reads as kUnknownCategory, or is an error naming
    // file:line:column when unknown_category_error.
    std::optional<CategoryLists> feature_categories;
    bool unknown_category_error = false;
    // More categories than this in one column is an error (--max-categories-hard).
    Index max_categories = 100000;

    // A binary copy of the parsed table (kestrel/io/table_cache.hpp, docs/tables.md "The
    // table cache"): read_table reads it instead of parsing when it was written from this
    // very input with these options by this kestrel version, and otherwise parses and
    // writes it. Empty: none.
    std::string cache;
    // Told one line when the cache is there but not used and is written anew (which of
    // the rules it failed). Nothing is told when it is empty.
    std::function<void(const std::string&)> cache_note;
};

// What a reader returns: features, the label column as read, and names.
struct Table {
    Features X;
    std::optional<RawLabels> labels;        // absent when the file has no label column
    std::vector<std::string> feature_names; // header names, or empty
    CategoryLists categories;               // per feature; empty when every column is numeric
    std::string label_name;                 // header name of the label column, if any
    std::string source;                     // path, or "<stdin>"
    Index dropped_rows = 0;                 // rows dropped by MissingPolicy::drop
    std::uint64_t bytes = 0;                // size of the input read
    std::size_t fields = 0;                 // CSV: fields per record (features, label, ignored)
    // The text of the ReadOptions::keep_columns fields: kept[c][row], and their names
    // (the header's, or the index as given).
    std::vector<std::vector<std::string>> kept;
    std::vector<std::string> kept_names;
};

}  // namespace kestrel
