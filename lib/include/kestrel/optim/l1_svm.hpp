#pragma once
// L1-regularised squared-hinge SVM (`linear_svm penalty=l1`, LIBLINEAR -s 5) by coordinate
// descent with one-variable Newton directions, a line search on the exact objective and
// shrinking of coordinates that stay at zero (CDN: Yuan, Chang, Hsieh, Lin, "A comparison
// of optimization methods and software for large-scale L1-regularized linear
// classification", JMLR 2010, and LIBLINEAR's solve_l1r_l2_svc):
//   min_ŵ  ‖ŵ‖₁ + Σ_i C_i max(0, 1 − y_i ŵᵀx̂_i)²,   x̂_i = [x_i; B] when bias B > 0
// As LIBLINEAR's -B, the bias is the weight of a constant feature and is L1-penalised too.
#include <cstdint>

#include "kestrel/core/dataset.hpp"
#include "kestrel/optim/feature_columns.hpp"

namespace kestrel {

struct L1SvmOptions {
    double tol = 0.01;       // stop when Σ_j violation_j ≤ tol · (that sum at the first pass)
    int max_iter = 1000;     // passes over the coordinates
    double bias = 0;         // B > 0: an extra constant feature (LIBLINEAR -B)
    std::uint64_t seed = 1;  // the coordinate order of each pass
};

struct L1SvmResult {
    Vector w;              // d weights, then the bias weight when bias > 0
    double objective = 0;  // at w (LIBLINEAR's printed "Objective value")
    int iterations = 0;
    bool converged = false;
};

// y: +1 / −1 per row; cost: C_i ≥ 0. The solver works on X's columns: the first form
// copies them out of X; the second takes them ready (FeatureColumns(std::move(X)) holds
// the data once).
L1SvmResult solve_l1_squared_hinge(const Features& X, const Vector& y, const Vector& cost, const L1SvmOptions& o);
L1SvmResult solve_l1_squared_hinge(const FeatureColumns& X, const Vector& y, const Vector& cost, const L1SvmOptions& o);

// Minimum-norm subgradient of the objective at ŵ, per coordinate: zero exactly at the optimum.
Vector l1_squared_hinge_violations(const Features& X, const Vector& y, const Vector& cost, const Vector& w,
                                   double bias);

}  // namespace kestrel
