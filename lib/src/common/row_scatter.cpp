#include "kestrel/common/row_scatter.hpp"

namespace kestrel {

RowScatter::RowScatter(const Features& X, double absent) : X_(X), absent_(absent) {
    if (X.is_sparse()) buffer_.assign(static_cast<std::size_t>(X.cols()), absent);
}

const double* RowScatter::row(Index i) {
    if (!X_.is_sparse()) return X_.dense_ref().row(i).data();
    const SparseMatrix& S = X_.sparse_ref();
    if (last_ >= 0)
        for (SparseMatrix::InnerIterator it(S, last_); it; ++it) buffer_[static_cast<std::size_t>(it.col())] = absent_;
    for (SparseMatrix::InnerIterator it(S, i); it; ++it) buffer_[static_cast<std::size_t>(it.col())] = it.value();
    last_ = i;
    return buffer_.data();
}

}  // namespace kestrel
