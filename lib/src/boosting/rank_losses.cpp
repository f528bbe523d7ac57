// The pairwise ranking losses of gbdt; formulas in rank_losses.hpp.
#include "kestrel/boosting/rank_losses.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/metrics/query_metrics.hpp"

namespace kestrel {
namespace {

constexpr double kMaxGrade = 31;

// One query's pairs: adds their derivatives into g, h (when given) and returns Σ Δℓ.
class QueryPairs {
public:
    explicit QueryPairs(const Loss& loss) : loss_(loss) {}

    double run(const double* s, const double* y, Index m, double* g, double* h) {
        const auto n = static_cast<std::size_t>(m);
        const bool lambda = loss_.kind == LossKind::lambdarank;
        const Index T = loss_.truncation_level;
        rank_.resize(n);
        if (lambda || T > 0) {
            order_.resize(n);
            std::iota(order_.begin(), order_.end(), Index{0});
            std::stable_sort(order_.begin(), order_.end(), [&](Index a, Index b) { return s[a] > s[b]; });
            for (std::size_t r = 0; r < n; ++r) rank_[static_cast<std::size_t>(order_[r])] = static_cast<Index>(r);
        }
        double inverse_idcg = 1;
        if (lambda) {
            grades_.assign(y, y + m);
            std::sort(grades_.begin(), grades_.end(), std::greater<>());
            const Index top = T > 0 ? std::min(T, m) : m;
            double idcg = 0;
            for (Index r = 0; r < top; ++r) idcg += ndcg_gain(grades_[static_cast<std::size_t>(r)]) * ndcg_discount(r);
            if (!(idcg > 0)) return 0;  // no relevant document: no pair has a grade gap
            inverse_idcg = 1 / idcg;
            // Each document's gain and discount once, not once per pair (an exp2 and a log2
            // each, the bulk of a long query's pair loop).
            gain_.resize(n);
            discount_.resize(n);
            for (std::size_t k = 0; k < n; ++k) {
                gain_[k] = ndcg_gain(y[k]);
                discount_[k] = ndcg_discount(rank_[k]);
            }
        }
        const double sigma = loss_.rank_sigma;
        double total = 0;
        // The pair of documents a and b (a grade apart, else none).
        const auto pair = [&](Index a, Index b) {
            if (y[a] == y[b]) return;
            const Index i = y[a] > y[b] ? a : b, j = y[a] > y[b] ? b : a;  // i the more relevant
            double delta = 1;
            if (lambda) {
                const auto ui = static_cast<std::size_t>(i), uj = static_cast<std::size_t>(j);
                delta = std::abs(gain_[ui] - gain_[uj]) * std::abs(discount_[ui] - discount_[uj]) * inverse_idcg;
            }
            const double d = sigma * (s[i] - s[j]);
            // ρ = 1 / (1 + e^d) and log(1 + e^−d), from one exponential of −|d|.
            const double e = std::exp(-std::abs(d));
            const double rho = d >= 0 ? e / (1 + e) : 1 / (1 + e);
            total += delta * (std::log1p(e) + std::max(-d, 0.0));
            if (g == nullptr) return;
            const double lambda_ij = sigma * rho * delta, hess = sigma * sigma * rho * (1 - rho) * delta;
            g[i] -= lambda_ij;
            g[j] += lambda_ij;
            h[i] += hess;
            h[j] += hess;
        };
        if (T > 0 && T < m) {
            // Only the pairs with a document in the current top T, each visited from its
            // better-ranked document: T·m pairs at most, not m²/2.
            for (Index r = 0; r < T; ++r) {
                const Index a = order_[static_cast<std::size_t>(r)];
                for (Index b = 0; b < m; ++b)
                    if (rank_[static_cast<std::size_t>(b)] > r) pair(a, b);
            }
        } else {
            for (Index a = 0; a < m; ++a)
                for (Index b = a + 1; b < m; ++b) pair(a, b);
        }
        return total;
    }

private:
    const Loss& loss_;
    std::vector<Index> order_, rank_;
    std::vector<double> grades_, gain_, discount_;  // discount_: of each document's current rank
};

double over_queries(const Loss& loss, const double* F, const Vector& y, std::span<const Index> starts, GradPair* out,
                    int threads) {
    if (starts.size() < 2) return 0;
    const auto queries = static_cast<Index>(starts.size() - 1);
    std::vector<double> per_query(static_cast<std::size_t>(queries), 0.0);
#pragma omp parallel num_threads(std::max(1, threads)) if (queries > 1 && threads > 1)
    {
        QueryPairs pairs(loss);
        std::vector<double> g, h;
#pragma omp for schedule(dynamic, 16)
        for (Index q = 0; q < queries; ++q) {
            const Index b = starts[static_cast<std::size_t>(q)], m = starts[static_cast<std::size_t>(q) + 1] - b;
            if (out == nullptr) {
                per_query[static_cast<std::size_t>(q)] = pairs.run(F + b, y.data() + b, m, nullptr, nullptr);
                continue;
            }
            g.assign(static_cast<std::size_t>(m), 0.0);
            h.assign(static_cast<std::size_t>(m), 0.0);
            per_query[static_cast<std::size_t>(q)] = pairs.run(F + b, y.data() + b, m, g.data(), h.data());
            for (Index i = 0; i < m; ++i)
                out[b + i] = {static_cast<float>(g[static_cast<std::size_t>(i)]),
                              static_cast<float>(h[static_cast<std::size_t>(i)])};
        }
    }
    return std::accumulate(per_query.begin(), per_query.end(), 0.0);
}

}  // namespace

double rank_gradients(const Loss& loss, const double* F, const Vector& y, std::span<const Index> starts,
                      GradPair* out, int threads) {
    return over_queries(loss, F, y, starts, out, threads);
}

double rank_loss_sum(const Loss& loss, const double* F, const Vector& y, std::span<const Index> starts, int threads) {
    return over_queries(loss, F, y, starts, nullptr, threads);
}

void check_grades(const Vector& y) {
    for (Index i = 0; i < y.size(); ++i)
        if (!(y[i] >= 0 && y[i] <= kMaxGrade && y[i] == std::floor(y[i])))
            throw DataError("gbdt: a ranking loss takes relevance grades, whole numbers from 0 to 31; row " +
                            std::to_string(i + 1) + " has y = " + format_number(y[i]));
}

}  // namespace kestrel
