#include "kestrel/optim/lbfgs.hpp"

#include <LBFGS.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "kestrel/core/error.hpp"
#include "kestrel/core/interrupt.hpp"

namespace kestrel {
namespace {

// Every evaluation goes through here so that the best point seen survives a line
// search that throws half-way (LBFGS++ leaves its x at the last trial point, which
// may be worse than where the iteration started).
struct BestPointTracker {
    explicit BestPointTracker(Objective& objective) : f(objective) {}
    Objective& f;
    Vector best_w;
    double best_value = std::numeric_limits<double>::infinity();
    double best_grad_norm = std::numeric_limits<double>::infinity();

    double operator()(const Vector& w, Vector& grad) {
        interruption_point();
        const double v = f.value_gradient(w, grad);
        const double g = grad.norm();
        // Near the optimum f stalls at rounding level while the gradient still
        // shrinks: among equal values the smaller gradient is the better point.
        if (std::isfinite(v) && std::isfinite(g) && (v < best_value || (v == best_value && g < best_grad_norm))) {
            best_value = v;
            best_grad_norm = g;
            best_w = w;
        }
        return v;
    }
};

std::string describe(double grad_norm, double target) {
    std::ostringstream out;
    out.precision(3);
    out << "gradient norm " << grad_norm << " above the target " << target;
    return out.str();
}

}  // namespace

SolverResult minimize_lbfgs(Objective& f, const Vector& w0, const SolverOptions& opts) {
    if (w0.size() != f.dimension()) throw InternalError("minimize_lbfgs: starting point has the wrong dimension");
    SolverResult result;
    BestPointTracker track(f);

    Vector grad(f.dimension());
    const double f0 = track(w0, grad);
    result.w = w0;
    result.value = f0;
    result.initial_grad_norm = grad.norm();
    result.grad_norm = result.initial_grad_norm;
    if (!std::isfinite(f0) || !std::isfinite(result.initial_grad_norm)) {
        result.message = "the objective is not finite at the starting point";
        return result;
    }

    const double scale =
        std::max(1.0, opts.reference_grad_norm > 0 ? opts.reference_grad_norm : result.initial_grad_norm);
    const double target = opts.tol * scale;
    // Below this the line search cannot find a decrease any more: f changes by less than
    // its rounding error. A failure there is the optimum reached, not a failure.
    const double rounding_floor = std::sqrt(std::numeric_limits<double>::epsilon()) * scale;

    LBFGSpp::LBFGSParam<double> param;
    param.m = std::max(1, opts.memory);
    param.epsilon = target;
    param.epsilon_rel = 0;
    param.max_iterations = std::max(1, opts.max_iter);
    // Wolfe (not only Armijo) steps keep every correction pair curvature-positive.
    param.linesearch = LBFGSpp::LBFGS_LINESEARCH_BACKTRACKING_WOLFE;
    param.max_linesearch = 40;
    LBFGSpp::LBFGSSolver<double, LBFGSpp::LineSearchBacktracking> solver(param);

    Vector w = w0;
    double value = f0;
    std::string stopped_by;
    int iterations = -1;
    try {
        iterations = solver.minimize(track, w, value);
    } catch (const Error&) {
        throw;  // the objective's own errors are not numerical trouble
    } catch (const std::exception& e) {
        stopped_by = e.what();
    }

    result.iterations = iterations;
    if (stopped_by.empty()) {
        // LBFGS++ returns its last iterate, whose gradient decided the stop.
        result.w = w;
        result.value = f.value_gradient(w, grad);
        result.grad_norm = grad.norm();
        result.converged = result.grad_norm <= target;
        if (!result.converged)
            result.message = "L-BFGS reached max_iter=" + std::to_string(param.max_iterations) + " iterations with " +
                             describe(result.grad_norm, target);
    } else {
        result.w = track.best_w;
        result.value = track.best_value;
        result.grad_norm = track.best_grad_norm;
        result.converged = result.grad_norm <= std::max(target, rounding_floor);
        if (!result.converged)
            result.message =
                "L-BFGS line search stopped (" + stopped_by + ") with " + describe(result.grad_norm, target);
    }
    return result;
}

}  // namespace kestrel
