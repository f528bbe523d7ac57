#include "kestrel/kernel_methods/klr_objective.hpp"

#include <cmath>

#include "kestrel/common/logistic_math.hpp"
#include "kestrel/kernel_methods/spd_solve.hpp"

namespace kestrel {

KernelLogisticObjective::KernelLogisticObjective(const DenseMatrix& K, const Vector& y, Index k, Vector cost,
                                                 int threads)
    : K_(K), y_(y), cost_(std::move(cost)), n_(K.rows()), q_(k == 2 ? 1 : k), threads_(threads) {}

double KernelLogisticObjective::value_gradient(const Vector& w, Vector& grad) {
    const Eigen::Map<const Eigen::MatrixXd> A(w.data(), n_, q_);
    const Vector b = w.segment(n_ * q_, q_);
    const Eigen::MatrixXd KA = parallel_multiply(K_, A, threads_);
    double f = 0.5 * A.cwiseProduct(KA).sum();
    Eigen::MatrixXd G(n_, q_);
    if (q_ == 1) {
        for (Index i = 0; i < n_; ++i) {
            const double yi = y_[i] > 0.5 ? 1.0 : -1.0;
            const double m = yi * (KA(i, 0) + b[0]);
            f += cost_[i] * log1p_exp(-m);
            G(i, 0) = -cost_[i] * yi * sigmoid(-m);
        }
    } else {
        for (Index i = 0; i < n_; ++i) {
            const auto yi = static_cast<Index>(y_[i]);
            Eigen::RowVectorXd z = KA.row(i) + b.transpose();
            const double top = z.maxCoeff();
            Eigen::RowVectorXd e = (z.array() - top).exp();
            const double sum = e.sum();
            f += cost_[i] * (top + std::log(sum) - z[yi]);
            G.row(i) = cost_[i] * e / sum;
            G(i, yi) -= cost_[i];
        }
    }
    grad.resize(dimension());
    Eigen::Map<Eigen::MatrixXd>(grad.data(), n_, q_) = parallel_multiply(K_, G + A, threads_);
    grad.segment(n_ * q_, q_) = G.colwise().sum().transpose();
    return f;
}

}  // namespace kestrel
