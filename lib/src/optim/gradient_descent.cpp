#include "kestrel/optim/gradient_descent.hpp"

#include <cmath>
#include <limits>

#include "kestrel/core/interrupt.hpp"
#include "kestrel/core/number_text.hpp"

namespace kestrel {

double largest_hessian_eigenvalue(Objective& f, const Vector& w, int iterations) {
    if (!f.has_hessian_vector()) return 0;
    Vector g;
    f.value_gradient(w, g);
    Vector v = Vector::Ones(f.dimension()).normalized(), hv;
    double lambda = 0;
    for (int k = 0; k < iterations; ++k) {
        f.hessian_vector(v, hv);
        const double norm = hv.norm();
        if (!(norm > 0)) return lambda;
        lambda = v.dot(hv);
        v = hv / norm;
    }
    // The Rayleigh quotient approaches from below: a margin keeps 1/L a safe step.
    return lambda * 1.01;
}

SolverResult minimize_gradient_descent(Objective& f, const Vector& w0, const SolverOptions& opts, StepRule rule,
                                       double step) {
    SolverResult r;
    r.w = w0;
    if (!(step > 0)) {
        const double L = largest_hessian_eigenvalue(f, w0);
        step = L > 0 ? 1.0 / L : 1.0;
    }
    Vector g;
    double fw = f.value_gradient(r.w, g);
    r.initial_grad_norm = g.norm();
    const double target = opts.tol * std::max(1.0, r.initial_grad_norm);
    constexpr double kArmijo = 1e-4;
    // bold and linesearch judge steps by f, which stops resolving decreases once the
    // gradient is near rounding level: they then stop, converged when the gradient is
    // within √ε of zero (relative, as minimize_lbfgs).
    const double rounding = std::sqrt(std::numeric_limits<double>::epsilon()) * std::max(1.0, r.initial_grad_norm);
    const double smallest_step = step * 1e-12;
    auto stalled = [&](const char* why) {
        r.grad_norm = g.norm();
        r.converged = r.grad_norm <= rounding;
        if (!r.converged)
            r.message = std::string("gradient descent stalled: ") + why + " (gradient norm " +
                        format_number(r.grad_norm) + ")";
    };
    bool stop = false;
    double decrease = std::numeric_limits<double>::infinity();  // f before − f after the last step
    while (true) {
        interruption_point();
        r.grad_norm = g.norm();
        const bool at_rounding =
            r.grad_norm <= rounding && decrease <= 8 * std::numeric_limits<double>::epsilon() * std::abs(fw);
        if (r.grad_norm <= target || at_rounding) {
            r.converged = true;
            break;
        }
        if (r.iterations >= opts.max_iter) {
            r.message = "gradient descent reached max_iter=" + std::to_string(opts.max_iter) +
                        " iterations (gradient norm " + format_number(r.grad_norm) + ")";
            break;
        }
        ++r.iterations;
        const double g2 = g.squaredNorm();
        const double f_before = fw;
        switch (rule) {
            case StepRule::fixed:
                r.w -= step * g;
                fw = f.value_gradient(r.w, g);
                break;
            case StepRule::bold: {
                const Vector trial = r.w - step * g;
                const double ft = f.value(trial);
                // Ties are kept: near the optimum f stops changing at rounding level, and a
                // strict test would halve t forever there.
                if (ft <= fw) {
                    r.w = trial;
                    fw = f.value_gradient(r.w, g);
                    step *= 1.1;
                } else {
                    step *= 0.5;
                    if (step < smallest_step) {
                        stalled("no step lowers f");
                        stop = true;
                    }
                }
                break;
            }
            case StepRule::linesearch: {
                double t = 2 * step;
                Vector trial = r.w - t * g;
                int k = 0;
                // 60 halvings take any finite t below rounding: the loop always ends.
                for (; k < 60 && !(f.value(trial) <= fw - kArmijo * t * g2); ++k) {
                    t *= 0.5;
                    trial = r.w - t * g;
                }
                if (k == 60) {
                    stalled("the line search finds no sufficient decrease");
                    stop = true;
                    break;
                }
                step = t;
                r.w = trial;
                fw = f.value_gradient(r.w, g);
                break;
            }
        }
        if (stop) break;
        decrease = f_before - fw;
        if (!std::isfinite(fw)) {
            r.message = "gradient descent diverged (the step is too large for this problem)";
            break;
        }
    }
    r.value = fw;
    return r;
}

}  // namespace kestrel
