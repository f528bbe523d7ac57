#pragma once
// Training data read as a stream (docs/large-data.md, "Linear models from a stream"): the
// file is read once for its rows, labels, names and column means, and then once per pass of
// the fit, a piece at a time, its features never held whole. A model whose loss is a sum
// over rows (Capabilities::streamed_rows: logistic, linear_svm's primal, ridge) sums it piece
// by piece, as over MPI ranks. Every piece goes through the reader of a whole file
// (TableStream), so a bad cell is the same one-line error naming file:line:column.
#include <cstddef>
#include <memory>
#include <string>

#include "kestrel/common/row_blocks.hpp"
#include "kestrel/core/context.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/tasks/training_data.hpp"

namespace kestrel {

struct StreamedTrainingData {
    // The rows as training_dataset gives them, but X the stream's shape (shape_only). Empty
    // (no rows, no blocks) when `refused` says why the file cannot be streamed.
    Dataset data;
    std::shared_ptr<const RowBlocks> blocks;
    std::string label_name;  // the training file's label header name, or empty
    // Why the table, once scanned, cannot be fitted from a stream (a categorical column, a
    // missing cell: the linear models take them through preprocessing steps fitted on the
    // doubles); empty when it can.
    std::string refused;
};

// Reads options.path once for spec and gives its rows as blocks of about piece_bytes of
// text that read the file again at every pass (progress reported through ctx, one unit a
// row). piece_bytes 0: sized by the memory budget, as the quantized store's pieces
// (store_piece_bytes: a sixteenth of options.read.max_memory, 64 KB to 4 MB), and a budget
// that cannot hold one piece beside the labels of every row is a MemoryLimitError. The
// blocks are the sums' blocks, so another piece size changes the model by the rounding of
// its sums only. UsageError when options name a weights or query column (not yet taken) or
// the input is not a regular file (it is read several times).
StreamedTrainingData read_streamed_training_data(const TrainingDataOptions& options, const ModelSpec& spec,
                                                 const Context& ctx, std::size_t piece_bytes = 0);

}  // namespace kestrel
