#include "kestrel/boosting/losses.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

#include "kestrel/boosting/rank_losses.hpp"
#include "kestrel/common/logistic_math.hpp"
#include "kestrel/common/row_shards.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"

namespace kestrel {
namespace {

// Rows per block of the loss sums: blocks are summed in order, so the total does not
// depend on how many threads computed them.
constexpr Index kBlock = 4096;
// Keeps Newton steps finite where a probability saturates.
constexpr double kMinHessian = 1e-16;
constexpr double kClip = 1e-12;

// Softmax of F[0..K) into p; returns log Σ_c exp(F_c).
double softmax(const double* F, Index K, double* p) {
    double m = F[0];
    for (Index c = 1; c < K; ++c) m = std::max(m, F[c]);
    double s = 0;
    for (Index c = 0; c < K; ++c) s += p[c] = std::exp(F[c] - m);
    for (Index c = 0; c < K; ++c) p[c] /= s;
    return m + std::log(s);
}

template <class RowFn>
double block_sum(Index n, int threads, RowFn&& row_value) {
    const Index blocks = (n + kBlock - 1) / kBlock;
    std::vector<double> partial(static_cast<std::size_t>(blocks), 0.0);
#pragma omp parallel for schedule(static) num_threads(std::max(1, threads)) if (blocks > 2)
    for (Index b = 0; b < blocks; ++b) {
        double s = 0;
        const Index end = std::min(n, (b + 1) * kBlock);
        for (Index i = b * kBlock; i < end; ++i) s += row_value(i);
        partial[static_cast<std::size_t>(b)] = s;
    }
    return std::accumulate(partial.begin(), partial.end(), 0.0);
}

// Loss::gradients of the logistic loss (one raw score): Loss::derivatives' operations in its
// order, without its switch, its per-row output vectors and its loop over outputs, which cost
// as much as exp and log1p together (callgrind: about 120 instructions a row of 230).
double logistic_gradients(const double* F, const Vector& y, const Vector& w, double pos_scale, GradPair* out,
                          int threads) {
    const bool weighted = w.size() > 0;
    return block_sum(y.size(), threads, [&](Index i) {
        const double f = F[i], yi = y[i];
        const double e = std::exp(-std::abs(f));
        const double p = f >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
        const double g = p - yi;
        const double h = std::max(p * (1 - p), kMinHessian);
        const double wi = weighted ? w[i] : 1.0;
        const double ws = pos_scale != 1.0 && yi == 1 ? wi * pos_scale : wi;
        out[i] = {static_cast<float>(ws * g), static_cast<float>(ws * h)};
        return wi * (std::log1p(e) + std::max(f, 0.0) - yi * f);
    });
}

}  // namespace

const char* to_string(LossKind k) {
    switch (k) {
        case LossKind::squared: return "squared";
        case LossKind::absolute: return "absolute";
        case LossKind::huber: return "huber";
        case LossKind::logistic: return "logistic";
        case LossKind::softmax: return "softmax";
        case LossKind::quantile: return "quantile";
        case LossKind::poisson: return "poisson";
        case LossKind::gamma: return "gamma";
        case LossKind::tweedie: return "tweedie";
        case LossKind::lambdarank: return "lambdarank";
        case LossKind::rank_pairwise: return "rank_pairwise";
    }
    return "?";
}

LossKind loss_from_string(const std::string& s) {
    for (LossKind k : {LossKind::squared, LossKind::absolute, LossKind::huber, LossKind::logistic, LossKind::softmax,
                       LossKind::quantile, LossKind::poisson, LossKind::gamma, LossKind::tweedie, LossKind::lambdarank,
                       LossKind::rank_pairwise})
        if (s == to_string(k)) return k;
    throw ParamError("parameter loss: unknown loss '" + s +
                     "' (valid: auto, squared, absolute, huber, quantile, poisson, gamma, tweedie, logistic, softmax, "
                     "lambdarank, rank_pairwise)");
}

bool is_ranking_loss(LossKind k) { return k == LossKind::lambdarank || k == LossKind::rank_pairwise; }

bool has_log_link(LossKind k) {
    return k == LossKind::poisson || k == LossKind::gamma || k == LossKind::tweedie;
}

bool is_classification_loss(LossKind k) {
    return k == LossKind::logistic || k == LossKind::softmax;
}

double Loss::value(double y, const double* F, Index K) const {
    switch (kind) {
        case LossKind::squared: return 0.5 * (y - F[0]) * (y - F[0]);
        case LossKind::absolute: return std::abs(y - F[0]);
        case LossKind::huber: {
            const double r = std::abs(y - F[0]);
            return r <= delta ? 0.5 * r * r : delta * (r - 0.5 * delta);
        }
        case LossKind::logistic: {
            const double f = F[0];
            return std::log1p(std::exp(-std::abs(f))) + std::max(f, 0.0) - y * f;
        }
        case LossKind::softmax: {
            double m = F[0];
            for (Index c = 1; c < K; ++c) m = std::max(m, F[c]);
            double s = 0;
            for (Index c = 0; c < K; ++c) s += std::exp(F[c] - m);
            return m + std::log(s) - F[static_cast<Index>(y)];
        }
        case LossKind::quantile: {
            const double r = y - F[0];
            return r >= 0 ? alpha * r : (alpha - 1) * r;
        }
        case LossKind::poisson: return std::exp(F[0]) - y * F[0];
        case LossKind::gamma: return y * std::exp(-F[0]) + F[0];
        case LossKind::tweedie: {
            const double rho = tweedie_power;
            return -y * std::exp((1 - rho) * F[0]) / (1 - rho) + std::exp((2 - rho) * F[0]) / (2 - rho);
        }
        case LossKind::lambdarank:
        case LossKind::rank_pairwise: break;  // no loss of one row: rank_losses.cpp
    }
    return 0;
}

double Loss::derivatives(double y, const double* F, Index K, double* g, double* h) const {
    switch (kind) {
        case LossKind::squared: g[0] = F[0] - y; h[0] = 1; return 0.5 * g[0] * g[0];
        case LossKind::absolute: {
            const double r = F[0] - y;
            g[0] = r > 0 ? 1.0 : (r < 0 ? -1.0 : 0.0);
            h[0] = 1;
            return std::abs(r);
        }
        case LossKind::huber: g[0] = std::clamp(F[0] - y, -delta, delta); h[0] = 1; return value(y, F, K);
        case LossKind::logistic: {
            const double f = F[0], e = std::exp(-std::abs(f));
            const double p = f >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
            g[0] = p - y;
            h[0] = std::max(p * (1 - p), kMinHessian);
            return std::log1p(e) + std::max(f, 0.0) - y * f;
        }
        case LossKind::softmax: {
            const double lse = softmax(F, K, g);  // g holds p for now
            const auto label = static_cast<Index>(y);
            for (Index c = 0; c < K; ++c) {
                const double p = g[c];
                h[c] = std::max(softmax_hessian_scale * p * (1 - p), kMinHessian);
                g[c] = p - (c == label ? 1.0 : 0.0);
            }
            return lse - F[label];
        }
        case LossKind::quantile:
            g[0] = F[0] >= y ? 1 - alpha : -alpha;
            h[0] = 1;
            return value(y, F, K);
        case LossKind::poisson: {
            const double mu = std::exp(F[0]);
            g[0] = mu - y;
            h[0] = std::max(mu * std::exp(max_delta_step), kMinHessian);
            return mu - y * F[0];
        }
        case LossKind::gamma: {
            const double q = y * std::exp(-F[0]);
            g[0] = 1 - q;
            h[0] = std::max(q, kMinHessian);
            return q + F[0];
        }
        case LossKind::tweedie: {
            const double rho = tweedie_power;
            const double a = y * std::exp((1 - rho) * F[0]), b = std::exp((2 - rho) * F[0]);
            g[0] = -a + b;
            h[0] = std::max(-(1 - rho) * a + (2 - rho) * b, kMinHessian);
            return -a / (1 - rho) + b / (2 - rho);
        }
        case LossKind::lambdarank:
        case LossKind::rank_pairwise: g[0] = 0; h[0] = 0; break;  // rank_losses.cpp
    }
    return 0;
}

double Loss::gradients(const double* F, const Vector& y, const Vector& w, Index K, GradPair* out, int threads,
                       std::span<const Index> queries) const {
    if (is_ranking_loss(kind)) return rank_gradients(*this, F, y, queries, out, threads);
    if (kind == LossKind::logistic && K == 1) return logistic_gradients(F, y, w, scale_pos_weight, out, threads);
    const Index n = y.size();
    const bool weighted = w.size() > 0;
    const double pos_scale = kind == LossKind::logistic ? scale_pos_weight : 1.0;
    const Index blocks = (n + kBlock - 1) / kBlock;
    std::vector<double> partial(static_cast<std::size_t>(blocks), 0.0);
#pragma omp parallel num_threads(std::max(1, threads)) if (blocks > 2)
    {
        std::vector<double> g(static_cast<std::size_t>(K)), h(static_cast<std::size_t>(K));
#pragma omp for schedule(static)
        for (Index b = 0; b < blocks; ++b) {
            double s = 0;
            const Index end = std::min(n, (b + 1) * kBlock);
            for (Index i = b * kBlock; i < end; ++i) {
                const double* f = F + i * K;
                const double wi = weighted ? w[i] : 1.0;
                s += wi * derivatives(y[i], f, K, g.data(), h.data());
                const double ws = pos_scale != 1.0 && y[i] == 1 ? wi * pos_scale : wi;
                for (Index c = 0; c < K; ++c)
                    out[c * n + i] = {static_cast<float>(ws * g[static_cast<std::size_t>(c)]),
                                      static_cast<float>(ws * h[static_cast<std::size_t>(c)])};
            }
            partial[static_cast<std::size_t>(b)] = s;
        }
    }
    return std::accumulate(partial.begin(), partial.end(), 0.0);
}

double Loss::mean(const double* F, const Vector& y, const Vector& w, Index K, int threads,
                  std::span<const Index> queries) const {
    const Index n = y.size();
    if (is_ranking_loss(kind)) return n > 0 ? rank_loss_sum(*this, F, y, queries, threads) / static_cast<double>(n) : 0.0;
    const bool weighted = w.size() > 0;
    const double total =
        block_sum(n, threads, [&](Index i) { return (weighted ? w[i] : 1.0) * value(y[i], F + i * K, K); });
    const double wsum = weighted ? w.sum() : static_cast<double>(n);
    return wsum > 0 ? total / wsum : 0.0;
}

double weighted_median(std::span<const double> values, std::span<const double> weights) {
    return weighted_quantile(values, weights, 0.5);
}

double weighted_quantile(std::span<const double> values, std::span<const double> weights, double alpha) {
    const std::size_t n = values.size();
    if (n == 0) return 0;
    if (weights.empty()) {
        // Unit weights: the answer is the m-th smallest value, m the least count with
        // m >= alpha n, so a selection (linear time) gives what the sort below would.
        // Leaf renewal calls this once per leaf every round: the sort was most of a
        // quantile fit's time.
        const double target = alpha * static_cast<double>(n);
        const std::size_t m = target <= 1 ? 1 : std::min(n, static_cast<std::size_t>(std::ceil(target)));
        thread_local std::vector<double> scratch;
        scratch.assign(values.begin(), values.end());
        std::nth_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(m - 1), scratch.end());
        return scratch[m - 1];
    }
    // Ascending values, ties in input order; the weights accumulate in that order.
    thread_local std::vector<std::pair<double, std::size_t>> order;
    order.resize(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = {values[i], i};
    std::sort(order.begin(), order.end());
    double total = 0;
    for (std::size_t i = 0; i < n; ++i) total += weights[i];
    double acc = 0;
    for (std::size_t k = 0; k < n; ++k) {
        acc += weights[order[k].second];
        if (acc >= alpha * total) return order[k].first;
    }
    return order.back().first;
}

std::vector<double> Loss::initial_scores(const Vector& y, const Vector& w, Index K, bool rows_sharded) const {
    const Index n = y.size();
    const auto wt = [&](Index i) { return w.size() ? w[i] : 1.0; };
    double wsum = 0;
    for (Index i = 0; i < n; ++i) wsum += wt(i);
    // Σw and Σwy, over every rank's rows when they are spread over ranks.
    const auto weighted_sums = [&] {
        double s = 0;
        for (Index i = 0; i < n; ++i) s += wt(i) * y[i];
        double sums[2] = {wsum, s};
        sum_over_ranks(rows_sharded, sums);
        wsum = sums[0];
        return sums[1];
    };
    switch (kind) {
        case LossKind::squared: {
            const double s = weighted_sums();
            return {wsum > 0 ? s / wsum : 0.0};
        }
        case LossKind::absolute:
        case LossKind::huber:
            return {weighted_median({y.data(), static_cast<std::size_t>(n)},
                                    w.size() ? std::span<const double>(w.data(), static_cast<std::size_t>(n))
                                             : std::span<const double>())};
        case LossKind::logistic: {
            const double s = weighted_sums();
            const double p = std::clamp(wsum > 0 ? s / wsum : 0.5, kClip, 1 - kClip);
            return {std::log(p / (1 - p))};
        }
        case LossKind::softmax: {
            std::vector<double> prior(static_cast<std::size_t>(K) + 1, 0.0);
            for (Index i = 0; i < n; ++i) prior[static_cast<std::size_t>(y[i])] += wt(i);
            prior.back() = wsum;
            sum_over_ranks(rows_sharded, prior);
            wsum = prior.back();
            prior.pop_back();
            for (double& p : prior) p = std::log(std::clamp(wsum > 0 ? p / wsum : 1.0 / K, kClip, 1 - kClip));
            return prior;
        }
        case LossKind::quantile:
            return {weighted_quantile({y.data(), static_cast<std::size_t>(n)},
                                      w.size() ? std::span<const double>(w.data(), static_cast<std::size_t>(n))
                                               : std::span<const double>(),
                                      alpha)};
        case LossKind::poisson:
        case LossKind::gamma:
        case LossKind::tweedie: {
            // The minimiser of every log-link loss above: F = log of the weighted mean.
            const double s = weighted_sums();
            return {std::log(wsum > 0 && s > 0 ? s / wsum : 1.0)};
        }
        case LossKind::lambdarank:
        case LossKind::rank_pairwise: return {0.0};
    }
    return {0.0};
}

void Loss::check_labels(const Vector& y) const {
    if (is_ranking_loss(kind)) return check_grades(y);
    if (!has_log_link(kind)) return;
    const bool positive = kind == LossKind::gamma;
    double sum = 0;
    for (Index i = 0; i < y.size(); ++i) {
        if (positive ? !(y[i] > 0) : !(y[i] >= 0))
            throw DataError(std::string("gbdt: loss=") + to_string(kind) + " needs " + (positive ? "y > 0" : "y >= 0") +
                            "; row " + std::to_string(i + 1) + " has y = " + format_number(y[i]));
        sum += y[i];
    }
    if (!(sum > 0))
        throw DataError(std::string("gbdt: loss=") + to_string(kind) + " needs some y > 0 (every label is 0)");
}

double Loss::renewed_leaf(std::span<const double> residuals, std::span<const double> weights) const {
    if (kind == LossKind::quantile) return weighted_quantile(residuals, weights, alpha);
    const double m = weighted_median(residuals, weights);
    if (kind != LossKind::huber) return m;
    double s = 0, wsum = 0;
    for (std::size_t i = 0; i < residuals.size(); ++i) {
        const double wi = weights.empty() ? 1.0 : weights[i];
        const double d = residuals[i] - m;
        s += wi * (d > 0 ? 1.0 : (d < 0 ? -1.0 : 0.0)) * std::min(delta, std::abs(d));
        wsum += wi;
    }
    return wsum > 0 ? m + s / wsum : m;
}

Eigen::MatrixXd Loss::probabilities(const Eigen::MatrixXd& raw) const {
    const Index n = raw.rows();
    if (kind == LossKind::logistic) {
        Eigen::MatrixXd p(n, 2);
        for (Index i = 0; i < n; ++i) {
            p(i, 1) = sigmoid(raw(i, 0));
            p(i, 0) = 1 - p(i, 1);
        }
        return p;
    }
    const Index K = raw.cols();
    Eigen::MatrixXd p(n, K);
    std::vector<double> f(static_cast<std::size_t>(K)), q(static_cast<std::size_t>(K));
    for (Index i = 0; i < n; ++i) {
        for (Index c = 0; c < K; ++c) f[static_cast<std::size_t>(c)] = raw(i, c);
        softmax(f.data(), K, q.data());
        for (Index c = 0; c < K; ++c) p(i, c) = q[static_cast<std::size_t>(c)];
    }
    return p;
}

}  // namespace kestrel
