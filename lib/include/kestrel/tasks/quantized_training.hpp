#pragma once
// Training data read straight into the quantized store (common/quantized_table.hpp,
// docs/large-data.md): gbdt's bin codes written while the file is read, its doubles never
// held whole. The file is read several times (it must be a file, not standard input or a
// pipe): once for the rows, labels, names and categories; then for the cut sample's
// values, a group of features at a time within a memory budget; then once for the codes.
// Every piece goes through the reader of a whole file (TableStream), so a bad cell is the
// same one-line error naming file:line:column.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "kestrel/common/quantized_table.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/tasks/training_data.hpp"

namespace kestrel {

struct QuantizedTrainingData {
    // The rows as training_dataset gives them, but X the store's shape (shape_only).
    Dataset data;
    // Null when the table has a categorical column and the model does not split categories
    // itself (the histogram forest: they are one-hot encoded, from doubles); data is then empty.
    std::shared_ptr<const QuantizedTable> store;
    std::string label_name;  // the training file's label header name, or empty
    int cut_passes = 0;      // reads of the file that gathered the cut sample's values
    bool pages_on_disk = false;  // the codes are in a mapped temporary file (StorePages)
};

// How much the reads hold at once. sample_bytes: the cut sample's values (0: one byte a cell
// of the table, the codes' size, which are allocated after the values are freed; at least
// kMinCutSampleBytes, since a small table's reads are short; where the codes do not fit the
// memory budget, a dense table's values of every feature in one read, in a mapped temporary
// file beside the codes' (StorePlacement::directory; not with StorePages::memory), and a
// sparse table's within a quarter of the budget);
// piece_bytes: the text of one piece of the file (its doubles are about as large); 0: as
// store_piece_bytes says for the memory budget, which must then hold a piece and the scan's
// O(rows) state (below).
struct StoreReadSizes {
    std::uint64_t sample_bytes = 0;
    std::size_t piece_bytes = 0;
};
inline constexpr std::uint64_t kMinCutSampleBytes = std::uint64_t{8} << 20;

// The pieces the file is read in shrink with the memory budget (ReadOptions::max_memory, or
// the memory available when it is 0): a sixteenth of it, at least kMinPieceBytes and at most
// kMaxPieceBytes (4 MB; also the size where the budget is not known). A piece is held a few
// times over while it is read (the stream's block, the piece's text, its doubles, about as
// large or up to four times larger, and their copy when a weights or query column is taken
// out of them), which a sixteenth leaves room for. The piece size changes where the file is
// cut, not the model. With the size from the budget, read_quantized_training_data refuses
// (MemoryLimitError, exit 2) a budget that cannot hold one piece's text (or the whole file,
// when smaller) beside the scan's O(rows) state: the labels, 16 bytes a row as numbers, 48 as
// text; 8 more for weights, 8 for query ids.
inline constexpr std::size_t kMinPieceBytes = std::size_t{64} << 10;
inline constexpr std::size_t kMaxPieceBytes = std::size_t{4} << 20;
std::size_t store_piece_bytes(std::uint64_t max_memory);

// Where the store's codes live (common/code_pages.hpp, docs/large-data.md "Pages on disk").
// automatic: in memory when they fit the memory budget (ReadOptions::max_memory, or the
// memory available: the rule check_memory applies), else in the pages of a mapped temporary
// file; memory: in memory, a DataError when they do not fit; disk: in a file whatever their size.
enum class StorePages { automatic, memory, disk };

struct StorePlacement {
    StorePages pages = StorePages::automatic;
    std::string directory{};  // of the temporary file; empty: $TMPDIR, else /tmp
    // Progress of the read that writes the codes (rows written of all rows), its label
    // saying where the codes are; a front end sets it when stderr is a terminal.
    std::function<void(const std::string& label, std::uint64_t done, std::uint64_t total)> progress{};
};

// Reads options.path for spec (a model that reads the store: Capabilities::quantized_rows)
// into the store cut with max_bins and seed: the cuts BinCuts::fit gives on all the rows of
// the table read whole, the codes of every row, in memory or on disk as `placement` says. An
// absent sparse entry is coded as the model reads it (Capabilities::absent_is_missing:
// missing for gbdt, the value 0 for the forest).
// A weights or query column is taken out of every piece of every read (the doubles are read
// instead, `store` null, from a LIBSVM file, beside a column of words, or for a query column
// of words). UsageError when the input is not a regular file.
QuantizedTrainingData read_quantized_training_data(const TrainingDataOptions& options, const ModelSpec& spec,
                                                   int max_bins, std::uint64_t seed, const StoreReadSizes& sizes = {},
                                                   const StorePlacement& placement = {});

}  // namespace kestrel
