#include "kestrel/linear/huber_objective.hpp"

#include <algorithm>
#include <cmath>

#include "kestrel/common/row_access.hpp"
#include "kestrel/optim/row_block_sums.hpp"

namespace kestrel {

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
    // Per row: [loss, ∂w (d), ∂b, ∂σ].
    const auto run = [&](const auto& rows) {
        return sum_over_row_blocks(n, d_ + 3, threads_, [&](Index first, Index end, double* out) {
            double* gw = out + 1;
            for (Index i = first; i < end; ++i) {
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
        });
    };
    const Vector sums = X_.is_sparse() ? run(rows::Sparse{X_.sparse_ref().isCompressed() ? X_.sparse_ref() : scratch_})
                                       : run(rows::Dense{X_.dense_ref()});

    const double total = s_.sum();
    grad.setZero(dim);
    double loss = sums[0];
    grad.head(d_) = sums.segment(1, d_);
    if (fit_intercept_) grad[d_] = sums[d_ + 1];
    grad[dim - 1] = sums[d_ + 2];
    const Eigen::Map<const Vector> wv(w, d_);
    loss += total * sigma + alpha_ * wv.squaredNorm();
    grad.head(d_) += 2 * alpha_ * wv;
    grad[dim - 1] += total;
    return loss;
}

}  // namespace kestrel
