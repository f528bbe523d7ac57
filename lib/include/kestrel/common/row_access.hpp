#pragma once
// Row-at-a-time access to dense or sparse features for the coordinate solvers of the
// linear family (dual coordinate descent, perceptron): x_iᵀw and w += a·x_i in plain
// ascending-column loops. Dense rows are summed in the same order as the sparse
// non-zeros (no SIMD reassociation), so dense and sparse data give the same numbers.
#include "kestrel/core/dataset.hpp"

namespace kestrel::rows {

struct Dense {
    DenseView X;  // the rows, not a copy
    double dot(Index i, const double* w) const {
        const double* x = X.data() + i * X.cols();
        double s = 0;
        for (Index j = 0; j < X.cols(); ++j) s += x[j] * w[j];
        return s;
    }
    void axpy(Index i, double a, double* w) const {
        const double* x = X.data() + i * X.cols();
        for (Index j = 0; j < X.cols(); ++j) w[j] += a * x[j];
    }
    double squared_norm(Index i) const { return dot(i, X.data() + i * X.cols()); }
};

struct Sparse {
    const SparseMatrix& X;  // compressed
    double dot(Index i, const double* w) const {
        const int* idx = X.innerIndexPtr();
        const double* v = X.valuePtr();
        double s = 0;
        for (int k = X.outerIndexPtr()[i]; k < X.outerIndexPtr()[i + 1]; ++k) s += v[k] * w[idx[k]];
        return s;
    }
    void axpy(Index i, double a, double* w) const {
        const int* idx = X.innerIndexPtr();
        const double* v = X.valuePtr();
        for (int k = X.outerIndexPtr()[i]; k < X.outerIndexPtr()[i + 1]; ++k) w[idx[k]] += a * v[k];
    }
    double squared_norm(Index i) const {
        const double* v = X.valuePtr();
        double s = 0;
        for (int k = X.outerIndexPtr()[i]; k < X.outerIndexPtr()[i + 1]; ++k) s += v[k] * v[k];
        return s;
    }
};

// Calls f(rows) with the accessor matching X. A sparse matrix that is not compressed
// is compressed into `scratch` first.
template <class F>
decltype(auto) visit(const Features& X, SparseMatrix& scratch, F&& f) {
    if (!X.is_sparse()) return f(Dense{X.dense_ref()});
    if (X.sparse_ref().isCompressed()) return f(Sparse{X.sparse_ref()});
    scratch = X.sparse_ref();
    scratch.makeCompressed();
    return f(Sparse{scratch});
}

}  // namespace kestrel::rows
