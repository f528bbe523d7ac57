#pragma once
// A differentiable objective, kept apart from the solvers that minimise it (as
// LIBLINEAR separates its `function` classes from TRON): the same logistic or
// squared-hinge objective can then be handed to L-BFGS, trust-region Newton or any
// later solver, and a solver is tested once for every objective.
#include <string>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

class Objective {
public:
    virtual ~Objective() = default;

    // Length of the parameter vector.
    virtual Index dimension() const = 0;

    // f(w), with `grad` resized and set to the gradient at w. An objective may keep
    // per-point quantities (margins, probabilities) from this call for a following
    // hessian_vector at the same w, which is why it is not const.
    virtual double value_gradient(const Vector& w, Vector& grad) = 0;

    // f(w) alone, for solvers that probe trial points (trust-region steps, backtracking)
    // before they need a gradient. The default calls value_gradient; objectives with a
    // Hessian-vector product override it, cheaper and leaving the Hessian's point alone.
    virtual double value(const Vector& w);

    // Second-order solvers (trust-region Newton, truncated CG) need H(w)·v at the w of
    // the last value_gradient call. Objectives that cannot provide it say so.
    virtual bool has_hessian_vector() const { return false; }
    virtual void hessian_vector(const Vector& v, Vector& out) const;
};

// What every iterative solver takes. The stopping rule is relative, as LIBLINEAR's:
// stop when ||∇f(w)||₂ <= tol · max(1, ||∇f(w₀)||₂), so `tol` means the same thing
// whatever the number of samples or the scale of C.
struct SolverOptions {
    double tol = 1e-4;
    int max_iter = 1000;
    int memory = 10;  // L-BFGS: number of correction pairs kept (scikit-learn's default)
    // > 0: ‖∇f(w₀)‖ of the rule replaced by this norm (a warm start stops where a cold start
    // from 0 would: pass the gradient's norm at 0).
    double reference_grad_norm = 0;
};

// What every iterative solver returns. A solver never warns by itself: the model
// turns a non-converged result into a Context warning naming itself.
struct SolverResult {
    Vector w;              // the best point found (always usable)
    double value = 0;      // f(w)
    double grad_norm = 0;  // ||∇f(w)||₂
    double initial_grad_norm = 0;
    int iterations = 0;
    bool converged = false;
    std::string message;  // why it stopped, when it did not converge
};

}  // namespace kestrel
