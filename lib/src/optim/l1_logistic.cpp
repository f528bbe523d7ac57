#include "kestrel/optim/l1_logistic.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <span>
#include <vector>

#include "kestrel/common/logistic_math.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/optim/feature_columns.hpp"

namespace kestrel {
namespace {

constexpr Index kRowBlock = 8192;  // row-wise sums go by fixed blocks: the same at any thread count
constexpr double kNu = 1e-12;       // added to each Hessian diagonal so that no step divides by 0
constexpr double kArmijoFraction = 0.01;  // Armijo's sufficient-decrease fraction
constexpr int kMaxLineSearch = 20;
constexpr int kMaxCycles = 1000;  // coordinate-descent cycles on one quadratic model
constexpr double kMaxStep = 10;   // one coordinate step is clipped to ±10

// newGLMNET (Yuan, Ho & Lin, JMLR 2012), LIBLINEAR -s 6's solver, on
//   F(w) = ‖w_pen‖₁ + L(w),  L(w) = Σ_i cost_i log(1 + exp(−y_i wᵀx̃_i)),
// x̃_i = (x_i, 1) with an intercept (its weight, last, unpenalised). Each Newton iteration
// builds the quadratic model of L at w (gradient, Hessian XᵀDX), minimises model + L1 by
// cyclic coordinate descent over an active set, then backtracks along the direction.
class NewGlmnet {
public:
    NewGlmnet(const FeatureColumns& X, const Vector& y, const Vector& cost, const L1LogisticOptions& o)
        : y_(y),
          cost_(cost),
          o_(o),
          n_(X.rows()),
          d_(X.cols()),
          m_(d_ + (o.fit_intercept ? 1 : 0)),
          blocks_((n_ + kRowBlock - 1) / kRowBlock),
          threads_(std::max(1, o.threads)),
          columns_(X) {
        w_ = Vector::Zero(m_);
        wpd_ = Vector::Zero(m_);
        grad_ = Vector::Zero(m_);
        hdiag_ = Vector::Zero(m_);
        for (Vector* v : {&z_, &loss_, &r_, &D_, &xtd_, &z_trial_, &e_trial_}) *v = Vector::Zero(n_);
        for_rows([&](Index i) { set_row(i, 0.0, 1.0); });
    }

    L1LogisticResult run() {
        L1LogisticResult result;
        std::vector<Index> index(static_cast<std::size_t>(m_));
        std::iota(index.begin(), index.end(), Index{0});
        Rng rng(o_.seed);
        const double n = static_cast<double>(std::max<Index>(n_, 1));
        double gnorm_init = -1, gmax_old = std::numeric_limits<double>::infinity(), inner_eps = 1;
        for (;;) {
            interruption_point();
            gradient();
            // Minimum-norm subgradient; shrink the zero weights well inside (−1, 1) for this
            // iteration (the band narrows by the previous iteration's largest violation / n).
            Index active = m_;
            double gmax = 0, gnorm = 0;
            for (Index s = 0; s < active;) {
                const Index j = index[static_cast<std::size_t>(s)];
                const double g = grad_[j];
                if (penalised(j) && w_[j] == 0 && g > -1 + gmax_old / n && g < 1 - gmax_old / n) {
                    std::swap(index[static_cast<std::size_t>(s)], index[static_cast<std::size_t>(--active)]);
                    continue;
                }
                const double v = penalised(j) ? l1_violation(g, w_[j]) : std::abs(g);
                gmax = std::max(gmax, v);
                gnorm += v;
                ++s;
            }
            if (gnorm_init < 0) gnorm_init = gnorm;
            if (gnorm <= o_.tol * gnorm_init) {
                result.converged = true;
                break;
            }
            if (result.iterations >= o_.max_iter) break;
            const int cycles = minimise_model(index, active, inner_eps * gnorm_init, rng);
            if (!line_search()) {
                // No decrease along a descent direction: rounding level. Converged if close.
                result.converged = gnorm <= 1e-8 * gnorm_init;
                break;
            }
            if (cycles == 1) inner_eps *= 0.25;  // the model was solved at once: ask more of it
            gmax_old = gmax;
            ++result.iterations;
        }
        result.w = w_.head(d_);
        result.b = o_.fit_intercept ? w_[d_] : 0.0;
        result.objective = loss_.sum() + result.w.lpNorm<1>();
        return result;
    }

private:
    bool penalised(Index j) const { return j < d_; }

    // Σ_i x̃_ij a_i (b_i), x̃_ij = 1 for the intercept; dense columns as one vectorised sum
    // (the same at any thread count: the order depends on n only).
    double column_dot(Index j, const Vector& a) const {
        if (j == d_) return a.sum();
        if (const double* x = columns_.dense_column(j))
            return (Eigen::Map<const Eigen::ArrayXd>(x, n_) * a.array()).sum();
        double s = 0;
        columns_.for_each(j, [&](Index i, double v) { s += v * a[i]; });
        return s;
    }
    double column_dot(Index j, const Vector& a, const Vector& b) const {
        if (j == d_) return (a.array() * b.array()).sum();
        if (const double* x = columns_.dense_column(j))
            return (Eigen::Map<const Eigen::ArrayXd>(x, n_) * a.array() * b.array()).sum();
        double s = 0;
        columns_.for_each(j, [&](Index i, double v) { s += v * a[i] * b[i]; });
        return s;
    }
    double column_square_dot(Index j, const Vector& a) const {  // Σ_i x̃_ij² a_i
        if (j == d_) return a.sum();
        if (const double* x = columns_.dense_column(j))
            return (Eigen::Map<const Eigen::ArrayXd>(x, n_).square() * a.array()).sum();
        double s = 0;
        columns_.for_each(j, [&](Index i, double v) { s += v * v * a[i]; });
        return s;
    }
    void column_axpy(Index j, double t, Vector& out) const {  // out += t · x̃_j
        if (j == d_)
            out.array() += t;
        else if (const double* x = columns_.dense_column(j))
            out += t * Eigen::Map<const Vector>(x, n_);
        else
            columns_.for_each(j, [&](Index i, double v) { out[i] += t * v; });
    }

    template <class F>
    void for_rows(F&& f) const {
#pragma omp parallel for schedule(static) num_threads(threads_) if (blocks_ > 1)
        for (Index k = 0; k < blocks_; ++k)
            for (Index i = k * kRowBlock, end = std::min(n_, i + kRowBlock); i < end; ++i) f(i);
    }

    // Row i at margin z_i = y_i wᵀx̃_i, e = exp(−|z_i|): its loss, ∂loss/∂(wᵀx̃_i), and the
    // second derivative D_i.
    void set_row(Index i, double zi, double e) {
        const double c = cost_[i];
        const double p = zi >= 0 ? e / (1 + e) : 1 / (1 + e);  // σ(−z_i): the wrong class's probability
        z_[i] = zi;
        loss_[i] = c * ((zi < 0 ? -zi : 0.0) + std::log1p(e));
        r_[i] = -c * y_[i] * p;
        D_[i] = c * p * (1 - p);
    }

    // ∇L and the Hessian's diagonal, one coordinate per task (each a sequential sum).
    void gradient() {
#pragma omp parallel for schedule(dynamic, 8) num_threads(threads_)
        for (Index j = 0; j < m_; ++j) {
            if (j == d_ || columns_.dense_column(j)) {
                grad_[j] = column_dot(j, r_);
                hdiag_[j] = kNu + column_square_dot(j, D_);
            } else {  // one pass over a sparse column for both
                double g = 0, h = kNu;
                columns_.for_each(j, [&](Index i, double x) {
                    g += r_[i] * x;
                    h += D_[i] * x * x;
                });
                grad_[j] = g;
                hdiag_[j] = h;
            }
        }
    }

    // Cyclic coordinate descent, from w, on  ∇Lᵀδ + ½ δᵀ(XᵀDX + νI)δ + ‖w_pen + δ_pen‖₁  over
    // index[0, active); wpd_ = w + δ, xtd_ = X̃δ. Zero weights inside (−1, 1) by the last
    // cycle's largest violation / n leave the cycle; it stops when the summed violation is
    // under `target`, once over the whole active set. Returns the number of cycles.
    int minimise_model(std::vector<Index>& index, Index active, double target, Rng& rng) {
        wpd_ = w_;
        xtd_.setZero();
        const double n = static_cast<double>(std::max<Index>(n_, 1));
        Index live = active;
        double gmax_old = std::numeric_limits<double>::infinity();
        int cycles = 0;
        while (cycles < kMaxCycles) {
            interruption_point();
            rng.shuffle(std::span<Index>(index.data(), static_cast<std::size_t>(live)));
            double gmax = 0, gnorm = 0;
            for (Index s = 0; s < live;) {
                const Index j = index[static_cast<std::size_t>(s)];
                const double G = grad_[j] + kNu * (wpd_[j] - w_[j]) + column_dot(j, D_, xtd_);
                const double H = hdiag_[j], wj = wpd_[j];
                double v = 0, step = 0;
                if (!penalised(j)) {
                    v = std::abs(G);
                    step = -G / H;
                } else {
                    const double gp = G + 1, gn = G - 1;
                    if (wj == 0 && gp > gmax_old / n && gn < -gmax_old / n) {
                        std::swap(index[static_cast<std::size_t>(s)], index[static_cast<std::size_t>(--live)]);
                        continue;
                    }
                    v = l1_violation(G, wj);
                    // argmin_δ Gδ + ½Hδ² + |wj + δ|
                    if (gp <= H * wj)
                        step = -gp / H;
                    else if (gn >= H * wj)
                        step = -gn / H;
                    else
                        step = -wj;
                }
                ++s;
                gmax = std::max(gmax, v);
                gnorm += v;
                if (std::abs(step) < 1e-12) continue;
                step = std::clamp(step, -kMaxStep, kMaxStep);
                wpd_[j] += step;
                column_axpy(j, step, xtd_);
            }
            ++cycles;
            if (gnorm <= target) {
                if (live == active) break;
                live = active;  // converged on the shrunk set: check the whole active set
                gmax_old = std::numeric_limits<double>::infinity();
                continue;
            }
            gmax_old = gmax;
        }
        return cycles;
    }

    // Armijo backtracking along δ = wpd_ − w_: accept the first t = 1, ½, ¼, ... with
    // F(w + tδ) − F(w) ≤ σ t (∇Lᵀδ + ‖w + δ‖₁ − ‖w‖₁). False if none of 20 halvings decreases
    // F, or if δ is no descent direction (a model minimised from δ = 0 always gives one).
    bool line_search() {
        double delta = 0, wnorm = 0, wnorm_new = 0;
        for (Index j = 0; j < m_; ++j) {
            delta += grad_[j] * (wpd_[j] - w_[j]);
            if (penalised(j)) {
                wnorm += std::abs(w_[j]);
                wnorm_new += std::abs(wpd_[j]);
            }
        }
        delta += wnorm_new - wnorm;
        if (!(delta < 0)) return false;  // no step left (every coordinate at rounding level)
        std::vector<double> partial(static_cast<std::size_t>(blocks_));
        for (int k = 0; k < kMaxLineSearch; ++k) {
#pragma omp parallel for schedule(static) num_threads(threads_) if (blocks_ > 1)
            for (Index b = 0; b < blocks_; ++b) {
                double change = 0;
                for (Index i = b * kRowBlock, end = std::min(n_, i + kRowBlock); i < end; ++i) {
                    const double zi = z_[i] + y_[i] * xtd_[i], e = std::exp(-std::abs(zi));
                    z_trial_[i] = zi;
                    e_trial_[i] = e;
                    change += cost_[i] * ((zi < 0 ? -zi : 0.0) + std::log1p(e)) - loss_[i];
                }
                partial[static_cast<std::size_t>(b)] = change;
            }
            const double change = std::accumulate(partial.begin(), partial.end(), 0.0) + wnorm_new - wnorm;
            if (change <= kArmijoFraction * delta) {
                w_ = wpd_;
                for_rows([&](Index i) { set_row(i, z_trial_[i], e_trial_[i]); });
                return true;
            }
            wnorm_new = 0;
            for (Index j = 0; j < m_; ++j) {
                wpd_[j] = 0.5 * (w_[j] + wpd_[j]);
                if (penalised(j)) wnorm_new += std::abs(wpd_[j]);
            }
            delta *= 0.5;
            xtd_ *= 0.5;
        }
        return false;
    }

    const Vector& y_;
    const Vector& cost_;
    const L1LogisticOptions& o_;
    Index n_, d_, m_, blocks_;
    int threads_;
    const FeatureColumns& columns_;
    Vector w_, wpd_, grad_, hdiag_;                      // per coordinate (intercept last)
    Vector z_, loss_, r_, D_, xtd_, z_trial_, e_trial_;  // per row
};

}  // namespace

L1LogisticResult solve_l1_logistic(const FeatureColumns& X, const Vector& y, const Vector& cost,
                                   const L1LogisticOptions& options) {
    if (y.size() != X.rows() || cost.size() != X.rows())
        throw InternalError("solve_l1_logistic: y, cost and X disagree on the number of rows");
    return NewGlmnet(X, y, cost, options).run();
}

L1LogisticResult solve_l1_logistic(const Features& X, const Vector& y, const Vector& cost,
                                   const L1LogisticOptions& options) {
    if (y.size() != X.rows() || cost.size() != X.rows())  // before the copy
        throw InternalError("solve_l1_logistic: y, cost and X disagree on the number of rows");
    return solve_l1_logistic(FeatureColumns(X), y, cost, options);
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
