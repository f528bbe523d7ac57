#include "kestrel/linear/huber_objective.hpp"

#include <algorithm>
#include <cmath>

#include "kestrel/common/row_access.hpp"

namespace kestrel {
namespace {

// Rows per block of the parallel sum: fixed, so that the partial sums and their order
// are the same for every thread count.
constexpr Index kHuberSumBlockRows = 2048;

}  // namespace

HuberObjective::HuberObjective(const Features& X, const Vector& y, const Vector& weights, double epsilon, double alpha,
                               bool fit_intercept, int threads)
    : X_(X),
      y_(y),
      s_(weights.size() ? weights : Vector::Ones(X.rows())),
      epsilon_(epsilon),
      alpha_(alpha),
      fit_intercept_(fit_intercept),
      threads_(std::max(1, threads)),
      d_(X.cols()) {
    if (X.is_sparse() && !X.sparse_ref().isCompressed()) {
        scratch_ = X.sparse_ref();
        scratch_.makeCompressed();
    }
}

double HuberObjective::value_gradient(const Vector& theta, Vector& grad) {
    const Index n = X_.rows(), dim = dimension();
    const double* w = theta.data();
    const double b = fit_intercept_ ? theta[d_] : 0.0;
    const double sigma = theta[dim - 1];
    const double eps = epsilon_;
    const Index blocks = (n + kHuberSumBlockRows - 1) / kHuberSumBlockRows;
    // Per block: [loss, ∂w (d), ∂b, ∂σ].
    Eigen::MatrixXd partial = Eigen::MatrixXd::Zero(d_ + 3, std::max<Index>(blocks, 1));

    const auto run = [&](const auto& rows) {
#pragma omp parallel for schedule(static) num_threads(threads_)
        for (Index k = 0; k < blocks; ++k) {
            double* out = partial.col(k).data();
            double* gw = out + 1;
            const Index end = std::min(n, (k + 1) * kHuberSumBlockRows);
            for (Index i = k * kHuberSumBlockRows; i < end; ++i) {
                const double si = s_[i];
                const double r = y_[i] - rows.dot(i, w) - b;
                double dr;  // ∂loss_i/∂r
                if (std::abs(r) > eps * sigma) {
                    out[0] += si * (2 * eps * std::abs(r) - sigma * eps * eps);
                    out[d_ + 2] -= si * eps * eps;
                    dr = si * 2 * eps * (r < 0 ? -1.0 : 1.0);
                } else {
                    out[0] += si * r * r / sigma;
                    out[d_ + 2] -= si * r * r / (sigma * sigma);
                    dr = si * 2 * r / sigma;
                }
                // r falls as wᵀx_i + b rises.
                rows.axpy(i, -dr, gw);
                out[d_ + 1] -= dr;
            }
        }
    };
    if (!X_.is_sparse())
        run(rows::Dense{X_.dense_ref()});
    else
        run(rows::Sparse{X_.sparse_ref().isCompressed() ? X_.sparse_ref() : scratch_});

    const double total = s_.sum();
    grad.setZero(dim);
    double loss = 0;
    for (Index k = 0; k < partial.cols(); ++k) {
        loss += partial(0, k);
        grad.head(d_) += partial.col(k).segment(1, d_);
        if (fit_intercept_) grad[d_] += partial(d_ + 1, k);
        grad[dim - 1] += partial(d_ + 2, k);
    }
    const Eigen::Map<const Vector> wv(w, d_);
    loss += total * sigma + alpha_ * wv.squaredNorm();
    grad.head(d_) += 2 * alpha_ * wv;
    grad[dim - 1] += total;
    return loss;
}

}  // namespace kestrel
