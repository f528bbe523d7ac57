#pragma once
// The one LP builder behind lad, quantile and lp_svm: an L1-penalised linear model
// with a piecewise-linear loss, solved through its dual (docs/models/quantile.md).
//
// Primal:  min_{w,b}  Σ_i loss_i(s_i (x_iᵀw + b))  +  λ ||w||₁
// Dual:    max_a  Σ_i g_i a_i   s.t.  lo_i <= a_i <= hi_i,
//                                     -λ <= Σ_i a_i s_i x_ij <= λ   (each feature j),
//                                     Σ_i a_i s_i = 0               (with an intercept),
// where s_i = ±1 is the row's sign. Quantile regression: s = 1, g = y, a_i in
// [-(1-q) c_i, q c_i]; the 1-norm SVM: s = y in {-1,1}, g = 1, a_i in [0, C c_i].
// The dual has d+1 rows and n bounded columns (the primal n rows and 2d+2n+2 columns),
// so the simplex basis is (d+1) x (d+1) however many samples there are; (w, b) are
// minus the dual values of those rows.
#include <string>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

struct L1LinearLp {
    const Features& X;
    Vector sign;          // s_i; empty = every s_i = 1
    Vector gain;          // g_i
    Vector lower, upper;  // lo_i <= a_i <= hi_i, lo_i <= 0 <= hi_i
    double lambda = 0;    // λ >= 0
    bool intercept = true;
};

struct L1LinearFit {
    Vector w;
    double b = 0;
    double objective = 0;  // the primal (= dual) optimum Σ g_i a_i
    long long iterations = 0;
    bool optimal = false;
    std::string message;  // why not optimal
};

// Throws DataError (naming `owner`) when the solver fails; stops at max_iter with
// optimal = false and the last basis' (usable, finite) coefficients.
L1LinearFit solve_l1_linear_lp(const L1LinearLp& problem, long long max_iter, const std::string& owner);

}  // namespace kestrel
