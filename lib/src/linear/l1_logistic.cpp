#include "kestrel/linear/l1_logistic.hpp"

#include <cmath>
#include <numeric>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/linear/feature_columns.hpp"
#include "kestrel/linear/logistic_objective.hpp"

namespace kestrel {
namespace {

class Solver {
public:
    Solver(const Features& X, const Vector& y, const Vector& cost, const L1LogisticOptions& o)
        : y_(y), cost_(cost), o_(o), n_(X.rows()), d_(X.cols()), columns_(X) {
        w_ = Vector::Zero(d_);
        z_ = Vector::Zero(n_);  // y_i (wᵀx_i + b)
    }

    L1LogisticResult run() {
        L1LogisticResult r;
        std::vector<Index> order(static_cast<std::size_t>(d_));
        std::iota(order.begin(), order.end(), Index{0});
        Rng rng(o_.seed);
        double initial = -1;
        while (r.iterations < o_.max_iter) {
            rng.shuffle(order);
            double total = 0;
            if (o_.fit_intercept) total += update(-1);
            for (Index j : order) total += update(j);
            if (initial < 0) initial = total;
            ++r.iterations;
            if (total <= o_.tol * initial) {
                r.converged = true;
                break;
            }
        }
        r.w = w_;
        r.b = b_;
        r.objective = objective_at(z_) + w_.lpNorm<1>();
        return r;
    }

private:
    double objective_at(const Vector& z) const {
        double f = 0;
        for (Index i = 0; i < n_; ++i) f += cost_[i] * log1p_exp(-z[i]);
        return f;
    }

    template <class F>
    void column(Index j, F&& f) const {
        if (j < 0) {
            for (Index i = 0; i < n_; ++i) f(i, 1.0);  // the intercept's column of ones
        } else {
            columns_.for_each(j, f);
        }
    }

    // One Newton step on coordinate j (−1: the intercept) with backtracking on the exact
    // objective; returns the coordinate's violation before the step.
    double update(Index j) {
        double g = 0, h = 0;
        column(j, [&](Index i, double x) {
            const double p = sigmoid(-z_[i]);  // probability of the wrong class
            g -= cost_[i] * y_[i] * p * x;
            h += cost_[i] * p * (1 - p) * x * x;
        });
        const bool penalised = j >= 0;
        const double wj = penalised ? w_[j] : b_;
        const double v = penalised ? l1_violation(g, wj) : std::abs(g);
        if (v == 0) return 0;
        h = std::max(h, 1e-12);
        double step;
        if (!penalised)
            step = -g / h;
        else if (g + 1 <= h * wj)
            step = -(g + 1) / h;
        else if (g - 1 >= h * wj)
            step = -(g - 1) / h;
        else
            step = -wj;
        if (step == 0) return v;
        // Armijo on F(w + t·step) − F(w) ≤ σ t Δ, Δ = g·step + |w_j + step| − |w_j| (CDN).
        const double delta = g * step + (penalised ? std::abs(wj + step) - std::abs(wj) : 0.0);
        constexpr double sigma = 0.01;
        double t = 1;
        std::vector<std::pair<Index, double>> entries;
        column(j, [&](Index i, double x) { entries.emplace_back(i, y_[i] * x); });
        double loss_before = 0;
        for (const auto& [i, yx] : entries) loss_before += cost_[i] * log1p_exp(-z_[i]);
        for (int k = 0; k < 30; ++k, t *= 0.5) {
            const double s = t * step;
            double loss_after = 0;
            for (const auto& [i, yx] : entries) loss_after += cost_[i] * log1p_exp(-(z_[i] + s * yx));
            const double change =
                loss_after - loss_before + (penalised ? std::abs(wj + s) - std::abs(wj) : 0.0);
            if (change <= sigma * t * delta) {
                for (const auto& [i, yx] : entries) z_[i] += s * yx;
                (penalised ? w_[j] : b_) = wj + s;
                return v;
            }
        }
        return v;  // no acceptable step: the coordinate stays (it is at rounding level)
    }

    const Vector& y_;
    const Vector& cost_;
    const L1LogisticOptions& o_;
    Index n_, d_;
    FeatureColumns columns_;
    Vector w_, z_;
    double b_ = 0;
};

}  // namespace

L1LogisticResult solve_l1_logistic(const Features& X, const Vector& y, const Vector& cost,
                                   const L1LogisticOptions& options) {
    if (y.size() != X.rows() || cost.size() != X.rows())
        throw InternalError("solve_l1_logistic: y, cost and X disagree on the number of rows");
    return Solver(X, y, cost, options).run();
}

Vector l1_logistic_violations(const Features& X, const Vector& y, const Vector& cost, const Vector& w, double b,
                              bool fit_intercept) {
    Vector z = X.multiply(w);
    z.array() += b;
    Vector dz(z.size());
    for (Index i = 0; i < z.size(); ++i) dz[i] = -cost[i] * y[i] * sigmoid(-y[i] * z[i]);
    const Vector g = X.transpose_multiply(dz);
    Vector v(w.size() + 1);
    for (Index j = 0; j < w.size(); ++j) v[j] = l1_violation(g[j], w[j]);
    v[w.size()] = fit_intercept ? std::abs(dz.sum()) : 0.0;
    return v;
}

}  // namespace kestrel
