#pragma once
// Newton's method (IRLS) for binary kernel logistic regression in the dual
// coefficients: each step solves the (n+1) x (n+1) system
//     [ W K + I   W 1 ] [da]     [ g + a ]
//     [ 1ᵀ W K    1ᵀW1] [db] = - [ 1ᵀ g  ]
// (the Newton equations with the common factor K removed, so a singular K is fine),
// then backtracks on the objective. O(n³) per step: for small n.
#include "kestrel/core/dataset.hpp"

namespace kestrel {

struct KlrNewtonResult {
    Vector a;
    double b = 0;
    int iterations = 0;
    bool converged = false;
    double grad_norm = 0, initial_grad_norm = 0;
};

// y_pm: ±1; cost: c_i >= 0. Stops when the gradient norm is <= tol · max(1, initial).
KlrNewtonResult solve_klr_newton(const DenseMatrix& K, const Vector& y_pm, const Vector& cost, double tol,
                                 int max_iter, int threads);

}  // namespace kestrel
