#include "kestrel/optim/crammer_singer.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <vector>

#include "kestrel/common/row_access.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {
namespace {


// The per-row subproblem in closed form: minimise ½A‖α − α_old‖² + Bᵀ(α − α_old)-style
// quadratic over {α_m ≤ bound_m, Σα = 0} by finding the threshold β of
// α_m = min(bound_m, (β − B_m)/A) (Crammer & Singer 2001's fixed-point, LIBLINEAR's sort).
void solve_sub_problem(double A, int yi, double c_yi, int active, const double* B, double* alpha_new,
                       std::vector<double>& D) {
    D.assign(B, B + active);
    if (yi < active) D[static_cast<std::size_t>(yi)] += A * c_yi;
    std::sort(D.begin(), D.end(), std::greater<>());
    double beta = D[0] - A * c_yi;
    int r = 1;
    for (; r < active && beta < r * D[static_cast<std::size_t>(r)]; ++r) beta += D[static_cast<std::size_t>(r)];
    beta /= r;
    for (int m = 0; m < active; ++m) alpha_new[m] = std::min(m == yi ? c_yi : 0.0, (beta - B[m]) / A);
}

template <class Rows>
CrammerSingerResult solve(const Rows& rows, const Vector& y, int k, const Vector& cost, Index n, Index d,
                          const CrammerSingerOptions& o) {
    const bool has_bias = o.bias > 0;
    const Index p = d + (has_bias ? 1 : 0);
    // Row-major p x k: a row's feature touches k adjacent weights.
    std::vector<double> w(static_cast<std::size_t>(p * k), 0.0);
    std::vector<double> alpha(static_cast<std::size_t>(n * k), 0.0), qd(static_cast<std::size_t>(n));
    std::vector<int> alpha_index(static_cast<std::size_t>(n * k)), y_index(static_cast<std::size_t>(n)),
        active_i(static_cast<std::size_t>(n), k);
    std::vector<Index> index;
    for (Index i = 0; i < n; ++i) {
        for (int m = 0; m < k; ++m) alpha_index[static_cast<std::size_t>(i * k + m)] = m;
        qd[static_cast<std::size_t>(i)] = rows.squared_norm(i) + o.bias * o.bias * (has_bias ? 1 : 0);
        y_index[static_cast<std::size_t>(i)] = static_cast<int>(y[i]);
        // A row without loss or without features never moves from α = 0.
        if (qd[static_cast<std::size_t>(i)] > 0 && cost[i] > 0) index.push_back(i);
    }
    const auto total = static_cast<std::ptrdiff_t>(index.size());
    std::ptrdiff_t active = total;
    std::vector<double> G(static_cast<std::size_t>(k)), B(G.size()), alpha_new(G.size()), D;
    std::vector<int> d_ind(G.size());
    std::vector<double> d_val(G.size());
    double eps_shrink = std::max(10.0 * o.eps, 1.0);
    bool start_from_all = true;
    Rng rng(o.seed);
    CrammerSingerResult r;

    auto wrow = [&](Index j) { return w.data() + j * k; };
    while (r.iterations < o.max_iter) {
        interruption_point();
        double stopping = -std::numeric_limits<double>::infinity();
        for (std::ptrdiff_t s = 0; s < active; ++s)
            std::swap(index[static_cast<std::size_t>(s)],
                      index[static_cast<std::size_t>(
                          s + static_cast<std::ptrdiff_t>(rng.below(static_cast<std::uint64_t>(active - s))))]);
        for (std::ptrdiff_t s = 0; s < active; ++s) {
            const Index i = index[static_cast<std::size_t>(s)];
            const auto iu = static_cast<std::size_t>(i);
            const double Ai = qd[iu], Ci = cost[i];
            double* a = alpha.data() + i * k;
            int* ai = alpha_index.data() + i * k;
            int& na = active_i[iu];
            int& yi = y_index[iu];
            for (int m = 0; m < na; ++m) G[static_cast<std::size_t>(m)] = 1;
            if (yi < na) G[static_cast<std::size_t>(yi)] = 0;
            rows.for_each(i, [&](Index j, double x) {
                const double* wj = wrow(j);
                for (int m = 0; m < na; ++m) G[static_cast<std::size_t>(m)] += wj[ai[m]] * x;
            });
            if (has_bias) {
                const double* wb = wrow(d);
                for (int m = 0; m < na; ++m) G[static_cast<std::size_t>(m)] += wb[ai[m]] * o.bias;
            }
            double minG = std::numeric_limits<double>::infinity(), maxG = -std::numeric_limits<double>::infinity();
            for (int m = 0; m < na; ++m) {
                if (a[ai[m]] < 0 && G[static_cast<std::size_t>(m)] < minG) minG = G[static_cast<std::size_t>(m)];
                maxG = std::max(maxG, G[static_cast<std::size_t>(m)]);
            }
            if (yi < na && a[static_cast<int>(y[i])] < Ci && G[static_cast<std::size_t>(yi)] < minG)
                minG = G[static_cast<std::size_t>(yi)];
            // A class at its bound whose gradient is below every free one stays there: drop it.
            auto shrinkable = [&](int m) {
                const double bound = m == yi ? Ci : 0.0;
                return a[ai[m]] == bound && G[static_cast<std::size_t>(m)] < minG;
            };
            for (int m = 0; m < na; ++m) {
                if (!shrinkable(m)) continue;
                --na;
                while (na > m) {
                    if (!shrinkable(na)) {
                        std::swap(ai[m], ai[na]);
                        std::swap(G[static_cast<std::size_t>(m)], G[static_cast<std::size_t>(na)]);
                        if (yi == na)
                            yi = m;
                        else if (yi == m)
                            yi = na;
                        break;
                    }
                    --na;
                }
            }
            if (na <= 1) {
                std::swap(index[static_cast<std::size_t>(s)], index[static_cast<std::size_t>(--active)]);
                --s;
                continue;
            }
            if (maxG - minG <= 1e-12) continue;
            stopping = std::max(stopping, maxG - minG);
            for (int m = 0; m < na; ++m)
                B[static_cast<std::size_t>(m)] = G[static_cast<std::size_t>(m)] - Ai * a[ai[m]];
            solve_sub_problem(Ai, yi, Ci, na, B.data(), alpha_new.data(), D);
            int nz = 0;
            for (int m = 0; m < na; ++m) {
                const double delta = alpha_new[static_cast<std::size_t>(m)] - a[ai[m]];
                a[ai[m]] = alpha_new[static_cast<std::size_t>(m)];
                if (std::abs(delta) >= 1e-12) {
                    d_ind[static_cast<std::size_t>(nz)] = ai[m];
                    d_val[static_cast<std::size_t>(nz)] = delta;
                    ++nz;
                }
            }
            rows.for_each(i, [&](Index j, double x) {
                double* wj = wrow(j);
                for (int t = 0; t < nz; ++t)
                    wj[d_ind[static_cast<std::size_t>(t)]] += d_val[static_cast<std::size_t>(t)] * x;
            });
            if (has_bias) {
                double* wb = wrow(d);
                for (int t = 0; t < nz; ++t)
                    wb[d_ind[static_cast<std::size_t>(t)]] += d_val[static_cast<std::size_t>(t)] * o.bias;
            }
        }
        ++r.iterations;
        if (stopping < eps_shrink) {
            if (stopping < o.eps && start_from_all) {
                r.converged = true;
                break;
            }
            // Converged on the shrunk sets: reopen every row and class, tighten.
            active = total;
            std::fill(active_i.begin(), active_i.end(), k);
            eps_shrink = std::max(eps_shrink / 2, o.eps);
            start_from_all = true;
        } else {
            start_from_all = false;
        }
    }
    r.W = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(w.data(), p, k);
    double v = 0.5 * r.W.squaredNorm();
    for (Index i = 0; i < n; ++i) v -= alpha[static_cast<std::size_t>(i * k + static_cast<Index>(y[i]))];
    r.dual_objective = v;
    return r;
}

// rows::Dense / rows::Sparse plus a visit of the non-zeros of a row, which the k-wide
// updates need (row_access has dot and axpy only).
struct DenseRows : rows::Dense {
    template <class F>
    void for_each(Index i, F&& f) const {
        const double* x = X.data() + i * X.cols();
        for (Index j = 0; j < X.cols(); ++j)
            if (x[j] != 0) f(j, x[j]);
    }
};
struct SparseRows : rows::Sparse {
    template <class F>
    void for_each(Index i, F&& f) const {
        for (int t = X.outerIndexPtr()[i]; t < X.outerIndexPtr()[i + 1]; ++t) f(X.innerIndexPtr()[t], X.valuePtr()[t]);
    }
};

}  // namespace

CrammerSingerResult solve_crammer_singer(const Features& X, const Vector& y, Index k, const Vector& cost,
                                         const CrammerSingerOptions& o) {
    if (y.size() != X.rows() || cost.size() != X.rows())
        throw InternalError("solve_crammer_singer: y, cost and X disagree on the number of rows");
    const int kk = static_cast<int>(k);
    if (!X.is_sparse()) return solve(DenseRows{{X.dense_ref()}}, y, kk, cost, X.rows(), X.cols(), o);
    if (X.sparse_ref().isCompressed()) return solve(SparseRows{{X.sparse_ref()}}, y, kk, cost, X.rows(), X.cols(), o);
    SparseMatrix scratch = X.sparse_ref();
    scratch.makeCompressed();
    return solve(SparseRows{{scratch}}, y, kk, cost, X.rows(), X.cols(), o);
}

double crammer_singer_primal(const Features& X, const Vector& y, const Vector& cost, const Eigen::MatrixXd& W,
                             double bias) {
    const Index d = X.cols();
    Eigen::MatrixXd Z = X.multiply(Eigen::MatrixXd(W.topRows(d)));
    if (bias > 0) Z.rowwise() += bias * W.row(d);
    double loss = 0;
    for (Index i = 0; i < Z.rows(); ++i) {
        const auto yi = static_cast<Index>(y[i]);
        double worst = 0;  // m = y_i gives 0
        for (Index m = 0; m < Z.cols(); ++m)
            if (m != yi) worst = std::max(worst, 1.0 + Z(i, m) - Z(i, yi));
        loss += cost[i] * worst;
    }
    return 0.5 * W.squaredNorm() + loss;
}

}  // namespace kestrel
