#include "kestrel/optim/coordinate_descent.hpp"

#include <algorithm>
#include <cmath>

#include "kestrel/common/row_shards.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/optim/centred_gram.hpp"

namespace kestrel {
namespace {

// Two ways of keeping what a coordinate update needs, glmnet's type.gaussian:
//   naive:      the residual r = y − ȳ − X̃β (X̃ the centred columns); a coordinate's
//               gradient is one pass over its column, O(n) (or its non-zeros).
//   covariance: q = X̃ᵀS(y − ȳ) − Gβ with G = X̃ᵀSX̃ (d x d, formed once); a gradient
//               is q_j and an update moves q by a column of G, O(d) whatever n is.
// Both give the same iterates up to rounding. Each supplies, for column j (centred,
// weighted by s): sq(j) = Σ s_i x̃_ij², dot(j) = Σ s_i x̃_ij r_i, and move(j, c) for a
// change c of the raw coefficient β_j.

// Naive residual updates over columns of X: dense (centred copy, column-major) or
// sparse (CSC copy, centring carried implicitly). f(i, x_ij) runs over the stored
// entries of column j in increasing i.
struct DenseColumns {
    Eigen::MatrixXd X;
    template <class F>
    void each(Index j, F&& f) const {
        const double* x = X.col(j).data();
        for (Index i = 0; i < X.rows(); ++i) f(i, x[i]);
    }
};

struct SparseColumns {
    Eigen::SparseMatrix<double, Eigen::ColMajor, int> X;
    template <class F>
    void each(Index j, F&& f) const {
        const int* idx = X.innerIndexPtr();
        const double* v = X.valuePtr();
        for (int k = X.outerIndexPtr()[j]; k < X.outerIndexPtr()[j + 1]; ++k) f(idx[k], v[k]);
    }
};

template <class Columns>
class NaiveUpdates {
public:
    NaiveUpdates(const Columns& cols, const Vector& s, const Vector& y, const Vector& mean, double y_mean)
        : cols_(cols), s_(s), mean_(mean), S_(s.sum()) {
        r_ = y.array() - y_mean;  // r_raw: the residual without the implicit centring offset
        sum_r_ = s_.dot(r_);
        y_ss_ = s_.dot(r_.cwiseProduct(r_));
    }
    double y_ss() const { return y_ss_; }
    double sq(Index j) const {
        // stored entries, then the rows the column skips
        double sq = 0, s_seen = 0;
        const double m = mean_[j];
        cols_.each(j, [&](Index i, double x) {
            sq += s_[i] * (x - m) * (x - m);
            s_seen += s_[i];
        });
        return sq + std::max(0.0, S_ - s_seen) * m * m;
    }
    double dot(Index j) const {
        double dot = 0;
        cols_.each(j, [&](Index i, double x) { dot += s_[i] * x * r_[i]; });
        return dot - mean_[j] * sum_r_;
    }
    void move(Index j, double c) {
        cols_.each(j, [&](Index i, double x) { r_[i] -= c * x; });
        sum_r_ -= c * S_ * mean_[j];
    }

private:
    const Columns& cols_;
    const Vector& s_;
    const Vector& mean_;
    double S_;
    Vector r_;
    double sum_r_ = 0, y_ss_ = 0;
};

class CovarianceUpdates {
public:
    CovarianceUpdates(Eigen::MatrixXd gram, Vector xty, double y_ss)
        : G_(std::move(gram)), q_(std::move(xty)), y_ss_(y_ss) {}
    double y_ss() const { return y_ss_; }
    double sq(Index j) const { return G_(j, j); }
    double dot(Index j) const { return q_[j]; }
    void move(Index j, double c) { q_.noalias() -= c * G_.col(j); }

private:
    Eigen::MatrixXd G_;
    Vector q_;
    double y_ss_;
};

double soft_threshold(double z, double t) {
    return z > t ? z - t : (z < -t ? z + t : 0.0);
}

template <class Updates>
class Solver {
public:
    Solver(Updates updates, Index d, double S, const ElasticNetSettings& st)
        : up_(std::move(updates)), st_(st), d_(d), S_(S) {
        scale_ = Vector::Ones(d_);
        v_ = Vector::Zero(d_);
        for (Index j = 0; j < d_; ++j) {
            const double var = up_.sq(j) / S_;  // (1/S) Σ s_i (x_ij − x̄_j)²
            if (!(var > 0)) continue;           // constant column: its coefficient stays 0
            if (st_.standardize) {
                scale_[j] = std::sqrt(var);
                v_[j] = 1.0;
            } else {
                v_[j] = var;
            }
        }
        beta_ = Vector::Zero(d_);
        in_active_.assign(static_cast<std::size_t>(d_), false);
        threshold_ = st_.tol * up_.y_ss() / S_;
    }

    // ∂/∂β̃_j of the loss term, at the current β̃ (standardised coordinates).
    double gradient(Index j) const { return up_.dot(j) / (S_ * scale_[j]); }

    double lambda_max() const {
        double g = 0;
        for (Index j = 0; j < d_; ++j)
            if (v_[j] > 0) g = std::max(g, std::abs(gradient(j)));
        return g / std::max(st_.l1_ratio, 1e-3);  // glmnet's guard for α → 0
    }

    // Solves at lambda from the current β̃. Returns false when the sweep budget ran out.
    bool solve(double lambda, int& sweeps) {
        const double l1 = lambda * st_.l1_ratio, l2 = lambda * (1.0 - st_.l1_ratio);
        while (true) {
            if (sweeps >= st_.max_iter) return false;
            interruption_point();
            ++sweeps;
            if (sweep_all(l1, l2) <= threshold_) return true;
            // Cycle on the active set until it settles, then check every coordinate again.
            while (true) {
                if (sweeps >= st_.max_iter) return false;
                interruption_point();
                ++sweeps;
                if (sweep_active(l1, l2) <= threshold_) break;
            }
        }
    }

    Vector coef() const { return beta_.cwiseQuotient(scale_); }

private:
    double update(Index j, double l1, double l2) {
        if (v_[j] == 0) return 0;
        const double b = beta_[j];
        const double b_new = soft_threshold(gradient(j) + v_[j] * b, l1) / (v_[j] + l2);
        if (b_new == b) return 0;
        const double delta = b_new - b;
        beta_[j] = b_new;
        up_.move(j, delta / scale_[j]);
        if (!in_active_[j]) {
            in_active_[j] = true;
            active_.push_back(j);
        }
        return v_[j] * delta * delta;
    }
    double sweep_all(double l1, double l2) {
        double worst = 0;
        for (Index j = 0; j < d_; ++j) worst = std::max(worst, update(j, l1, l2));
        return worst;
    }
    double sweep_active(double l1, double l2) {
        double worst = 0;
        for (std::size_t a = 0; a < active_.size(); ++a) worst = std::max(worst, update(active_[a], l1, l2));
        return worst;
    }

    Updates up_;
    const ElasticNetSettings& st_;
    Index d_;
    double S_;
    Vector scale_, v_, beta_;
    double threshold_ = 0;
    std::vector<bool> in_active_;
    std::vector<Index> active_;
};

Vector path_lambdas(double lambda_max, const ElasticNetSettings& st, Index n, Index d) {
    const double ratio = st.lambda_min_ratio.value_or(n > d ? 1e-4 : 1e-2);
    std::vector<double> grid;
    for (int k = 0; k < st.n_lambda; ++k)
        grid.push_back(st.n_lambda == 1 ? lambda_max
                                        : lambda_max * std::pow(ratio, static_cast<double>(k) / (st.n_lambda - 1)));
    if (!st.lambda) return Eigen::Map<Vector>(grid.data(), static_cast<Index>(grid.size()));
    std::vector<double> out;
    for (double l : grid)
        if (l > *st.lambda) out.push_back(l);
    out.push_back(*st.lambda);
    return Eigen::Map<Vector>(out.data(), static_cast<Index>(out.size()));
}

template <class Updates>
ElasticNetPath run_path(Updates updates, Index d, double S, const ElasticNetSettings& st, Index n) {
    Solver<Updates> solver(std::move(updates), d, S, st);
    ElasticNetPath path;
    path.lambda_max = solver.lambda_max();
    path.lambdas = path_lambdas(path.lambda_max, st, n, d);
    const Index m = path.lambdas.size();
    path.coef.resize(m, d);
    path.intercepts.resize(m);
    for (Index k = 0; k < m; ++k) {
        if (path.converged) path.converged = solver.solve(path.lambdas[k], path.sweeps);
        path.coef.row(k) = solver.coef().transpose();
    }
    return path;
}

// glmnet's choice (type.gaussian): covariance updates while the d x d Gram is cheap
// next to the passes over the rows it saves. Rows spread over ranks: always covariance,
// the one scheme whose state (the Gram, X̃ᵀSy, Σs yc²) sums over the ranks.
bool use_covariance(const ElasticNetSettings& st, const Features& X, bool rows_sharded) {
    if (st.updates == ElasticNetUpdates::naive) {
        if (rows_sharded) throw InternalError("elastic net: naive updates need the rows, which are spread over ranks");
        return false;
    }
    if (st.updates == ElasticNetUpdates::covariance || rows_sharded) return true;
    return !X.is_sparse() && X.cols() <= 500 && X.rows() > X.cols();
}

}  // namespace

ElasticNetPath elastic_net_path(const Dataset& data, const ElasticNetSettings& st, int threads, bool rows_sharded) {
    const Index d = data.cols();
    const Vector s = data.has_weights() ? data.weights : Vector::Ones(data.rows());
    const WeightedMoments m = weighted_moments(data.X, s, data.y, st.fit_intercept, rows_sharded);
    const double S = m.total;
    if (!(S > 0)) throw DataError("elastic net: the sample weights sum to zero");
    const Vector& mean = m.x_mean;
    const double y_mean = m.y_mean;
    // The path's default λ_min / λ_max looks at the whole data's row count.
    const Index n = rows_over_ranks(rows_sharded, data.rows()).total;
    ElasticNetPath path;
    if (use_covariance(st, data.X, rows_sharded)) {
        const Vector yc = data.y.array() - y_mean;
        NormalEquations ne = centred_normal_equations(data.X, s, yc, m, st.fit_intercept, rows_sharded, threads);
        ne.A.triangularView<Eigen::StrictlyUpper>() = ne.A.transpose();
        path = run_path(CovarianceUpdates(std::move(ne.A), std::move(ne.b), ne.y_ss), d, S, st, n);
    } else if (data.X.is_sparse()) {
        SparseColumns cols{Eigen::SparseMatrix<double, Eigen::ColMajor, int>(data.X.sparse_ref())};
        cols.X.makeCompressed();
        path = run_path(NaiveUpdates<SparseColumns>(cols, s, data.y, mean, y_mean), d, S, st, n);
    } else {
        // Dense columns are centred explicitly (no cancellation when the means are
        // large); the solver then sees zero means.
        DenseColumns cols{Eigen::MatrixXd(data.X.dense_ref())};
        cols.X.rowwise() -= mean.transpose();
        const Vector zero = Vector::Zero(d);
        path = run_path(NaiveUpdates<DenseColumns>(cols, s, data.y, zero, y_mean), d, S, st, n);
    }
    for (Index k = 0; k < path.lambdas.size(); ++k)
        path.intercepts[k] = st.fit_intercept ? y_mean - mean.dot(path.coef.row(k).transpose()) : 0.0;
    return path;
}

std::string path_to_csv(const ElasticNetPath& path, const std::vector<std::string>& feature_names) {
    std::string out = "lambda,intercept";
    // Appended piece by piece: "," + std::string&& trips GCC 12's -Wstringop-overflow (bug 105651).
    for (Index j = 0; j < path.coef.cols(); ++j) {
        out += ',';
        if (static_cast<std::size_t>(j) < feature_names.size()) {
            out += feature_names[static_cast<std::size_t>(j)];
        } else {
            out += 'x';
            out += std::to_string(j + 1);
        }
    }
    out += "\n";
    for (Index k = 0; k < path.lambdas.size(); ++k) {
        out += format_number(path.lambdas[k]) + "," + format_number(path.intercepts[k]);
        for (Index j = 0; j < path.coef.cols(); ++j) (out += ',') += format_number(path.coef(k, j));
        out += "\n";
    }
    return out;
}

}  // namespace kestrel
