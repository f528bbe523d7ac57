#pragma once
// Rows of a feature matrix as dense arrays, one at a time, for walking trees: a view
// of a dense row, or a sparse row scattered into a scratch buffer that is cleared
// again at the next call, so a sparse matrix is never densified as a whole.
#include <vector>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

class RowScatter {
public:
    // `absent`: what a sparse row's absent entries read as (0, or NaN for a model to
    // which absent means missing).
    explicit RowScatter(const Features& X, double absent = 0.0);
    // n_features values of row i; valid until the next call. One RowScatter per thread.
    const double* row(Index i);

private:
    const Features& X_;
    std::vector<double> buffer_;
    double absent_ = 0;
    Index last_ = -1;  // the sparse row now in buffer_
};

}  // namespace kestrel
