#include "kestrel/optim/ridge_sgd.hpp"

#include <cmath>
#include <numeric>
#include <vector>

#include "kestrel/common/row_access.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {
namespace {

double objective(const Features& X, const Vector& s, const Vector& yc, const Vector& x_mean, double lambda,
                 const Vector& w) {
    Vector r = yc - X.multiply(w);
    r.array() += x_mean.dot(w);
    return 0.5 * s.dot(r.cwiseProduct(r)) / s.sum() + 0.5 * lambda * w.squaredNorm();
}

// w = a·v + β·x̄: the shrinkage (1 − ηλ) of every step scales a, the x̄ part of each
// centred row x̃_i = x_i − x̄ goes to β, and only v's entries on the row's non-zeros
// change. The sum of the iterates is kept as Σ_k a_k v_k = u + A·v (A = Σ a_k since
// the last fold) and B = Σ β_k, so that averaging costs no more than a step.
template <class Rows>
class Sgd {
public:
    Sgd(const Rows& rows, Index d, bool average)
        : rows_(rows), v_(Vector::Zero(d)), u_(Vector::Zero(d)), average_(average) {}

    // The centred row's dot product with w, given q_i = x_iᵀx̄ and ||x̄||².
    double predict(Index i, double q_i, double xbar2) const {
        return a_ * (rows_.dot(i, v_.data()) - m_) + beta_ * (q_i - xbar2);
    }

    // w ← (1 − ηλ) w − η g x̃_i
    void step(Index i, double eta, double lambda, double g, double q_i) {
        const double shrink = 1 - eta * lambda;
        a_ *= shrink;
        beta_ = beta_ * shrink + eta * g;
        if (g != 0) {
            const double c = -eta * g / a_;
            rows_.axpy(i, c, v_.data());
            m_ += c * q_i;
            if (average_) rows_.axpy(i, -sum_a_ * c, u_.data());
        }
        if (average_) {
            sum_a_ += a_;
            sum_beta_ += beta_;
            ++count_;
        }
        if (a_ < 1e-9) fold();
    }

    // Back to a = 1 (before a underflows; and at each epoch's end).
    void fold() {
        if (average_) u_ += sum_a_ * v_;
        sum_a_ = 0;
        v_ *= a_;
        m_ *= a_;
        a_ = 1;
    }

    Vector weights(const Vector& x_mean) const {
        if (!average_ || count_ == 0) return a_ * v_ + beta_ * x_mean;
        return (u_ + sum_a_ * v_ + sum_beta_ * x_mean) / static_cast<double>(count_);
    }

private:
    const Rows& rows_;
    Vector v_, u_;
    double a_ = 1, beta_ = 0, m_ = 0;  // m = x̄ᵀv
    double sum_a_ = 0, sum_beta_ = 0;
    std::uint64_t count_ = 0;
    bool average_;
};

}  // namespace

RidgeSgdResult ridge_sgd(const Features& X, const Vector& s, const Vector& yc, const Vector& x_mean, double alpha,
                         const RidgeSgdOptions& opts) {
    const Index n = X.rows(), d = X.cols();
    const double S = s.sum();
    const double lambda = alpha / S;
    const Vector q = X.multiply(x_mean);
    const double xbar2 = x_mean.squaredNorm();
    // Sample i, drawn uniformly, stands for the whole sum with weight c_i = n s_i / S.
    const Vector c = s * (static_cast<double>(n) / S);

    SparseMatrix scratch;
    return rows::visit(X, scratch, [&](const auto& rows) {
        RidgeSgdResult res;
        double lmax = 0;  // the largest per-sample curvature c_i ||x̃_i||²
        for (Index i = 0; i < n; ++i)
            lmax = std::max(lmax, c[i] * std::max(0.0, rows.squared_norm(i) - 2 * q[i] + xbar2));
        res.w = Vector::Zero(d);
        res.objective = objective(X, s, yc, x_mean, lambda, res.w);
        if (lmax == 0) {  // every centred row is zero: w = 0 is the minimiser
            res.converged = true;
            return res;
        }
        const double eta0 = opts.eta0 > 0 ? opts.eta0 : 1 / (lmax + lambda);
        if (eta0 * lambda >= 1)
            throw ParamError("ridge: eta0=" + format_number(eta0) + " is too large for alpha=" + format_number(alpha) +
                             ": eta0 * alpha / (sum of weights) must be below 1");

        Sgd<std::decay_t<decltype(rows)>> sgd(rows, d, opts.average);
        std::vector<Index> order(static_cast<std::size_t>(n));
        std::iota(order.begin(), order.end(), Index{0});
        Rng rng(opts.seed);
        double best = res.objective;
        int stalled = 0;
        std::uint64_t t = 0;
        for (int epoch = 1; epoch <= opts.max_iter; ++epoch) {
            interruption_point();
            rng.shuffle(order);
            for (const Index i : order) {
                const double eta = eta0 / std::sqrt(1 + static_cast<double>(t++) / static_cast<double>(n));
                const double g = c[i] * (sgd.predict(i, q[i], xbar2) - yc[i]);
                sgd.step(i, eta, lambda, g, q[i]);
            }
            sgd.fold();
            res.w = sgd.weights(x_mean);
            res.epochs = epoch;
            const double f = objective(X, s, yc, x_mean, lambda, res.w);
            if (!std::isfinite(f) || !res.w.allFinite())
                throw ParamError("ridge: sgd diverged with eta0=" + format_number(eta0) +
                                 " (leave eta0 at auto, or scale the features)");
            res.objective = f;
            // scikit-learn's SGD rule, relative: n_iter_no_change epochs without an
            // improvement of tol·F on the best objective so far.
            stalled = f > best - opts.tol * best ? stalled + 1 : 0;
            best = std::min(best, f);
            if (stalled >= opts.n_iter_no_change) {
                res.converged = true;
                break;
            }
        }
        return res;
    });
}

}  // namespace kestrel
