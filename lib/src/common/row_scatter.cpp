#include "kestrel/common/row_scatter.hpp"

#include "kestrel/core/error.hpp"

namespace kestrel {

RowScatter::RowScatter(const Features& X, double absent, Index block_rows)
    : X_(X), absent_(absent), block_rows_(block_rows) {
    if (X.is_sparse()) buffer_.assign(static_cast<std::size_t>(X.cols() * block_rows), absent);
}

const double* RowScatter::rows(Index first, Index count) {
    if (!X_.is_sparse()) return X_.dense_ref().row(first).data();
    if (count > block_rows_) throw InternalError("row scatter: more rows than its block");
    const SparseMatrix& S = X_.sparse_ref();
    const Index d = X_.cols();
    for (Index r = 0; r < last_count_; ++r)
        for (SparseMatrix::InnerIterator it(S, last_ + r); it; ++it)
            buffer_[static_cast<std::size_t>(r * d + it.col())] = absent_;
    for (Index r = 0; r < count; ++r)
        for (SparseMatrix::InnerIterator it(S, first + r); it; ++it)
            buffer_[static_cast<std::size_t>(r * d + it.col())] = it.value();
    last_ = first;
    last_count_ = count;
    return buffer_.data();
}

}  // namespace kestrel
