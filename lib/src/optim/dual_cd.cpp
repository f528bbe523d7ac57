#include "kestrel/optim/dual_cd.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "dual_cd_loop.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/common/row_access.hpp"

namespace kestrel {
namespace {


// Per-row constants of the dual: the box U_i and the diagonal shift D_ii.
void box_and_diag(const DualCdProblem& p, Index i, double& upper, double& diag) {
    const double c = p.cost[i];
    if (p.loss == SvmLoss::hinge) {
        upper = c;
        diag = 0;
    } else {
        upper = c > 0 ? dual_cd::kInfinity : 0.0;
        diag = c > 0 ? 0.5 / c : 0.0;
    }
}

// LIBLINEAR's solve_l2r_l1l2_svc step, line for line where it matters: the projected
// gradient, a row at its bound shrunk when its gradient lies beyond the previous pass's PG
// extremes, and the clipped Newton step; a pass stops the solver when max PG - min PG <= eps.
template <class Rows>
struct SvcStep {
    const DualCdProblem& p;
    dual_cd::BiasedRows<Rows> rows;
    const std::vector<double>& qd;
    const std::vector<double>& upper;
    const std::vector<double>& diag;
    Vector& alpha;
    double* w;
    double pg_max_old = dual_cd::kInfinity, pg_min_old = -dual_cd::kInfinity;
    double pg_max = -dual_cd::kInfinity, pg_min = dual_cd::kInfinity;

    void begin_pass() {
        pg_max = -dual_cd::kInfinity;
        pg_min = dual_cd::kInfinity;
    }
    bool update(Index i) {
        const double yi = p.y[i];
        double g = yi * (rows.rows.dot(i, w) + rows.bias_term(w)) - 1.0;
        const double a = alpha[i], u = upper[i];
        g += a * diag[i];
        double pg = 0;
        if (a == 0) {
            if (g > pg_max_old) return false;  // at its bound and likely to stay there
            if (g < 0) pg = g;
        } else if (a == u) {
            if (g < pg_min_old) return false;
            if (g > 0) pg = g;
        } else {
            pg = g;
        }
        pg_max = std::max(pg_max, pg);
        pg_min = std::min(pg_min, pg);
        if (std::fabs(pg) > 1e-12) {
            const double a_new = std::min(std::max(a - g / qd[i], 0.0), u);
            alpha[i] = a_new;
            rows.axpy(i, (a_new - a) * yi, w);
        }
        return true;
    }
    // A pass with every row shrunk away leaves pg_max = -dual_cd::kInfinity: nothing moved, optimal.
    bool end_pass(double eps, bool) {
        if (pg_max - pg_min <= eps) return true;
        pg_max_old = pg_max <= 0 ? dual_cd::kInfinity : pg_max;
        pg_min_old = pg_min >= 0 ? -dual_cd::kInfinity : pg_min;
        return false;
    }
    void forget_bounds() {
        pg_max_old = dual_cd::kInfinity;
        pg_min_old = -dual_cd::kInfinity;
    }
};

template <class Rows>
DualCdResult solve(const DualCdProblem& p, const DualCdOptions& o, const Rows& rows) {
    const Index n = p.X.rows(), d = p.X.cols();
    const double b = p.bias;
    DualCdResult r;
    r.w = Vector::Zero(d + (b > 0 ? 1 : 0));
    r.alpha = Vector::Zero(n);
    std::vector<double> qd(static_cast<std::size_t>(n)), upper(qd.size()), diag(qd.size());
    std::vector<Index> index;
    index.reserve(qd.size());
    for (Index i = 0; i < n; ++i) {
        box_and_diag(p, i, upper[i], diag[i]);
        qd[i] = diag[i] + rows.squared_norm(i) + b * b;
        // A row without loss never moves. A hinge row that is all zeros (and no bias)
        // has G_i = -1 whatever w: its optimum is α_i = U_i, which leaves w alone.
        if (upper[i] > 0 && qd[i] > 0)
            index.push_back(i);
        else if (upper[i] > 0)
            r.alpha[i] = upper[i];
    }
    SvcStep<Rows> step{p, {rows, d, b}, qd, upper, diag, r.alpha, r.w.data()};
    dual_cd::run(step, index, o, r);
    double v = r.w.squaredNorm();
    for (Index i = 0; i < n; ++i) v += r.alpha[i] * (r.alpha[i] * diag[i] - 2.0);
    r.dual_objective = 0.5 * v;
    return r;
}

}  // namespace

DualCdResult solve_dual_cd(const DualCdProblem& problem, const DualCdOptions& options) {
    if (problem.y.size() != problem.X.rows() || problem.cost.size() != problem.X.rows())
        throw InternalError("solve_dual_cd: y, cost and X disagree on the number of rows");
    SparseMatrix scratch;
    return rows::visit(problem.X, scratch, [&](const auto& rows) { return solve(problem, options, rows); });
}

double svm_primal_objective(const DualCdProblem& p, const Vector& w) {
    const Index d = p.X.cols();
    Vector z = p.X.multiply(Vector(w.head(d)));
    if (p.bias > 0) z.array() += p.bias * w[d];
    double loss = 0;
    for (Index i = 0; i < z.size(); ++i) {
        const double m = std::max(0.0, 1.0 - p.y[i] * z[i]);
        loss += p.cost[i] * (p.loss == SvmLoss::hinge ? m : m * m);
    }
    return 0.5 * w.squaredNorm() + loss;
}

Vector svm_dual_gradient(const DualCdProblem& p, const DualCdResult& r) {
    const Index d = p.X.cols();
    Vector z = p.X.multiply(Vector(r.w.head(d)));
    if (p.bias > 0) z.array() += p.bias * r.w[d];
    Vector g(z.size());
    for (Index i = 0; i < z.size(); ++i) {
        double upper = 0, diag = 0;
        box_and_diag(p, i, upper, diag);
        g[i] = p.y[i] * z[i] - 1.0 + diag * r.alpha[i];
    }
    return g;
}

}  // namespace kestrel
