#pragma once
// Crammer-Singer multiclass linear SVM (`linear_svm multiclass=crammer_singer`, LIBLINEAR
// -s 4), solved in the dual one row at a time as LIBLINEAR's Solver_MCSVM_CS (Keerthi,
// Sundararajan, Chang, Hsieh, Lin, KDD 2008), with its per-row shrinking of classes.
//
// Primal, with x̂_i = [x_i; B] when bias B > 0 (the bias weights penalised, as LIBLINEAR's -B):
//   min_W  ½ Σ_m ‖ŵ_m‖² + Σ_i C_i max_m (e_im + ŵ_mᵀx̂_i − ŵ_{y_i}ᵀx̂_i),   e_im = [m ≠ y_i]
// Dual:
//   min_α  ½ Σ_m ‖Σ_i α_im x̂_i‖² + Σ_i Σ_m e_im α_im,
//   α_im ≤ C_i [m = y_i],  Σ_m α_im = 0,   ŵ_m = Σ_i α_im x̂_i.
#include <cstdint>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

struct CrammerSingerOptions {
    double eps = 0.1;        // stop when max over rows of (max G − min G) < eps (LIBLINEAR's rule)
    int max_iter = 1000;     // passes over the rows
    double bias = 0;         // B > 0: an extra constant feature
    std::uint64_t seed = 1;  // row order of each pass
};

struct CrammerSingerResult {
    Eigen::MatrixXd W;          // (d [+1 bias row]) x k, column m = class m
    double dual_objective = 0;  // LIBLINEAR's printed "Objective value"
    int iterations = 0;
    bool converged = false;
};

// y: class index 0..k−1 per row; cost: C_i ≥ 0.
CrammerSingerResult solve_crammer_singer(const Features& X, const Vector& y, Index k, const Vector& cost,
                                         const CrammerSingerOptions& o);

// The primal objective above at W (as returned by solve_crammer_singer).
double crammer_singer_primal(const Features& X, const Vector& y, const Vector& cost, const Eigen::MatrixXd& W,
                             double bias);

}  // namespace kestrel
