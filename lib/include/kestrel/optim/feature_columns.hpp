#pragma once
// Column-wise access to a feature matrix for the L1 coordinate-descent solvers (L1
// logistic regression, the L1 squared-hinge SVM): the matrix held once in column order,
// so that one coordinate's entries are contiguous whether the data came dense or as CSR.
//
// Built from a const Features it is a copy. Built from an rvalue it takes the matrix's
// own buffers and rearranges them in place (kestrel-train, which no longer needs the
// rows), so that training holds the data once instead of twice. Both give the same
// columns, bit for bit: sparse columns list their rows in increasing order either way.
#include <algorithm>
#include <cmath>
#include <vector>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

class FeatureColumns {
public:
    // A column-major copy of X.
    explicit FeatureColumns(const Features& X);
    // X's storage rearranged into columns; X is left empty. Working memory besides the
    // data: `scratch` entries (0: the default, about 1/6 of a sparse matrix's bytes and
    // 1/64 of a dense one's), raised where one sparse column needs more; tests pass small
    // values so that small matrices go through several passes.
    explicit FeatureColumns(Features&& X, Index scratch = 0);

    Index rows() const { return rows_; }
    Index cols() const { return cols_; }

    // Column j's entries as f(i, x_ij): the stored ones of sparse data, every row of dense data.
    template <class F>
    void for_each(Index j, F&& f) const {
        if (sparse_) {
            const int* row = csc_.innerIndexPtr();
            const double* value = csc_.valuePtr();
            for (int k = col_start_[j]; k < col_start_[j + 1]; ++k) f(row[k], value[k]);
        } else {
            const double* x = dense_column(j);
            for (Index i = 0; i < rows_; ++i) f(i, x[i]);
        }
    }

    // Column j as rows() contiguous values for dense data (for vectorised dots and axpys);
    // nullptr for sparse data, whose columns go through for_each.
    const double* dense_column(Index j) const { return sparse_ ? nullptr : dense_.data() + j * rows_; }

private:
    Index rows_, cols_;
    bool sparse_;
    DenseMatrix dense_;  // cols x rows: row j is column j of the features
    // The sparse columns (CSC): column j's row indices and values at [col_start_[j],
    // col_start_[j + 1]) of csc_'s index and value arrays. csc_ only owns those arrays:
    // a cols x rows copy, or the CSR's own arrays rearranged (whose outer index and
    // shape then no longer describe them).
    SparseMatrix csc_;
    std::vector<int> col_start_;
};

namespace detail {
// The in-place conversions behind FeatureColumns(Features&&), declared for their tests.
// An n x d row-major `m` becomes d x n (its transpose) in its own buffer, with
// `scratch` doubles of working memory.
void transpose_in_place(DenseMatrix& m, Index scratch);
// A compressed CSR `m` (n x d): its value and index arrays rearranged into CSC order, the
// index array then holding row indices, increasing within each column; returns the d + 1
// column starts. Working memory: `scratch` entries of 16 bytes, or the largest column.
std::vector<int> csr_to_csc_in_place(SparseMatrix& m, Index scratch);
}  // namespace detail

// How far coordinate w_j is from optimal in min |w_j| + L(w), from g = ∂L/∂w_j: the
// distance of -g from the subdifferential of |w_j|; zero at an optimum.
inline double l1_violation(double g, double w) {
    if (w > 0) return std::abs(g + 1);
    if (w < 0) return std::abs(g - 1);
    return std::max(0.0, std::abs(g) - 1);
}

}  // namespace kestrel
