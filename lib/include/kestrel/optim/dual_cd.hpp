#pragma once
// Dual coordinate descent for L2-regularised hinge and squared-hinge losses
// (Hsieh, Chang, Lin, Keerthi, Sundararajan, "A dual coordinate descent method for
// large-scale linear SVM", ICML 2008): LIBLINEAR's -s 3 and -s 1 solver, with its
// shrinking and its stopping rule, on dense or sparse rows.
//
// The primal  min_w ½‖w‖² + Σ_i U_i ℓ(y_i wᵀx_i)  has the dual
//   min_α  ½ αᵀ(Q + D)α − Σ_i α_i,   0 ≤ α_i ≤ U_i,   Q_ij = y_i y_j x_iᵀx_j,
// hinge: U_i = C_i, D = 0; squared hinge: U_i = ∞, D_ii = 1 / (2 C_i), and w = Σ α_i y_i x_i.
// A row with C_i = 0 has no loss and keeps α_i = 0.
#include <cstdint>
#include <string>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

enum class SvmLoss { hinge, squared_hinge };

struct DualCdProblem {
    const Features& X;
    Vector y;          // +1 / -1
    Vector cost;       // C_i >= 0 (C · class weight · sample weight)
    SvmLoss loss = SvmLoss::squared_hinge;
    double bias = 0;   // > 0: LIBLINEAR's -B, an extra feature of this value (its weight is penalised)
};

struct DualCdOptions {
    double eps = 0.1;   // stop when max PG − min PG ≤ eps over a pass of all rows (LIBLINEAR's rule)
    int max_iter = 1000;  // passes (outer iterations), as LIBLINEAR's fixed 1000
    std::uint64_t seed = 1;  // random permutation of the rows per pass
};

struct DualCdResult {
    Vector w;            // d weights, then the bias weight when problem.bias > 0
    Vector alpha;        // dual variables, one per row
    double dual_objective = 0;  // ½ αᵀ(Q + D)α − Σα at the returned α (LIBLINEAR's "Objective value")
    int iterations = 0;
    bool converged = false;
};

DualCdResult solve_dual_cd(const DualCdProblem& problem, const DualCdOptions& options);

// ½‖w‖² + Σ_i C_i ℓ(y_i (x_iᵀw[0:d] + bias · w[d])), w as returned by solve_dual_cd.
double svm_primal_objective(const DualCdProblem& problem, const Vector& w);

// The dual gradient G_i = y_i wᵀx_i − 1 + D_ii α_i at (w, α), for optimality checks.
Vector svm_dual_gradient(const DualCdProblem& problem, const DualCdResult& result);

// ---- support vector regression (LIBLINEAR -s 12 / -s 13) ----------------------------
//
// The primal  min_w ½‖w‖² + Σ_i C_i ℓ(y_i − wᵀx_i),  ℓ(r) = max(0, |r| − p) (-s 13) or its
// square (-s 12), has the dual over β_i = α⁺_i − α⁻_i
//   min_β  ½ βᵀ(XXᵀ + Λ)β − Σ_i y_i β_i + p Σ_i |β_i|,   −U_i ≤ β_i ≤ U_i,   w = Σ_i β_i x_i,
// L1 loss: U_i = C_i, Λ = 0; L2 loss: U_i = ∞, Λ_ii = 1 / (2 C_i). Solved one β_i at a time
// with LIBLINEAR's Newton step on the piecewise quadratic, its shrinking, and its stopping
// rule: Σ_i violation_i ≤ eps · (that sum at the first pass).
struct SvrDualProblem {
    const Features& X;
    Vector y;       // targets
    Vector cost;    // C_i >= 0
    double epsilon = 0.1;  // p, the insensitive zone's half width
    SvmLoss loss = SvmLoss::squared_hinge;  // hinge = L1 (-s 13), squared_hinge = L2 (-s 12)
    double bias = 0;
};

// result.alpha holds β; dual_objective is LIBLINEAR's printed "Objective value".
DualCdResult solve_svr_dual_cd(const SvrDualProblem& problem, const DualCdOptions& options);

// ½‖w‖² + Σ_i C_i ℓ(y_i − x_iᵀw[0:d] − bias · w[d]).
double svr_primal_objective(const SvrDualProblem& problem, const Vector& w);

}  // namespace kestrel
