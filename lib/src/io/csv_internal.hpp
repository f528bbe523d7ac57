#pragma once
// The pieces of the CSV reader: which field goes where (layout), and the parser of
// one line-aligned chunk of records.
#include <string>
#include <string_view>
#include <vector>

#include "chunked_text.hpp"
#include "kestrel/io/read_options.hpp"

namespace kestrel::detail {

constexpr int field_ignored = -1;
constexpr int field_label = -2;

struct CsvLayout {
    char delimiter = ',';
    std::size_t n_fields = 0;           // fields in every record
    std::vector<int> target;            // per field: feature column, field_label or field_ignored
    Index n_features = 0;
    int label_field = -1;               // -1: no label column
    std::vector<std::string> header;    // names per field; empty without a header
    std::vector<std::string> feature_names;  // header names in output order
    std::vector<int> keep_slot;         // per field: its slot in Table::kept, or -1 (empty: none kept)
    std::vector<std::string> kept_names;
};

// Decides the label field and the feature fields from the header (may be empty),
// the field count and the options. Throws DataError naming `source`.
CsvLayout resolve_csv_layout(std::vector<std::string> header, std::size_t n_fields, const ReadOptions& opts,
                             const std::string& source);

// The fields of ReadOptions::keep_columns (names, else indices): sets keep_slot and
// kept_names. Throws DataError naming a column not in the file.
void resolve_kept_columns(CsvLayout& layout, const ReadOptions& opts, const std::string& source);

struct CsvSink {
    double* X = nullptr;           // rows x n_features, row-major, preallocated
    RawLabels* labels = nullptr;   // preallocated to rows, or null without a label column
    MissingPolicy missing = MissingPolicy::error;
    const std::string* source = nullptr;
    std::vector<std::vector<std::string>>* kept = nullptr;  // per slot, preallocated to rows
};

// Parses the records of one chunk into rows first_row.. of the sink; sets kept.
void parse_csv_chunk(std::string_view text, Chunk& chunk, const CsvLayout& layout, const CsvSink& sink);

}  // namespace kestrel::detail
