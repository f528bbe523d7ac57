#include "kestrel/optim/logistic_objective.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "kestrel/common/simd.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/optim/row_block_sums.hpp"

namespace kestrel {
namespace {

// Xᵀ R for an n x k matrix R, without densifying a sparse X.
Eigen::MatrixXd transpose_times(const Features& X, const Eigen::MatrixXd& R) {
    if (X.is_sparse()) return X.sparse_ref().transpose() * R;
    return X.dense_ref().transpose() * R;
}

}  // namespace

// ---- binary ----------------------------------------------------------------------
// Dense rows go through each sum in one pass (a row's margin, then its terms added into the
// gradient), on the fit's threads in fixed blocks of rows (optim/row_block_sums): the same
// bits at any thread count. Sparse rows keep Eigen's two products, whose per-block partial
// gradients would be as wide as the features.

BinaryLogisticObjective::BinaryLogisticObjective(const Features& X, Vector y, Vector cost, bool fit_intercept,
                                                 int threads)
    : X_(X), y_(std::move(y)), cost_(std::move(cost)), d_(X.cols()), fit_intercept_(fit_intercept),
      threads_(std::max(1, threads)) {
    if (y_.size() != X.rows() || cost_.size() != X.rows())
        throw InternalError("BinaryLogisticObjective: y, cost and X disagree on the number of rows");
}

Vector BinaryLogisticObjective::margins(const Vector& w) const {
    Vector z = X_.multiply(Vector(w.head(d_)));
    if (fit_intercept_) z.array() += w[d_];
    return z;
}

std::unique_ptr<double[]> BinaryLogisticObjective::block_margins(const Vector& w, Index first, Index end) const {
    // Not zeroed: every entry is written.
    auto z = std::make_unique_for_overwrite<double[]>(static_cast<std::size_t>(end - first));
    simd_loops().dot_rows(w.data(), X_.dense_ref().data() + first * d_, end - first, d_, z.get());
    if (fit_intercept_)
        for (Index r = 0; r < end - first; ++r) z[r] += w[d_];
    return z;
}

std::unique_ptr<double[]> BinaryLogisticObjective::exp_minus_abs_margins(Index first, Index end,
                                                                         const double* z) const {
    auto e = std::make_unique_for_overwrite<double[]>(static_cast<std::size_t>(end - first));
    for (Index r = 0; r < end - first; ++r) e[r] = -std::abs(y_[first + r] * z[r]);
    simd_loops().exp_inplace(e.get(), end - first);
    return e;
}

void BinaryLogisticObjective::add_block_rows(Index first, Index end, const double* a, double* out) const {
    simd_loops().add_weighted_rows(a, X_.dense_ref().data() + first * d_, end - first, d_, out);
    for (Index r = 0; r < end - first; ++r) out[d_] += a[r];
}

double BinaryLogisticObjective::value_gradient(const Vector& w, Vector& grad) {
    const Index n = X_.rows();
    curvature_.resize(n);
    grad.resize(dimension());
    double loss = 0;
    if (!X_.is_sparse()) {
        // Per block: [∂w (d), ∂b, loss].
        const Vector sums = sum_over_row_blocks(n, d_ + 2, threads_, [&](Index first, Index end, double* out) {
            const std::unique_ptr<double[]> a = block_margins(w, first, end);
            const std::unique_ptr<double[]> e = exp_minus_abs_margins(first, end, a.get());
            for (Index i = first; i < end; ++i) {
                double& ai = a[i - first];
                const LogisticLossTerms terms = logistic_loss_terms(y_[i] * ai, e[i - first]);
                out[d_ + 1] += cost_[i] * terms.loss;
                curvature_[i] = cost_[i] * terms.p_wrong * (1.0 - terms.p_wrong);
                ai = -y_[i] * cost_[i] * terms.p_wrong;  // ∂loss_i/∂z_i
            }
            add_block_rows(first, end, a.get(), out);
        });
        loss = sums[d_ + 1];
        grad.head(d_) = penalty_ * w.head(d_) + sums.head(d_);
        if (fit_intercept_) grad[d_] = sums[d_];
    } else {
        const Vector z = margins(w);
        Vector dz(n);
        for (Index i = 0; i < n; ++i) {
            const LogisticLossTerms terms = logistic_loss_terms(y_[i] * z[i]);
            loss += cost_[i] * terms.loss;
            dz[i] = -y_[i] * cost_[i] * terms.p_wrong;
            curvature_[i] = cost_[i] * terms.p_wrong * (1.0 - terms.p_wrong);
        }
        grad.head(d_) = penalty_ * w.head(d_) + X_.transpose_multiply(dz);
        if (fit_intercept_) grad[d_] = dz.sum();
    }
    return 0.5 * penalty_ * w.head(d_).squaredNorm() + loss;
}

double BinaryLogisticObjective::value(const Vector& w) {
    double loss = 0;
    if (!X_.is_sparse()) {
        loss = sum_over_row_blocks(X_.rows(), 1, threads_, [&](Index first, Index end, double* out) {
            const std::unique_ptr<double[]> z = block_margins(w, first, end);
            const std::unique_ptr<double[]> e = exp_minus_abs_margins(first, end, z.get());
            for (Index i = first; i < end; ++i) out[0] += cost_[i] * logistic_loss_terms(y_[i] * z[i - first], e[i - first]).loss;
        })[0];
    } else {
        const Vector z = margins(w);
        for (Index i = 0; i < z.size(); ++i) loss += cost_[i] * log1p_exp(-y_[i] * z[i]);
    }
    return 0.5 * penalty_ * w.head(d_).squaredNorm() + loss;
}

void BinaryLogisticObjective::hessian_vector(const Vector& v, Vector& out) const {
    if (curvature_.size() != X_.rows())
        throw InternalError("BinaryLogisticObjective::hessian_vector before value_gradient");
    out.resize(dimension());
    if (!X_.is_sparse()) {
        // Per block: [∂w (d), ∂b] of Σ ½ curvature_i (x_iᵀv + v_b)².
        const Vector sums = sum_over_row_blocks(X_.rows(), d_ + 1, threads_, [&](Index first, Index end, double* acc) {
            const std::unique_ptr<double[]> a = block_margins(v, first, end);
            for (Index i = first; i < end; ++i) a[i - first] *= curvature_[i];
            add_block_rows(first, end, a.get(), acc);
        });
        out.head(d_) = penalty_ * v.head(d_) + sums.head(d_);
        if (fit_intercept_) out[d_] = sums[d_];
        return;
    }
    Vector u = X_.multiply(Vector(v.head(d_)));
    if (fit_intercept_) u.array() += v[d_];
    const Vector r = curvature_.cwiseProduct(u);
    out.head(d_) = penalty_ * v.head(d_) + X_.transpose_multiply(r);
    if (fit_intercept_) out[d_] = r.sum();
}

// ---- multinomial -----------------------------------------------------------------

// Dense rows: each block of rows (optim/row_block_sums) takes its scores and its share of
// Xᵀ R as two small matrix products, on the fit's threads; sparse rows: Eigen's products over
// all rows, whose per-block partial gradients would be as wide as the features times k.

MultinomialLogisticObjective::MultinomialLogisticObjective(const Features& X, Vector y, Index k, Vector cost,
                                                           bool fit_intercept, int threads)
    : X_(X), y_(std::move(y)), cost_(std::move(cost)), d_(X.cols()), k_(k), fit_intercept_(fit_intercept),
      threads_(std::max(1, threads)) {
    if (y_.size() != X.rows() || cost_.size() != X.rows())
        throw InternalError("MultinomialLogisticObjective: y, cost and X disagree on the number of rows");
}

Eigen::MatrixXd MultinomialLogisticObjective::scores(const Vector& w) const {
    const Eigen::MatrixXd W = Eigen::Map<const Eigen::MatrixXd>(w.data(), d_, k_);
    Eigen::MatrixXd Z = X_.multiply(W);
    if (fit_intercept_) Z.rowwise() += w.segment(d_ * k_, k_).transpose();
    return Z;
}

void MultinomialLogisticObjective::pack_gradient(const Vector& w, const Eigen::MatrixXd& R, Vector& grad) const {
    grad.resize(dimension());
    Eigen::Map<Eigen::MatrixXd> G(grad.data(), d_, k_);
    G = penalty_ * Eigen::Map<const Eigen::MatrixXd>(w.data(), d_, k_) + transpose_times(X_, R);
    if (fit_intercept_) grad.segment(d_ * k_, k_) = R.colwise().sum().transpose();
}

// Row i's scores z (k of them, X W + b) become its softmax p; returns cost_i·(log Σ exp z − z_y).
double MultinomialLogisticObjective::softmax_row(Index i, double* z) const {
    // log-sum-exp shifted by the row maximum: exp never overflows.
    const auto yi = static_cast<Index>(y_[i]);
    const double z_true = z[yi];
    double m = z[0];
    for (Index c = 1; c < k_; ++c) m = std::max(m, z[c]);
    double s = 0;
    for (Index c = 0; c < k_; ++c) s += z[c] = std::exp(z[c] - m);
    for (Index c = 0; c < k_; ++c) z[c] /= s;
    return cost_[i] * (m + std::log(s) - z_true);
}

template <class BlockTerms>
Vector MultinomialLogisticObjective::sum_dense(const Vector& w, Index width, BlockTerms&& block_terms) const {
    const DenseView X = X_.dense_ref();
    const SimdLoops& loops = simd_loops();
    // W (d x k, column-major) is Wᵀ row-major: class c's weights are the d values at c·d.
    const double* Wt = w.data();
    return sum_over_row_blocks(X.rows(), width, threads_, [&](Index first, Index end, double* out) {
        const Index m = end - first;
        const double* rows = X.data() + first * d_;
        // Row-major so that each row's k scores are contiguous.
        Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Z(m, k_);
        for (Index r = 0; r < m; ++r) loops.dot_rows(rows + r * d_, Wt, k_, d_, Z.row(r).data());
        if (fit_intercept_) Z.rowwise() += w.segment(d_ * k_, k_).transpose();
        block_terms(first, Z, out);
        // out = [ (block's own values), ∂W (d x k column-major), ∂b (k) ] from the block's R = Z:
        // class c's gradient is Σ_r R_rc x_r.
        double* dW = out + width - d_ * k_ - k_;
        double* db = out + width - k_;
        Vector a(m);
        for (Index c = 0; c < k_; ++c) {
            a = Z.col(c);
            loops.add_weighted_rows(a.data(), rows, m, d_, dW + c * d_);
            for (Index r = 0; r < m; ++r) db[c] += a[r];
        }
    });
}

double MultinomialLogisticObjective::value_gradient(const Vector& w, Vector& grad) {
    const Index n = X_.rows(), dk = d_ * k_;
    if (!X_.is_sparse()) {
        proba_.resize(n, k_);
        // Per row: [loss, ∂W (d x k), ∂b (k)].
        const Vector sums = sum_dense(w, 1 + dk + k_, [&](Index first, auto& Z, double* out) {
            for (Index r = 0; r < Z.rows(); ++r) {
                const Index i = first + r;
                out[0] += softmax_row(i, Z.row(r).data());
                proba_.row(i) = Z.row(r);
                Z.row(r) *= cost_[i];
                Z(r, static_cast<Index>(y_[i])) -= cost_[i];
            }
        });
        grad.resize(dimension());
        Eigen::Map<Vector>(grad.data(), dk) = penalty_ * w.head(dk) + sums.segment(1, dk);
        if (fit_intercept_) grad.segment(dk, k_) = sums.tail(k_);
        return 0.5 * penalty_ * w.head(dk).squaredNorm() + sums[0];
    }
    proba_ = scores(w);
    Eigen::MatrixXd R(n, k_);
    double loss = 0;
    for (Index i = 0; i < n; ++i) {
        loss += softmax_row(i, proba_.row(i).data());
        R.row(i) = cost_[i] * proba_.row(i);
        R(i, static_cast<Index>(y_[i])) -= cost_[i];
    }
    pack_gradient(w, R, grad);
    return 0.5 * penalty_ * w.head(d_ * k_).squaredNorm() + loss;
}

double MultinomialLogisticObjective::value(const Vector& w) {
    const Eigen::MatrixXd Z = scores(w);
    double loss = 0;
    for (Index i = 0; i < Z.rows(); ++i) {
        const double m = Z.row(i).maxCoeff();
        loss += cost_[i] * (m + std::log((Z.row(i).array() - m).exp().sum()) - Z(i, static_cast<Index>(y_[i])));
    }
    return 0.5 * penalty_ * w.head(d_ * k_).squaredNorm() + loss;
}

void MultinomialLogisticObjective::hessian_vector(const Vector& v, Vector& out) const {
    if (proba_.rows() != X_.rows())
        throw InternalError("MultinomialLogisticObjective::hessian_vector before value_gradient");
    // Per row the Hessian of the loss in z is cost_i (diag(p) - p pᵀ).
    const auto curvature_times = [&](Index i, auto u) {
        const auto p = proba_.row(i);
        const double pu = p.dot(u);
        u = cost_[i] * (p.array() * (u.array() - pu)).matrix();
    };
    if (!X_.is_sparse()) {
        const Index dk = d_ * k_;
        // Per row: [∂W (d x k), ∂b (k)] of ½ uᵀ H_i u, u = the row's scores under v.
        const Vector sums = sum_dense(v, dk + k_, [&](Index first, auto& U, double*) {
            for (Index r = 0; r < U.rows(); ++r) curvature_times(first + r, U.row(r));
        });
        out.resize(dimension());
        Eigen::Map<Vector>(out.data(), dk) = penalty_ * v.head(dk) + sums.head(dk);
        if (fit_intercept_) out.segment(dk, k_) = sums.tail(k_);
        return;
    }
    Eigen::MatrixXd U = scores(v);
    for (Index i = 0; i < U.rows(); ++i) curvature_times(i, U.row(i));
    pack_gradient(v, U, out);
}

}  // namespace kestrel
