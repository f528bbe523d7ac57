// The pairwise ranking losses of gbdt; formulas in rank_losses.hpp.
#include "kestrel/boosting/rank_losses.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/metrics/query_metrics.hpp"

namespace kestrel {
namespace {

constexpr double kMaxGrade = 31;
// Scores of one query within this many units of σs of each other take the per-document
// exponentials (e^(σ(s − max s)) ≥ e^−600, far from underflow); a wider query pays an
// exponential per pair.
constexpr double kMaxSpread = 600;

// What QueryPairs::run returns besides the derivatives.
enum class Value {
    training,   // the history's loss: 1 − NDCG (@T) for lambdarank, Σ ℓ_ij for rank_pairwise
    surrogate,  // Σ Δ_ij ℓ_ij, whose derivatives the gradients are (Δ_ij held fixed)
};

// One query's pairs: adds their derivatives into g, h (when given) and returns `value`.
class QueryPairs {
public:
    explicit QueryPairs(const Loss& loss) : loss_(loss) {
        for (int grade = 0; grade <= static_cast<int>(kMaxGrade); ++grade) gains_[static_cast<std::size_t>(grade)] = ndcg_gain(grade);
    }

    double run(const double* s, const double* y, Index m, double* g, double* h, Value value) {
        const auto n = static_cast<std::size_t>(m);
        const bool lambda = loss_.kind == LossKind::lambdarank;
        const Index T = loss_.truncation_level;
        const bool truncated = T > 0 && T < m;
        rank_.resize(n);
        if (lambda || truncated) {
            // Descending scores, ties by row order: (−s, row) sorted, not the rows through s.
            keyed_.resize(n);
            for (std::size_t k = 0; k < n; ++k) keyed_[k] = {-s[k], static_cast<Index>(k)};
            std::sort(keyed_.begin(), keyed_.end());
            order_.resize(n);
            for (std::size_t r = 0; r < n; ++r) {
                order_[r] = keyed_[r].second;
                rank_[static_cast<std::size_t>(order_[r])] = static_cast<Index>(r);
            }
        }
        sort_by_grade(y, m);
        double inverse_idcg = 1, ndcg = 1;
        if (lambda) {
            const Index top = T > 0 ? std::min(T, m) : m;
            while (static_cast<Index>(discounts_.size()) < m) discounts_.push_back(ndcg_discount(static_cast<Index>(discounts_.size())));
            double idcg = 0;
            for (Index r = 0; r < top; ++r)
                idcg += gains_[static_cast<std::size_t>(y[by_grade_[static_cast<std::size_t>(r)]])] *
                        discounts_[static_cast<std::size_t>(r)];
            if (!(idcg > 0)) return 0;  // no relevant document: no pair has a grade gap, NDCG 1
            inverse_idcg = 1 / idcg;
            // Each document's gain and discount once, not once per pair.
            gain_.resize(n);
            discount_.resize(n);
            double dcg = 0;
            for (std::size_t k = 0; k < n; ++k) {
                gain_[k] = gains_[static_cast<std::size_t>(y[k])];
                discount_[k] = discounts_[static_cast<std::size_t>(rank_[k])];
                if (rank_[k] < top) dcg += gain_[k] * discount_[k];
            }
            ndcg = dcg * inverse_idcg;
        }
        // lambdarank's history records its NDCG, so its pairs need no log.
        const bool pair_loss = value == Value::surrogate || !lambda;
        if (g == nullptr && !pair_loss) return 1 - ndcg;
        const double sigma = loss_.rank_sigma;
        const auto [lo, hi] = std::minmax_element(s, s + m);
        const bool near = sigma * (*hi - *lo) <= kMaxSpread;
        if (near) {  // each document's exponential E = e^(σ(s − max s)), so ρ_ij = E_j / (E_i + E_j)
            exps_.resize(n);
            for (std::size_t k = 0; k < n; ++k) exps_[k] = std::exp(sigma * (s[k] - *hi));
        }
        const double total = !truncated && near ? by_grade_blocks(y, m, g, h, lambda, inverse_idcg, pair_loss)
                                                : pair_by_pair(s, y, m, g, h, lambda, inverse_idcg, truncated, near, pair_loss);
        return value == Value::training && lambda ? 1 - ndcg : total;
    }

private:
    // by_grade_: the rows by descending grade, ties by row order (a counting sort: grades
    // are whole numbers 0..31).
    void sort_by_grade(const double* y, Index m) {
        std::array<Index, static_cast<std::size_t>(kMaxGrade) + 2> start{};
        for (Index k = 0; k < m; ++k) ++start[static_cast<std::size_t>(kMaxGrade - y[k]) + 1];
        for (std::size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
        by_grade_.resize(static_cast<std::size_t>(m));
        for (Index k = 0; k < m; ++k) by_grade_[static_cast<std::size_t>(start[static_cast<std::size_t>(kMaxGrade - y[k])]++)] = k;
    }

    // Every pair with a grade gap, from the documents in grade order (each document against
    // the block of lower grades after its own): no branch per pair, and ρ from the two
    // documents' exponentials.
    double by_grade_blocks(const double* y, Index m, double* g, double* h, bool lambda, double inverse_idcg,
                           bool pair_loss) {
        const auto n = static_cast<std::size_t>(m);
        const double sigma = loss_.rank_sigma;
        E_.resize(n);
        G_.resize(n);
        D_.resize(n);
        ga_.assign(n, 0.0);
        ha_.assign(n, 0.0);
        for (std::size_t p = 0; p < n; ++p) {
            const auto k = static_cast<std::size_t>(by_grade_[p]);
            E_[p] = exps_[k];
            G_[p] = lambda ? gain_[k] : 0.0;
            D_[p] = lambda ? discount_[k] : 0.0;
        }
        const double* E = E_.data();
        const double* G = G_.data();
        const double* D = D_.data();
        double* ga = ga_.data();
        double* ha = ha_.data();
        const double s2 = sigma * sigma;
        double total = 0;
        std::size_t block_end = 0;
        for (std::size_t p = 0; p < n; ++p) {
            if (p == block_end)
                while (block_end < n && y[by_grade_[block_end]] == y[by_grade_[p]]) ++block_end;
            const double Ep = E[p], Gp = G[p], Dp = D[p];
            if (g != nullptr) {  // a loss alone (a validation set's) needs no derivatives
                double gp = 0, hp = 0;
                for (std::size_t q = block_end; q < n; ++q) {
                    const double delta = lambda ? (Gp - G[q]) * std::abs(Dp - D[q]) * inverse_idcg : 1.0;
                    const double rho = E[q] / (Ep + E[q]);
                    const double lam = sigma * rho * delta, hess = s2 * rho * (1 - rho) * delta;
                    gp -= lam;
                    ga[q] += lam;
                    hp += hess;
                    ha[q] += hess;
                }
                ga[p] += gp;
                ha[p] += hp;
            }
            if (pair_loss)  // log(1 + e^(−σd)) = log1p(E_q / E_p)
                for (std::size_t q = block_end; q < n; ++q) {
                    const double delta = lambda ? (Gp - G[q]) * std::abs(Dp - D[q]) * inverse_idcg : 1.0;
                    total += delta * std::log1p(E[q] / Ep);
                }
        }
        if (g != nullptr)
            for (std::size_t p = 0; p < n; ++p) {
                const auto k = static_cast<std::size_t>(by_grade_[p]);
                g[k] += ga[p];
                h[k] += ha[p];
            }
        return total;
    }

    // The pairs one at a time: with a truncation level (only the pairs with a document in
    // the current top T), or scores too far apart for the per-document exponentials.
    double pair_by_pair(const double* s, const double* y, Index m, double* g, double* h, bool lambda,
                        double inverse_idcg, bool truncated, bool near, bool pair_loss) {
        const double sigma = loss_.rank_sigma;
        double total = 0;
        // The pair of documents a and b (a grade apart, else none).
        const auto pair = [&](Index a, Index b) {
            if (y[a] == y[b]) return;
            const Index i = y[a] > y[b] ? a : b, j = y[a] > y[b] ? b : a;  // i the more relevant
            const auto ui = static_cast<std::size_t>(i), uj = static_cast<std::size_t>(j);
            double delta = 1;
            if (lambda) delta = std::abs(gain_[ui] - gain_[uj]) * std::abs(discount_[ui] - discount_[uj]) * inverse_idcg;
            double rho = 0;
            if (near) {
                rho = exps_[uj] / (exps_[ui] + exps_[uj]);
                if (pair_loss) total += delta * std::log1p(exps_[uj] / exps_[ui]);
            } else {
                // ρ = 1 / (1 + e^d) and log(1 + e^−d), from one exponential of −|d|.
                const double d = sigma * (s[i] - s[j]);
                const double e = std::exp(-std::abs(d));
                rho = d >= 0 ? e / (1 + e) : 1 / (1 + e);
                if (pair_loss) total += delta * (std::log1p(e) + std::max(-d, 0.0));
            }
            if (g == nullptr) return;
            const double lambda_ij = sigma * rho * delta, hess = sigma * sigma * rho * (1 - rho) * delta;
            g[i] -= lambda_ij;
            g[j] += lambda_ij;
            h[i] += hess;
            h[j] += hess;
        };
        if (truncated) {
            // Each pair visited from its better-ranked document, which is in the top T:
            // T·m pairs at most, not m²/2.
            const auto T = static_cast<std::size_t>(loss_.truncation_level), n = static_cast<std::size_t>(m);
            for (std::size_t r = 0; r < T; ++r)
                for (std::size_t r2 = r + 1; r2 < n; ++r2) pair(order_[r], order_[r2]);
        } else {
            for (Index a = 0; a < m; ++a)
                for (Index b = a + 1; b < m; ++b) pair(a, b);
        }
        return total;
    }

    const Loss& loss_;
    std::vector<Index> order_, rank_, by_grade_;
    std::vector<std::pair<double, Index>> keyed_;
    std::array<double, static_cast<std::size_t>(kMaxGrade) + 1> gains_{};  // 2^y − 1 by grade
    std::vector<double> discounts_;               // 1 / log2(r + 2) by rank, grown as needed
    std::vector<double> gain_, discount_;         // per document; discount_ of its current rank
    std::vector<double> exps_;                    // per document: e^(σ(s − max s))
    std::vector<double> E_, G_, D_, ga_, ha_;       // by_grade_blocks: per position in grade order
};

double over_queries(const Loss& loss, const double* F, const Vector& y, std::span<const Index> starts, GradPair* out,
                    Value value, int threads) {
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
                per_query[static_cast<std::size_t>(q)] = pairs.run(F + b, y.data() + b, m, nullptr, nullptr, value);
                continue;
            }
            g.assign(static_cast<std::size_t>(m), 0.0);
            h.assign(static_cast<std::size_t>(m), 0.0);
            per_query[static_cast<std::size_t>(q)] = pairs.run(F + b, y.data() + b, m, g.data(), h.data(), value);
            for (Index i = 0; i < m; ++i)
                out[b + i] = {static_cast<float>(g[static_cast<std::size_t>(i)]),
                              static_cast<float>(h[static_cast<std::size_t>(i)])};
        }
    }
    const double sum = std::accumulate(per_query.begin(), per_query.end(), 0.0);
    // lambdarank's 1 − NDCG is a mean over queries; the callers divide by the rows.
    if (value == Value::training && loss.kind == LossKind::lambdarank)
        return sum / static_cast<double>(queries) * static_cast<double>(y.size());
    return sum;
}

}  // namespace

double rank_gradients(const Loss& loss, const double* F, const Vector& y, std::span<const Index> starts,
                      GradPair* out, int threads) {
    return over_queries(loss, F, y, starts, out, Value::training, threads);
}

double rank_loss_sum(const Loss& loss, const double* F, const Vector& y, std::span<const Index> starts, int threads) {
    return over_queries(loss, F, y, starts, nullptr, Value::training, threads);
}

double rank_surrogate_sum(const Loss& loss, const double* F, const Vector& y, std::span<const Index> starts,
                          int threads) {
    return over_queries(loss, F, y, starts, nullptr, Value::surrogate, threads);
}

void check_grades(const Vector& y) {
    for (Index i = 0; i < y.size(); ++i)
        if (!(y[i] >= 0 && y[i] <= kMaxGrade && y[i] == std::floor(y[i])))
            throw DataError("gbdt: a ranking loss takes relevance grades, whole numbers from 0 to 31; row " +
                            std::to_string(i + 1) + " has y = " + format_number(y[i]));
}

}  // namespace kestrel
