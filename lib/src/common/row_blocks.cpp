#include "kestrel/common/row_blocks.hpp"

#include <string>

#include "kestrel/core/error.hpp"

namespace kestrel {
namespace {

thread_local const RowBlocks* current_blocks = nullptr;

}  // namespace

StreamedRows::StreamedRows(const RowBlocks& blocks) : outer_(current_blocks) { current_blocks = &blocks; }

StreamedRows::~StreamedRows() { current_blocks = outer_; }

const RowBlocks* streamed_rows_of(const Dataset& data) {
    const RowBlocks* b = current_blocks;
    if (b == nullptr || !data.X.is_sparse() || data.X.sparse_ref().nonZeros() != 0) return nullptr;
    if (data.rows() != b->rows() || data.cols() != b->cols())
        throw InternalError("rows read as a stream (" + std::to_string(b->rows()) + " x " + std::to_string(b->cols()) +
                            ") were given as " + std::to_string(data.rows()) + " x " + std::to_string(data.cols()) +
                            ": a stream's rows cannot be subset");
    return b;
}

}  // namespace kestrel
