#include "kestrel/optim/l1_svm.hpp"

#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/optim/feature_columns.hpp"

namespace kestrel {
namespace {

class L1SvmSolver {
public:
    L1SvmSolver(const FeatureColumns& X, const Vector& y, const Vector& cost, const L1SvmOptions& o)
        : y_(y), cost_(cost), o_(o), n_(X.rows()), d_(X.cols()), columns_(X) {
        p_ = d_ + (o.bias > 0 ? 1 : 0);
        w_ = Vector::Zero(p_);
        b_ = Vector::Ones(n_);  // 1 − y_i ŵᵀx̂_i
        // Σ_i C_i x_ij²: with it the loss change of a step d is bounded by G d + xsq d²,
        // which accepts most steps without touching the column again.
        xsq_ = Vector::Zero(p_);
        for (Index j = 0; j < p_; ++j) column(j, [&](Index i, double x) { xsq_[j] += cost_[i] * x * x; });
        if (n_ > 0 && (cost_.array() == cost_[0]).all()) uniform_cost_ = cost_[0];
    }

    L1SvmResult run() {
        L1SvmResult r;
        std::vector<Index> index(static_cast<std::size_t>(p_));
        std::iota(index.begin(), index.end(), Index{0});
        Rng rng(o_.seed);
        const auto total = static_cast<std::ptrdiff_t>(p_);
        std::ptrdiff_t active = total;
        double gmax_old = std::numeric_limits<double>::infinity(), gnorm1_init = -1;
        const double l = static_cast<double>(std::max<Index>(n_, 1));
        while (r.iterations < o_.max_iter) {
            interruption_point();
            double gmax = 0, gnorm1 = 0;
            rng.shuffle(std::span<Index>(index.data(), static_cast<std::size_t>(active)));
            for (std::ptrdiff_t s = 0; s < active; ++s) {
                const Index j = index[static_cast<std::size_t>(s)];
                double g = 0, h = 0;
                const auto sums = [&](auto cost_of) {
                    column(j, [&](Index i, double x) {
                        if (b_[i] > 0) {
                            const double cx = cost_of(i) * x;
                            g -= cx * y_[i] * b_[i];
                            h += cx * x;
                        }
                    });
                };
                if (uniform_cost_ > 0) {  // one C for every row: no per-row cost load, C applied once
                    sums([](Index) { return 1.0; });
                    g *= uniform_cost_;
                    h *= uniform_cost_;
                } else {
                    sums([&](Index i) { return cost_[i]; });
                }
                g *= 2;
                h = std::max(2 * h, 1e-12);
                const double wj = w_[j];
                const double gp = g + 1, gn = g - 1;
                double v = 0;
                if (wj == 0) {
                    if (gp < 0)
                        v = -gp;
                    else if (gn > 0)
                        v = gn;
                    else if (gp > gmax_old / l && gn < -gmax_old / l) {
                        // Inside the subgradient by a margin: it stays at zero; shrink it.
                        std::swap(index[static_cast<std::size_t>(s)], index[static_cast<std::size_t>(--active)]);
                        --s;
                        continue;
                    }
                } else {
                    v = wj > 0 ? std::abs(gp) : std::abs(gn);
                }
                gmax = std::max(gmax, v);
                gnorm1 += v;
                double step = gp < h * wj ? -gp / h : (gn > h * wj ? -gn / h : -wj);
                if (std::abs(step) < 1e-12) continue;
                line_search(j, g, step);
            }
            if (r.iterations == 0) gnorm1_init = gnorm1;
            ++r.iterations;
            if (gnorm1 <= o_.tol * gnorm1_init) {
                if (active == total) {
                    r.converged = true;
                    break;
                }
                active = total;  // converged on the shrunk set: one more pass over all
                gmax_old = std::numeric_limits<double>::infinity();
                continue;
            }
            gmax_old = gmax;
        }
        r.w = w_;
        r.objective = w_.lpNorm<1>();
        for (Index i = 0; i < n_; ++i)
            if (b_[i] > 0) r.objective += cost_[i] * b_[i] * b_[i];
        return r;
    }

private:
    template <class F>
    void column(Index j, F&& f) const {
        if (j == d_) {
            for (Index i = 0; i < n_; ++i) f(i, o_.bias);  // the bias feature
        } else {
            columns_.for_each(j, f);
        }
    }

    // Backtracking from the Newton step on the exact objective (Armijo, σ = 0.01), as
    // LIBLINEAR: the cheap upper bound first, the exact loss change only when it fails.
    void line_search(Index j, double g, double step) {
        constexpr double kSigma = 0.01;
        constexpr int kMaxSteps = 20;
        const double wj = w_[j];
        double delta = std::abs(wj + step) - std::abs(wj) + g * step;
        double applied = 0;  // the step b_ currently reflects
        double loss_old = 0;
        bool have_old = false;
        int k = 0;
        for (; k < kMaxSteps; ++k) {
            const double diff = applied - step;  // move b_ from `applied` to `step`
            double cond = std::abs(wj + step) - std::abs(wj) - kSigma * delta;
            if (xsq_[j] * step * step + g * step + cond <= 0) {
                column(j, [&](Index i, double x) { b_[i] += diff * y_[i] * x; });
                applied = step;
                break;
            }
            double loss_new = 0;
            column(j, [&](Index i, double x) {
                if (!have_old && b_[i] > 0) loss_old += cost_[i] * b_[i] * b_[i];
                b_[i] += diff * y_[i] * x;
                if (b_[i] > 0) loss_new += cost_[i] * b_[i] * b_[i];
            });
            have_old = true;
            applied = step;
            if (cond + loss_new - loss_old <= 0) break;
            step *= 0.5;
            delta *= 0.5;
        }
        w_[j] = wj + applied;
        if (k == kMaxSteps) recompute_margins();  // many halvings: refresh b_ from w
    }

    void recompute_margins() {
        b_.setOnes();
        for (Index j = 0; j < p_; ++j)
            if (w_[j] != 0) column(j, [&](Index i, double x) { b_[i] -= w_[j] * y_[i] * x; });
    }

    const Vector& y_;
    const Vector& cost_;
    const L1SvmOptions& o_;
    Index n_, d_, p_ = 0;
    const FeatureColumns& columns_;
    Vector w_, b_, xsq_;
    double uniform_cost_ = 0;  // every row's C when they are all equal, else 0
};

}  // namespace

L1SvmResult solve_l1_squared_hinge(const FeatureColumns& X, const Vector& y, const Vector& cost,
                                   const L1SvmOptions& o) {
    if (y.size() != X.rows() || cost.size() != X.rows())
        throw InternalError("solve_l1_squared_hinge: y, cost and X disagree on the number of rows");
    return L1SvmSolver(X, y, cost, o).run();
}

L1SvmResult solve_l1_squared_hinge(const Features& X, const Vector& y, const Vector& cost, const L1SvmOptions& o) {
    if (y.size() != X.rows() || cost.size() != X.rows())  // before the copy
        throw InternalError("solve_l1_squared_hinge: y, cost and X disagree on the number of rows");
    return solve_l1_squared_hinge(FeatureColumns(X), y, cost, o);
}

Vector l1_squared_hinge_violations(const Features& X, const Vector& y, const Vector& cost, const Vector& w,
                                   double bias) {
    const Index d = X.cols();
    Vector z = X.multiply(Vector(w.head(d)));
    if (bias > 0) z.array() += bias * w[d];
    Vector dz(z.size());
    for (Index i = 0; i < z.size(); ++i) dz[i] = -2.0 * cost[i] * y[i] * std::max(0.0, 1.0 - y[i] * z[i]);
    Vector g(w.size());
    g.head(d) = X.transpose_multiply(dz);
    if (bias > 0) g[d] = bias * dz.sum();
    Vector v(w.size());
    for (Index j = 0; j < w.size(); ++j) v[j] = l1_violation(g[j], w[j]);
    return v;
}

}  // namespace kestrel
