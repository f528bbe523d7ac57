#pragma once
// Sums over the rows of a fit, taken in fixed blocks of rows: each block adds its rows'
// terms into a column of its own, and the columns are added in block order. The block
// size, not the thread count, fixes the order of every addition, so the sums have the same
// bits on any number of threads (the objectives of the linear family, summed on the
// fit's threads in one pass over the rows).
#include <algorithm>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

inline constexpr Index kRowSumBlock = 2048;
// The blocks' partial sums are kept under this many doubles (32 MB) whatever their width (a
// multinomial gradient is features x classes wide): wide sums over many rows take blocks
// of more rows. The rule reads the rows and the width, never the thread count.
inline constexpr Index kRowSumPartialCells = Index{1} << 22;

inline Index row_sum_block_rows(Index n, Index width) {
    const Index blocks_allowed = std::max<Index>(1, kRowSumPartialCells / std::max<Index>(width, 1));
    return std::max(kRowSumBlock, (n + blocks_allowed - 1) / blocks_allowed);
}

// block(first, end, out) adds the terms of rows [first, end) into out[0 .. width), which
// starts at zero. Returns the width sums over all n rows.
template <class Block>
Vector sum_over_row_blocks(Index n, Index width, int threads, Block&& block) {
    const Index rows = row_sum_block_rows(n, width);
    const Index blocks = (n + rows - 1) / rows;
    Eigen::MatrixXd partial = Eigen::MatrixXd::Zero(width, std::max<Index>(blocks, 1));
#pragma omp parallel for schedule(static) num_threads(std::max(1, threads)) if (blocks > 1)
    for (Index k = 0; k < blocks; ++k) block(k * rows, std::min(n, (k + 1) * rows), partial.col(k).data());
    Vector total = Vector::Zero(width);
    for (Index k = 0; k < partial.cols(); ++k) total += partial.col(k);
    return total;
}

}  // namespace kestrel
