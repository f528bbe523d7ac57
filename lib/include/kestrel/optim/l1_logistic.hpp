#pragma once
// L1-regularised binary logistic regression (`logistic penalty=l1`, LIBLINEAR -s 6's
// objective and solver): newGLMNET (Yuan, Ho & Lin, "An improved GLMNET for
// L1-regularized logistic regression", JMLR 2012), a Newton method whose direction
// minimises the loss's quadratic model plus the L1 term by coordinate descent with
// shrinking, followed by an Armijo line search on the non-smooth objective:
//   min_{w,b}  ‖w‖₁ + Σ_i cost_i log(1 + exp(−y_i (wᵀx_i + b)))
// The intercept b is not penalised (absent without fit_intercept).
#include <cstdint>

#include "kestrel/core/dataset.hpp"
#include "kestrel/optim/feature_columns.hpp"

namespace kestrel {

struct L1LogisticOptions {
    double tol = 1e-4;    // stop when Σ_j violation_j ≤ tol · (that sum at w = 0)
    int max_iter = 1000;  // Newton (outer) iterations
    bool fit_intercept = true;
    std::uint64_t seed = 1;  // the coordinate order of each coordinate-descent cycle
    int threads = 1;         // row- and column-wise passes; the result does not depend on it
};

struct L1LogisticResult {
    Vector w;      // d weights
    double b = 0;  // intercept
    double objective = 0;
    int iterations = 0;  // Newton iterations taken
    bool converged = false;
};

// y: +1 / −1 per row; cost: per-row loss weight (C · class weight · sample weight).
// The solver works on X's columns: the first form copies them out of X; the second takes
// them ready (FeatureColumns(std::move(X)) holds the data once).
L1LogisticResult solve_l1_logistic(const Features& X, const Vector& y, const Vector& cost,
                                   const L1LogisticOptions& options);
L1LogisticResult solve_l1_logistic(const FeatureColumns& X, const Vector& y, const Vector& cost,
                                   const L1LogisticOptions& options);

// The minimum-norm subgradient of the objective at (w, b), one entry per weight then the
// intercept's plain derivative (0 when !fit_intercept): zero exactly at the optimum.
Vector l1_logistic_violations(const Features& X, const Vector& y, const Vector& cost, const Vector& w, double b,
                              bool fit_intercept);

}  // namespace kestrel
