#include "kestrel/optim/lbfgsb.hpp"

#include <LBFGSB.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kestrel/core/error.hpp"
#include "kestrel/core/interrupt.hpp"

namespace kestrel {
namespace {

// Every evaluation goes through here so that the best point seen survives a line
// search that throws half-way.
struct BoundedBestPointTracker {
    BoundedBestPointTracker(Objective& objective, const Vector& lo, const Vector& hi) : f(objective), lower(lo), upper(hi) {}
    Objective& f;
    const Vector& lower;
    const Vector& upper;
    Vector best_x;
    double best_value = std::numeric_limits<double>::infinity();
    double best_pg = std::numeric_limits<double>::infinity();

    double operator()(const Vector& x, Vector& grad) {
        interruption_point();
        const double v = f.value_gradient(x, grad);
        const double pg = projected_gradient_norm(x, grad, lower, upper);
        if (std::isfinite(v) && std::isfinite(pg) && (v < best_value || (v == best_value && pg < best_pg))) {
            best_value = v;
            best_pg = pg;
            best_x = x;
        }
        return v;
    }
};

}  // namespace

double projected_gradient_norm(const Vector& x, const Vector& grad, const Vector& lower, const Vector& upper) {
    if (x.size() == 0) return 0.0;
    return ((x - grad).cwiseMax(lower).cwiseMin(upper) - x).cwiseAbs().maxCoeff();
}

SolverResult minimize_lbfgsb(Objective& f, const Vector& x0, const Vector& lower, const Vector& upper,
                             const BoundedSolverOptions& opts) {
    const Index n = f.dimension();
    if (x0.size() != n || lower.size() != n || upper.size() != n)
        throw InternalError("minimize_lbfgsb: starting point or bounds of the wrong dimension");
    SolverResult result;
    BoundedBestPointTracker track(f, lower, upper);

    Vector x = x0.cwiseMax(lower).cwiseMin(upper);
    Vector grad(n);
    const double f0 = track(x, grad);
    result.w = x;
    result.value = f0;
    result.initial_grad_norm = projected_gradient_norm(x, grad, lower, upper);
    result.grad_norm = result.initial_grad_norm;
    if (!std::isfinite(f0) || !std::isfinite(result.initial_grad_norm)) {
        result.message = "the objective is not finite at the starting point";
        return result;
    }
    // Below this a line search cannot find a decrease any more (f changes by less than
    // its rounding error): a failure there is the optimum reached.
    const double rounding_floor =
        std::sqrt(std::numeric_limits<double>::epsilon()) * std::max(1.0, result.initial_grad_norm);

    LBFGSpp::LBFGSBParam<double> param;
    param.m = std::max(1, opts.memory);
    param.epsilon = opts.tol;
    param.epsilon_rel = 0;
    param.past = 1;
    param.delta = 10 * std::numeric_limits<double>::epsilon();
    param.max_iterations = std::max(1, opts.max_iter);
    param.max_linesearch = 20;  // scipy's maxls
    LBFGSpp::LBFGSBSolver<double> solver(param);

    double value = f0;
    int iterations = 0;
    bool line_search_failed = false;
    std::string why;
    try {
        iterations = solver.minimize(track, x, value, lower, upper);
    } catch (const Error&) {
        throw;  // the objective's own errors are not numerical trouble
    } catch (const std::exception& e) {
        line_search_failed = true;
        why = e.what();
    }

    result.iterations = iterations;
    if (!line_search_failed) {
        result.w = x;
        result.value = f.value_gradient(x, grad);
        result.grad_norm = projected_gradient_norm(x, grad, lower, upper);
        result.converged = result.grad_norm <= opts.tol || iterations < param.max_iterations;
        if (!result.converged)
            result.message = "L-BFGS-B reached max_iter=" + std::to_string(param.max_iterations) + " iterations";
    } else {
        result.w = track.best_x;
        result.value = track.best_value;
        result.grad_norm = track.best_pg;
        result.converged = result.grad_norm <= std::max(opts.tol, rounding_floor);
        if (!result.converged) result.message = "L-BFGS-B line search stopped (" + why + ")";
    }
    return result;
}

}  // namespace kestrel
