#include <Eigen/Dense>

#include "kestrel/multiclass/multiclass_wrapper.hpp"

namespace kestrel {

// Method 2 of Wu, Lin & Weng (2004): minimise Σ_i Σ_{j≠i} (r_ji p_i − r_ij p_j)² subject
// to Σ p = 1, p ≥ 0, solved by the fixed-point iteration of their Algorithm 2
// (the form LIBSVM uses). Q_ii = Σ_{j≠i} r_ji², Q_ij = −r_ji r_ij.
Vector pairwise_coupling(const Matrix& r) {
    const Index k = r.rows();
    Matrix q = Matrix::Zero(k, k);
    for (Index t = 0; t < k; ++t)
        for (Index j = 0; j < k; ++j) {
            if (j == t) continue;
            q(t, t) += r(j, t) * r(j, t);
            q(t, j) = -r(j, t) * r(t, j);
        }
    Vector p = Vector::Constant(k, 1.0 / static_cast<double>(k));
    Vector qp = q * p;
    const int max_iter = std::max<int>(100, static_cast<int>(k));
    const double eps = 0.005 / static_cast<double>(k);
    for (int iter = 0; iter < max_iter; ++iter) {
        double pqp = p.dot(qp);
        if ((qp.array() - pqp).abs().maxCoeff() < eps) break;
        for (Index t = 0; t < k; ++t) {
            const double diff = (-qp[t] + pqp) / q(t, t);
            p[t] += diff;
            const double scale = 1.0 + diff;
            pqp = (pqp + diff * (diff * q(t, t) + 2 * qp[t])) / (scale * scale);
            qp = (qp + diff * q.col(t)) / scale;
            p /= scale;
        }
    }
    return p;
}

}  // namespace kestrel
