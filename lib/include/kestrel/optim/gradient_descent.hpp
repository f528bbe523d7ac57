#pragma once
// Plain gradient descent over an Objective, with three step rules:
//   fixed       w ← w − t∇f, t constant
//   bold        the bold driver (Battiti 1989; Vogl et al. 1988): a step that does not
//               raise f is kept and t grows by 10 %; one that raises it is undone and t halves
//   linesearch  backtracking (Armijo, c = 1e-4) from twice the last accepted step
// Same stopping rule as every solver (objective.hpp): ||∇f|| ≤ tol · max(1, ||∇f(w₀)||).
#include "kestrel/optim/objective.hpp"

namespace kestrel {

enum class StepRule { fixed, bold, linesearch };

// step: the (initial) step t; <= 0 means 1/L with L the largest eigenvalue of the Hessian
// at w0, by power iteration on hessian_vector (objectives without one get t = 1).
SolverResult minimize_gradient_descent(Objective& f, const Vector& w0, const SolverOptions& opts, StepRule rule,
                                       double step);

// Largest eigenvalue of the Hessian at w (after a value_gradient at w), by power
// iteration from the all-ones vector: deterministic. 0 when it cannot be estimated.
double largest_hessian_eigenvalue(Objective& f, const Vector& w, int iterations = 100);

}  // namespace kestrel
