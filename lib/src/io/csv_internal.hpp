#pragma once
// The pieces of the CSV reader: which field goes where (layout), and the parser of
// one line-aligned chunk of records.
#include <string>
#include <string_view>
#include <vector>

#include "category_dictionary.hpp"
#include "chunked_text.hpp"
#include "kestrel/io/read_options.hpp"

namespace kestrel::detail {

constexpr int kFieldIgnored = -1;
constexpr int kFieldLabel = -2;

// How a feature field's cells are read: numbers unless a cell is not one (then the
// column is categorical), numbers only, or category strings.
enum class FieldType : unsigned char { automatic, numeric, categorical };

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
    std::vector<FieldType> field_type;  // per field (features only matter)
};

// Decides the label field and the feature fields from the header (may be empty),
// the field count and the options. Throws DataError naming `source`.
CsvLayout resolve_csv_layout(std::vector<std::string> header, std::size_t n_fields, const ReadOptions& opts,
                             const std::string& source);

// The fields of ReadOptions::keep_columns (names, else indices): sets keep_slot and
// kept_names. Throws DataError naming a column not in the file.
void resolve_kept_columns(CsvLayout& layout, const ReadOptions& opts, const std::string& source);

// The column types the caller asked for (categorical_columns, numeric_columns,
// ignore_columns) or the model's (feature_categories): sets field_type, and drops ignored
// fields from the features. Throws DataError naming a column not in the file.
void resolve_field_types(CsvLayout& layout, const ReadOptions& opts, const std::string& source);

// What pass 1 learned of one chunk's feature columns.
struct ChunkColumns {
    std::vector<Index> text_seen;  // per feature: cells of an automatic column that were not numbers
    // The first such cell of each feature in the chunk: its line, field and text.
    std::vector<std::uint64_t> first_text_line;
    std::vector<std::size_t> first_text_field;
    std::vector<std::string> first_text;
    std::vector<Index> missing;    // per feature: missing cells (rows kept)
    std::vector<Index> dropped;    // ordinals (in the chunk) of the records MissingPolicy::drop removed
    // With CsvSink::code_text: per feature, the chunk's dictionary of the text cells pass 1
    // coded (their cells hold the chunk's codes), and how many cells it coded.
    std::vector<CategoryDictionary> dictionaries;
    std::vector<Index> coded;
};

struct CsvSink {
    double* X = nullptr;           // rows x n_features, row-major, preallocated
    RawLabels* labels = nullptr;   // preallocated to rows, or null without a label column
    MissingPolicy missing = MissingPolicy::error;
    const std::string* source = nullptr;
    std::vector<std::vector<std::string>>* kept = nullptr;  // per slot, preallocated to rows
    // Train time, every row kept as read: pass 1 codes the text cells it meets (each
    // chunk with its own dictionaries), so that pass 2 rescans only the chunks whose
    // categorical columns also hold number-like cells (categories too, as text).
    bool code_text = false;
};

// Parses the records of one chunk into rows first_row.. of the sink; sets kept.
// Categorical cells are left for categorize_csv (a missing one is NaN already).
void parse_csv_chunk(std::string_view text, Chunk& chunk, const CsvLayout& layout, const CsvSink& sink,
                     ChunkColumns& columns);

// Pass 2, for tables with categorical columns: codes every categorical cell (sorted
// category order over the whole file; or the model's categories at predict time) and
// sets table.categories. `features` are the categorical feature columns.
void categorize_csv(const TextInput& in, std::vector<Chunk>& chunks, const CsvLayout& layout,
                    std::vector<ChunkColumns>& columns, const std::vector<Index>& features, double* X,
                    const ReadOptions& opts, const std::string& source, CategoryLists& categories);

}  // namespace kestrel::detail
