#pragma once
// L-BFGS-B: L-BFGS with bounds on the variables, over an Objective, on top of LBFGS++'s
// LBFGSBSolver (kept out of the public headers).
#include "kestrel/optim/objective.hpp"

namespace kestrel {

struct BoundedSolverOptions {
    double tol = 1e-5;  // absolute: stop when max_j |projected gradient_j| <= tol (scipy's pgtol)
    int max_iter = 100;
    int memory = 10;  // correction pairs (scipy's maxcor)
};

// Minimises f over lower <= x <= upper (±infinity for no bound) from x0 (projected into
// the box). Stops at the projected-gradient test, or when f changes relatively by less
// than ten machine epsilons in an iteration (scipy's factr = 10: f has stopped moving),
// or at max_iter (converged = false). A failing line search returns the best point seen,
// converged when its projected gradient is within rounding of zero. `grad_norm` in the
// result is the largest entry of the projected gradient. Never throws for numerical trouble.
SolverResult minimize_lbfgsb(Objective& f, const Vector& x0, const Vector& lower, const Vector& upper,
                             const BoundedSolverOptions& opts);

// max_j |P(x - g) - x|_j, the projected gradient's largest entry (the stopping measure).
double projected_gradient_norm(const Vector& x, const Vector& grad, const Vector& lower, const Vector& upper);

}  // namespace kestrel
