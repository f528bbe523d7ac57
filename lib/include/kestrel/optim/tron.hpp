#pragma once
// Trust-region Newton (TRON: Lin & Moré 1999, as LIBLINEAR's tron.cpp; Lin, Weng, Keerthi,
// "Trust region Newton method for large-scale logistic regression", JMLR 2008) over an
// Objective with a Hessian-vector product. Each outer iteration solves the trust-region
// subproblem min_s gᵀs + ½sᵀHs, ‖s‖ ≤ Δ, approximately by conjugate gradient (Steihaug),
// touching H only through hessian_vector: the Hessian is never formed.
//
// Stopping rule, as every kestrel solver: ‖∇f(w)‖ ≤ tol · max(1, ‖∇f(w₀)‖) (objective.hpp),
// unless `relative_only` asks for LIBLINEAR's ‖∇f(w)‖ ≤ tol · ‖∇f(w₀)‖.
#include "kestrel/optim/objective.hpp"

namespace kestrel {

struct TronOptions {
    double tol = 1e-4;
    int max_iter = 1000;  // accepted Newton steps
    double cg_tol = 0.1;  // inner CG stops when ‖residual‖ ≤ cg_tol · ‖g‖ (LIBLINEAR's eps_cg)
    bool relative_only = false;
    // > 0: stand-in for ‖∇f(w₀)‖ in the rule above. A warm start measures against the
    // gradient at w = 0, as LIBLINEAR does, so that it stops where a cold start would.
    double reference_grad_norm = 0;
};

// Minimises f from w0; f must have a Hessian-vector product (else InternalError).
// Never throws for numerical trouble: a step that can no longer decrease f ends the run,
// counted as converged when the gradient is within the target, or within √ε_machine of the
// reference scale (rounding level, as minimize_lbfgs).
SolverResult minimize_tron(Objective& f, const Vector& w0, const TronOptions& opts);

}  // namespace kestrel
