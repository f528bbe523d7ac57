#pragma once
// Column-wise access to a feature matrix for the L1 coordinate-descent solvers (L1
// logistic regression, the L1 squared-hinge SVM): a column-major copy made once, so
// that one coordinate's entries are contiguous whether the data came dense or as CSR.
#include <algorithm>
#include <cmath>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

class FeatureColumns {
public:
    explicit FeatureColumns(const Features& X) : rows_(X.rows()), sparse_(X.is_sparse()) {
        if (sparse_) {
            // Converted straight into a local and swapped in: Eigen 3.4's SparseMatrix
            // copies when assigned a temporary, which kept a third copy of the data
            // (row-major input, the temporary, the member) alive at the peak.
            ColumnMajorSparse cols(X.sparse_ref());
            cols.makeCompressed();
            sparse_cols_.swap(cols);
        } else {
            dense_cols_ = X.dense_ref();
        }
    }

    // Column j's entries as f(i, x_ij): the stored ones of sparse data, every row of dense data.
    template <class F>
    void for_each(Index j, F&& f) const {
        if (sparse_) {
            const int* outer = sparse_cols_.outerIndexPtr();
            for (int k = outer[j]; k < outer[j + 1]; ++k) f(sparse_cols_.innerIndexPtr()[k], sparse_cols_.valuePtr()[k]);
        } else {
            const double* x = dense_cols_.col(j).data();
            for (Index i = 0; i < rows_; ++i) f(i, x[i]);
        }
    }

    // Column j as rows() contiguous values for dense data (for vectorised dots and axpys);
    // nullptr for sparse data, whose columns go through for_each.
    const double* dense_column(Index j) const { return sparse_ ? nullptr : dense_cols_.col(j).data(); }

private:
    using ColumnMajorSparse = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
    Index rows_;
    bool sparse_;
    ColumnMajorSparse sparse_cols_;
    Eigen::MatrixXd dense_cols_;
};

// How far coordinate w_j is from optimal in min |w_j| + L(w), from g = ∂L/∂w_j: the
// distance of -g from the subdifferential of |w_j|; zero at an optimum.
inline double l1_violation(double g, double w) {
    if (w > 0) return std::abs(g + 1);
    if (w < 0) return std::abs(g - 1);
    return std::max(0.0, std::abs(g) - 1);
}

}  // namespace kestrel
