#pragma once
// Shared by the kernel-method tests: building the models without the registry and
// the deterministic fixture recorded against scikit-learn (make_references.py).
#include <cmath>

#include "../linear/linear_test_util.hpp"

namespace kestrel::kernel_test {

using linear_test::make;

// x_ij = sin(1.3 i + 0.7 j + 0.1)(1 + 0.1 j), y_i = cos(0.9 i) + 0.5 x_i0 - x_i2²:
// the formula of make_references.py, so no data file is needed.
inline Dataset formula_data(Index n = 20, Index d = 3) {
    DenseMatrix X(n, d);
    Vector y(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < d; ++j)
            X(i, j) = std::sin(1.3 * static_cast<double>(i) + 0.7 * static_cast<double>(j) + 0.1) *
                      (1 + 0.1 * static_cast<double>(j));
        y[i] = std::cos(0.9 * static_cast<double>(i)) + 0.5 * X(i, 0) - X(i, d - 1) * X(i, d - 1);
    }
    Dataset ds;
    ds.X = Features(std::move(X));
    ds.y = std::move(y);
    ds.task = Task::regression;
    return ds;
}

inline Features formula_queries() {
    DenseMatrix Q(3, 3);
    Q << 0.2, -0.4, 0.9, -1.0, 0.5, 0.1, 0.7, 0.7, -0.3;
    return Features(std::move(Q));
}

using test::threads;

}  // namespace kestrel::kernel_test
