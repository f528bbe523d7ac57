#include "kestrel/optim/tron.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "kestrel/core/error.hpp"
#include "kestrel/core/interrupt.hpp"

namespace kestrel {
namespace {

// Trust-region update constants of Lin & Moré (the values in LIBLINEAR's tron.cpp).
constexpr double kEta0 = 1e-4, kEta1 = 0.25, kEta2 = 0.75;
constexpr double kSigma1 = 0.25, kSigma2 = 0.5, kSigma3 = 4.0;

struct CgResult {
    Vector s;  // the step
    Vector r;  // residual −(g + H s)
    bool reached_boundary = false;
    int iterations = 0;
};

// Steihaug's truncated CG on H s = −g inside ‖s‖ ≤ delta.
CgResult truncated_cg(const Objective& f, const Vector& g, double delta, double cg_tol) {
    const Index n = g.size();
    CgResult out;
    out.s = Vector::Zero(n);
    out.r = -g;
    Vector d = out.r, Hd(n);
    const double stop = cg_tol * g.norm();
    double rr = out.r.squaredNorm();
    // A CG run is at most n steps in exact arithmetic; the cap only guards rounding.
    for (Index k = 0; k < std::max<Index>(n, 1) * 2 && std::sqrt(rr) > stop; ++k) {
        f.hessian_vector(d, Hd);
        const double dHd = d.dot(Hd);
        ++out.iterations;
        double alpha = rr / dHd;
        Vector s_next = out.s + alpha * d;
        if (!(dHd > 0) || s_next.norm() > delta) {
            // Step to the boundary along d: the positive root of ‖s + αd‖ = delta.
            out.reached_boundary = true;
            const double sd = out.s.dot(d), ss = out.s.squaredNorm(), dd = d.squaredNorm();
            const double gap = delta * delta - ss;
            const double rad = std::sqrt(std::max(0.0, sd * sd + dd * gap));
            alpha = sd >= 0 ? gap / (sd + rad) : (rad - sd) / dd;
            out.s += alpha * d;
            out.r -= alpha * Hd;
            break;
        }
        out.s = std::move(s_next);
        out.r -= alpha * Hd;
        const double rr_new = out.r.squaredNorm();
        d = out.r + (rr_new / rr) * d;
        rr = rr_new;
    }
    return out;
}

std::string describe(const char* what, double grad_norm, double target) {
    std::ostringstream out;
    out.precision(3);
    out << what << ": gradient norm " << grad_norm << " above the target " << target;
    return out.str();
}

}  // namespace

SolverResult minimize_tron(Objective& f, const Vector& w0, const TronOptions& opts) {
    if (!f.has_hessian_vector()) throw InternalError("minimize_tron: the objective has no Hessian-vector product");
    if (w0.size() != f.dimension()) throw InternalError("minimize_tron: starting point has the wrong dimension");
    SolverResult result;
    Vector w = w0, g;
    double fw = f.value_gradient(w, g);
    double gnorm = g.norm();
    result.initial_grad_norm = gnorm;
    const double reference = opts.reference_grad_norm > 0 ? opts.reference_grad_norm : gnorm;
    const double target = opts.tol * (opts.relative_only ? reference : std::max(1.0, reference));
    double delta = gnorm;
    bool converged = gnorm <= target;
    int iter = 0;
    const char* stall = nullptr;

    while (!converged && std::isfinite(fw) && iter < opts.max_iter) {
        interruption_point();
        const CgResult cg = truncated_cg(f, g, delta, opts.cg_tol);
        const Vector w_new = w + cg.s;
        const double gs = g.dot(cg.s);
        const double predicted = -0.5 * (gs - cg.s.dot(cg.r));
        // The gradient at the trial point now: rejected steps are rare, and the
        // objective's Hessian then moves with it, so a rejection re-evaluates at w.
        Vector g_new;
        const double f_new = f.value_gradient(w_new, g_new);
        const double actual = fw - f_new;
        const double snorm = cg.s.norm();
        if (iter == 0) delta = std::min(delta, snorm);

        const double curvature = f_new - fw - gs;
        const double alpha = curvature <= 0 ? kSigma3 : std::max(kSigma1, -0.5 * (gs / curvature));
        if (actual < kEta0 * predicted)
            delta = std::min(std::max(alpha, kSigma1) * snorm, kSigma2 * delta);
        else if (actual < kEta1 * predicted)
            delta = std::max(kSigma1 * delta, std::min(alpha * snorm, kSigma2 * delta));
        else if (actual < kEta2 * predicted)
            delta = std::max(kSigma1 * delta, std::min(alpha * snorm, kSigma3 * delta));
        else if (cg.reached_boundary)
            delta = kSigma3 * delta;
        else
            delta = std::max(delta, std::min(alpha * snorm, kSigma3 * delta));

        if (actual > kEta0 * predicted && std::isfinite(f_new)) {
            ++iter;
            w = w_new;
            fw = f_new;
            g = std::move(g_new);
            gnorm = g.norm();
            converged = gnorm <= target;
        } else {
            f.value_gradient(w, g);  // back to w's Hessian for the next CG
        }
        if (converged) break;
        // Progress below rounding: f cannot be decreased further from here.
        if (actual <= 0 && predicted <= 0) {
            stall = "actual and predicted reductions are not positive";
            break;
        }
        if (std::abs(actual) <= 1e-12 * std::abs(fw) && std::abs(predicted) <= 1e-12 * std::abs(fw)) {
            stall = "the reduction is at rounding level";
            break;
        }
        if (delta <= 0) {
            stall = "the trust region collapsed";
            break;
        }
    }
    // Stalled at rounding level with a gradient within √ε of the target's scale: as good as
    // double precision allows (the same rule as minimize_lbfgs).
    if (!converged && stall && gnorm <= std::sqrt(std::numeric_limits<double>::epsilon()) * std::max(1.0, reference))
        converged = true;
    result.w = std::move(w);
    result.value = fw;
    result.grad_norm = gnorm;
    result.iterations = iter;
    result.converged = converged;
    if (!converged)
        result.message =
            stall ? describe((std::string("TRON stopped, ") + stall).c_str(), gnorm, target)
                  : describe(("TRON reached max_iter=" + std::to_string(opts.max_iter) + " iterations").c_str(), gnorm,
                             target);
    return result;
}

}  // namespace kestrel
