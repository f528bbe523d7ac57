#include "kestrel/optim/pegasos.hpp"

#include <cmath>
#include <numeric>
#include <vector>

#include "kestrel/common/row_access.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {
namespace {

template <class Rows>
Vector run(const Rows& rows, const Vector& y, const Vector& cost, Index n, Index d, const PegasosOptions& o) {
    const bool has_bias = o.bias > 0;
    const double lambda = 1.0 / (o.C * static_cast<double>(n));
    const double radius2 = (o.squared ? 2.0 * cost.mean() : cost.maxCoeff()) / o.C / lambda;
    // ŵ = scale · v: the shrink (1 − η_t λ) is then O(1) instead of O(d).
    Vector v = Vector::Zero(d + (has_bias ? 1 : 0));
    double scale = 1.0, v_norm2 = 0;
    std::vector<Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Index{0});
    Rng rng(o.seed);
    double t = 0;
    for (int epoch = 0; epoch < o.epochs; ++epoch) {
        interruption_point();
        rng.shuffle(order);
        for (const Index i : order) {
            t += 1;
            const double eta = 1.0 / (lambda * t);
            const double shrink = 1.0 - 1.0 / t;  // 1 − η_t λ
            const double vx = rows.dot(i, v.data()) + (has_bias ? o.bias * v[d] : 0.0);
            const double margin = 1.0 - y[i] * scale * vx;
            if (shrink == 0) {  // t = 1: ŵ restarts from 0
                v.setZero();
                scale = 1.0;
                v_norm2 = 0;
            } else {
                scale *= shrink;
            }
            if (margin > 0 && cost[i] > 0) {
                const double a = eta * (cost[i] / o.C) * y[i] * (o.squared ? 2.0 * margin : 1.0) / scale;
                const double xx = rows.squared_norm(i) + (has_bias ? o.bias * o.bias : 0.0);
                const double vx_now = shrink == 0 ? 0.0 : vx;
                v_norm2 += 2 * a * vx_now + a * a * xx;
                rows.axpy(i, a, v.data());
                if (has_bias) v[d] += a * o.bias;
            }
            if (o.project) {
                const double norm2 = scale * scale * v_norm2;
                if (norm2 > radius2) scale *= std::sqrt(radius2 / norm2);
            }
            // Keep v in range: fold the scale back before it underflows.
            if (scale < 1e-9) {
                v *= scale;
                v_norm2 = v.squaredNorm();
                scale = 1.0;
            }
        }
        v_norm2 = v.squaredNorm();  // drop the incremental updates' rounding once per epoch
    }
    return scale * v;
}

}  // namespace

Vector solve_pegasos(const Features& X, const Vector& y, const Vector& cost, const PegasosOptions& o) {
    if (y.size() != X.rows() || cost.size() != X.rows())
        throw InternalError("solve_pegasos: y, cost and X disagree on the number of rows");
    SparseMatrix scratch;
    return rows::visit(X, scratch, [&](const auto& rows) { return run(rows, y, cost, X.rows(), X.cols(), o); });
}

}  // namespace kestrel
