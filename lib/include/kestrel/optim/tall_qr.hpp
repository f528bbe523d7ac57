#pragma once
// The R factor of a tall matrix A (n rows >> m columns) by a tall-skinny QR: fixed
// blocks of rows are factorised in parallel by blocked Householder QR, their R
// factors stacked and factorised once more. A = Q R with the same R (up to the signs
// of its rows) as a QR of the whole matrix, at the cost of level-3 operations on
// both cores instead of the level-2 sweeps of a column-pivoted QR over all n rows,
// and without A ever being held whole: the caller fills one block of rows at a time.
// The blocks depend on n and m only, so the result does not depend on the threads.
#include <Eigen/Core>
#include <functional>

namespace kestrel {

// Writes rows [first, first + count) of A into `block` (resized by the callee to
// count x m). Called concurrently for different blocks.
using RowBlockFill = std::function<void(Eigen::Index first, Eigen::Index count, Eigen::MatrixXd& block)>;

// R, m x m upper triangular (rows past n are zero).
Eigen::MatrixXd tall_skinny_r(Eigen::Index n, Eigen::Index m, const RowBlockFill& fill, int threads);

}  // namespace kestrel
