#pragma once
// Rows of a feature matrix as dense arrays, for walking trees: a view of dense rows, or
// sparse rows scattered into a scratch buffer that is cleared again at the next call,
// so a sparse matrix is never densified as a whole.
#include <vector>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

class RowScatter {
public:
    // `absent`: what a sparse row's absent entries read as (0, or NaN for a model to
    // which absent means missing). `block_rows`: the most rows one call to rows() asks for.
    explicit RowScatter(const Features& X, double absent = 0.0, Index block_rows = 1);
    // n_features values of row i; valid until the next call. One RowScatter per thread.
    const double* row(Index i) { return rows(i, 1); }
    // Rows first .. first + count - 1 (count <= block_rows), row r at r·n_features.
    const double* rows(Index first, Index count);

private:
    const Features& X_;
    std::vector<double> buffer_;
    double absent_ = 0;
    Index block_rows_ = 1;
    Index last_ = -1, last_count_ = 0;  // the sparse rows now in buffer_
};

}  // namespace kestrel
