#include "kestrel/optim/logistic_objective.hpp"

#include <cmath>

#include "kestrel/core/error.hpp"

namespace kestrel {
namespace {

// Xᵀ R for an n x k matrix R, without densifying a sparse X.
Eigen::MatrixXd transpose_times(const Features& X, const Eigen::MatrixXd& R) {
    if (X.is_sparse()) return X.sparse_ref().transpose() * R;
    return X.dense_ref().transpose() * R;
}

}  // namespace

// ---- binary ----------------------------------------------------------------------

BinaryLogisticObjective::BinaryLogisticObjective(const Features& X, Vector y, Vector cost, bool fit_intercept)
    : X_(X), y_(std::move(y)), cost_(std::move(cost)), d_(X.cols()), fit_intercept_(fit_intercept) {
    if (y_.size() != X.rows() || cost_.size() != X.rows())
        throw InternalError("BinaryLogisticObjective: y, cost and X disagree on the number of rows");
}

Vector BinaryLogisticObjective::margins(const Vector& w) const {
    Vector z = X_.multiply(Vector(w.head(d_)));
    if (fit_intercept_) z.array() += w[d_];
    return z;
}

double BinaryLogisticObjective::value_gradient(const Vector& w, Vector& grad) {
    const Vector z = margins(w);
    const Index n = z.size();
    Vector dz(n);
    curvature_.resize(n);
    double loss = 0;
    for (Index i = 0; i < n; ++i) {
        const double t = y_[i] * z[i];
        const double p_wrong = sigmoid(-t);  // probability given to the other class
        loss += cost_[i] * log1p_exp(-t);
        dz[i] = -y_[i] * cost_[i] * p_wrong;
        curvature_[i] = cost_[i] * p_wrong * (1.0 - p_wrong);
    }
    grad.resize(dimension());
    grad.head(d_) = penalty_ * w.head(d_) + X_.transpose_multiply(dz);
    if (fit_intercept_) grad[d_] = dz.sum();
    return 0.5 * penalty_ * w.head(d_).squaredNorm() + loss;
}

double BinaryLogisticObjective::value(const Vector& w) {
    const Vector z = margins(w);
    double loss = 0;
    for (Index i = 0; i < z.size(); ++i) loss += cost_[i] * log1p_exp(-y_[i] * z[i]);
    return 0.5 * penalty_ * w.head(d_).squaredNorm() + loss;
}

void BinaryLogisticObjective::hessian_vector(const Vector& v, Vector& out) const {
    if (curvature_.size() != X_.rows())
        throw InternalError("BinaryLogisticObjective::hessian_vector before value_gradient");
    Vector u = X_.multiply(Vector(v.head(d_)));
    if (fit_intercept_) u.array() += v[d_];
    const Vector r = curvature_.cwiseProduct(u);
    out.resize(dimension());
    out.head(d_) = penalty_ * v.head(d_) + X_.transpose_multiply(r);
    if (fit_intercept_) out[d_] = r.sum();
}

// ---- multinomial -----------------------------------------------------------------

MultinomialLogisticObjective::MultinomialLogisticObjective(const Features& X, Vector y, Index k, Vector cost,
                                                           bool fit_intercept)
    : X_(X), y_(std::move(y)), cost_(std::move(cost)), d_(X.cols()), k_(k), fit_intercept_(fit_intercept) {
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

double MultinomialLogisticObjective::value_gradient(const Vector& w, Vector& grad) {
    proba_ = scores(w);
    const Index n = proba_.rows();
    Eigen::MatrixXd R(n, k_);
    double loss = 0;
    for (Index i = 0; i < n; ++i) {
        // log-sum-exp shifted by the row maximum: exp never overflows.
        auto z = proba_.row(i);
        const auto yi = static_cast<Index>(y_[i]);
        const double z_true = z[yi];
        const double m = z.maxCoeff();
        z.array() = (z.array() - m).exp();
        const double s = z.sum();
        loss += cost_[i] * (m + std::log(s) - z_true);
        z /= s;
        R.row(i) = cost_[i] * z;
        R(i, yi) -= cost_[i];
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
    Eigen::MatrixXd U = scores(v);
    for (Index i = 0; i < U.rows(); ++i) {
        const auto p = proba_.row(i);
        const double pu = p.dot(U.row(i));
        U.row(i) = cost_[i] * (p.array() * (U.row(i).array() - pu)).matrix();
    }
    pack_gradient(v, U, out);
}

}  // namespace kestrel
