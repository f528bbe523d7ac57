#include "kestrel/linear/squared_hinge_objective.hpp"

#include "kestrel/common/row_access.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel {

SquaredHingeObjective::SquaredHingeObjective(const Features& X, Vector y, Vector cost, double bias)
    : X_(X), y_(std::move(y)), cost_(std::move(cost)), d_(X.cols()), bias_(bias) {
    if (y_.size() != X.rows() || cost_.size() != X.rows())
        throw InternalError("SquaredHingeObjective: y, cost and X disagree on the number of rows");
    if (X.is_sparse() && !X.sparse_ref().isCompressed()) {
        compressed_ = X.sparse_ref();
        compressed_.makeCompressed();
    }
}

template <class F>
void SquaredHingeObjective::with_rows(F&& f) const {
    if (X_.is_sparse())
        f(rows::Sparse{X_.sparse_ref().isCompressed() ? X_.sparse_ref() : compressed_});
    else
        f(rows::Dense{X_.dense_ref()});
}

// Row loops rather than Eigen products: dense and sparse copies of the data then sum in
// the same order and give the same model.
Vector SquaredHingeObjective::margins(const Vector& w) const {
    Vector z(X_.rows());
    const double b = bias_ > 0 ? bias_ * w[d_] : 0.0;
    with_rows([&](const auto& rows) {
        for (Index i = 0; i < z.size(); ++i) z[i] = rows.dot(i, w.data()) + b;
    });
    return z;
}

double SquaredHingeObjective::value(const Vector& w) {
    const Vector z = margins(w);
    double loss = 0;
    for (Index i = 0; i < z.size(); ++i) {
        const double m = 1.0 - y_[i] * z[i];
        if (m > 0) loss += cost_[i] * m * m;
    }
    return 0.5 * penalty_ * w.squaredNorm() + loss;
}

double SquaredHingeObjective::value_gradient(const Vector& w, Vector& grad) {
    const Vector z = margins(w);
    const Index n = z.size();
    Vector dz(n);
    active_.clear();
    double loss = 0;
    for (Index i = 0; i < n; ++i) {
        const double m = 1.0 - y_[i] * z[i];
        if (m > 0 && cost_[i] > 0) {
            loss += cost_[i] * m * m;
            dz[i] = -2.0 * cost_[i] * y_[i] * m;
            active_.push_back(i);
        }
    }
    grad = penalty_ * w;
    double bias_sum = 0;
    with_rows([&](const auto& rows) {
        for (const Index i : active_) {
            rows.axpy(i, dz[i], grad.data());
            bias_sum += dz[i];
        }
    });
    if (bias_ > 0) grad[d_] += bias_ * bias_sum;
    return 0.5 * penalty_ * w.squaredNorm() + loss;
}

void SquaredHingeObjective::hessian_vector(const Vector& v, Vector& out) const {
    // Only the rows in I contribute: touching those alone is what makes a Newton
    // iteration cheap once most points are outside the margin.
    out = penalty_ * v;
    double* o = out.data();
    const double* vp = v.data();
    const bool has_bias = bias_ > 0;
    const double vb = has_bias ? v[d_] : 0.0;
    double bias_sum = 0;
    with_rows([&](const auto& rows) {
        for (const Index i : active_) {
            const double u = 2.0 * cost_[i] * (rows.dot(i, vp) + bias_ * vb);
            rows.axpy(i, u, o);
            bias_sum += u;
        }
    });
    if (has_bias) o[d_] += bias_ * bias_sum;
}

}  // namespace kestrel
