#include "kestrel/kernel_methods/klr_newton.hpp"

#include <Eigen/LU>
#include <cmath>

#include "kestrel/common/logistic_math.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/kernel_methods/spd_solve.hpp"

namespace kestrel {

namespace {

double loss(const Vector& f, const Vector& y, const Vector& cost) {
    double s = 0;
    for (Index i = 0; i < f.size(); ++i) s += cost[i] * log1p_exp(-y[i] * f[i]);
    return s;
}

}  // namespace

KlrNewtonResult solve_klr_newton(const DenseMatrix& K, const Vector& y, const Vector& cost, double tol,
                                 int max_iter, int threads) {
    const Index n = K.rows();
    KlrNewtonResult r;
    r.a = Vector::Zero(n);
    Vector Ka = Vector::Zero(n);
    for (int it = 0; it <= max_iter; ++it) {
        interruption_point();
        const Vector f = Ka.array() + r.b;
        Vector g(n), W(n);
        for (Index i = 0; i < n; ++i) {
            g[i] = -cost[i] * y[i] * sigmoid(-y[i] * f[i]);
            W[i] = cost[i] * sigmoid(f[i]) * sigmoid(-f[i]);
        }
        const Vector ga = g + r.a;
        const Vector grad_a = parallel_multiply(K, ga, threads);
        const double grad_b = g.sum();
        r.grad_norm = std::sqrt(grad_a.squaredNorm() + grad_b * grad_b);
        if (it == 0) r.initial_grad_norm = r.grad_norm;
        if (r.grad_norm <= tol * std::max(1.0, r.initial_grad_norm)) {
            r.converged = true;
            break;
        }
        if (it == max_iter) break;
        r.iterations = it + 1;
        Eigen::MatrixXd B(n + 1, n + 1);
        for (Index i = 0; i < n; ++i) {
            B.block(i, 0, 1, n) = W[i] * K.row(i);
            B(i, i) += 1.0;
            B(i, n) = W[i];
        }
        B.block(n, 0, 1, n) = (K * W).transpose();  // K symmetric: 1ᵀ W K = (K W)ᵀ
        B(n, n) = W.sum();
        Vector rhs(n + 1);
        rhs.head(n) = -ga;
        rhs[n] = -grad_b;
        const Vector step = B.partialPivLu().solve(rhs);
        const Vector da = step.head(n);
        const double db = step[n];
        const Vector Kda = parallel_multiply(K, da, threads);
        // Backtracking (Armijo) along the Newton direction; the quadratic term is exact.
        const double aKa = r.a.dot(Ka), daKa = da.dot(Ka), daKda = da.dot(Kda);
        const double f0 = 0.5 * aKa + loss(f, y, cost);
        const double slope = grad_a.dot(da) + grad_b * db;
        if (!(slope < 0)) break;  // no descent left at rounding level
        double t = 1.0;
        bool moved = false;
        for (int ls = 0; ls < 50; ++ls, t *= 0.5) {
            const Vector ft = f + t * (Kda.array() + db).matrix();
            const double ft_val = 0.5 * aKa + t * daKa + 0.5 * t * t * daKda + loss(ft, y, cost);
            if (ft_val <= f0 + 1e-4 * t * slope) {
                moved = true;
                break;
            }
        }
        if (!moved) break;
        r.a += t * da;
        r.b += t * db;
        Ka += t * Kda;
    }
    return r;
}

}  // namespace kestrel
