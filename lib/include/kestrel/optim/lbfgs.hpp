#pragma once
// L-BFGS over an Objective, on top of LBFGS++ (kept out of the public headers).
#include "kestrel/optim/objective.hpp"

namespace kestrel {

// Minimises f from w0. Never throws for numerical trouble: when the line search
// fails (LBFGS++ throws when no step decreases f, which happens at the optimum once
// the gradient is at rounding level) the best point seen is returned, and counted as
// converged when its gradient is within rounding of zero (see lbfgs.cpp).
// Iterations beyond opts.max_iter give converged = false with a message.
SolverResult minimize_lbfgs(Objective& f, const Vector& w0, const SolverOptions& opts);

}  // namespace kestrel
