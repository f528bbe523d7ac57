#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "dual_cd_loop.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/common/row_access.hpp"
#include "kestrel/optim/dual_cd.hpp"

namespace kestrel {
namespace {


// LIBLINEAR 2.3's solve_l2r_l1l2_svr step: the one-variable problem ½Hd² + G d + p|β+d|
// solved exactly (then clipped to the box), a row at a bound or at zero shrunk when its
// gradient lies beyond the previous pass's largest violation; a pass stops the solver when
// the summed violation is at most eps times that of the first pass.
template <class Rows>
struct SvrStep {
    const SvrDualProblem& p;
    dual_cd::BiasedRows<Rows> rows;
    const std::vector<double>& qd;
    const std::vector<double>& upper;
    const std::vector<double>& lambda;
    Vector& betas;
    double* w;
    double g_max_old = dual_cd::kInfinity, g_norm1_init = -1;
    double g_max = 0, g_norm1 = 0;

    void begin_pass() {
        g_max = 0;
        g_norm1 = 0;
    }
    bool update(Index i) {
        const double eps_ins = p.epsilon;
        const double beta = betas[i], u = upper[i];
        const double g = -p.y[i] + lambda[i] * beta + rows.rows.dot(i, w) + rows.bias_term(w);
        const double h = qd[i] + lambda[i];
        const double gp = g + eps_ins, gn = g - eps_ins;
        double violation = 0;
        if (beta == 0) {
            if (gp < 0)
                violation = -gp;
            else if (gn > 0)
                violation = gn;
            else if (gp > g_max_old && gn < -g_max_old)
                return false;
        } else if (beta >= u) {
            if (gp > 0)
                violation = gp;
            else if (gp < -g_max_old)
                return false;
        } else if (beta <= -u) {
            if (gn < 0)
                violation = -gn;
            else if (gn > g_max_old)
                return false;
        } else {
            violation = beta > 0 ? std::fabs(gp) : std::fabs(gn);
        }
        g_max = std::max(g_max, violation);
        g_norm1 += violation;

        double step = gp < h * beta ? -gp / h : (gn > h * beta ? -gn / h : -beta);
        if (std::fabs(step) < 1e-12) return true;
        const double beta_new = std::min(std::max(beta + step, -u), u);
        step = beta_new - beta;
        betas[i] = beta_new;
        if (step != 0) rows.axpy(i, step, w);
        return true;
    }
    bool end_pass(double eps, bool first_pass) {
        if (first_pass) g_norm1_init = g_norm1;
        if (g_norm1 <= eps * g_norm1_init) return true;
        g_max_old = g_max;
        return false;
    }
    void forget_bounds() { g_max_old = dual_cd::kInfinity; }
};

template <class Rows>
DualCdResult solve(const SvrDualProblem& p, const DualCdOptions& o, const Rows& rows) {
    const Index n = p.X.rows(), d = p.X.cols();
    const double b = p.bias;
    DualCdResult r;
    r.w = Vector::Zero(d + (b > 0 ? 1 : 0));
    r.alpha = Vector::Zero(n);
    std::vector<double> qd(static_cast<std::size_t>(n)), upper(qd.size()), lambda(qd.size());
    std::vector<Index> index;
    for (Index i = 0; i < n; ++i) {
        const double c = p.cost[i];
        upper[i] = p.loss == SvmLoss::hinge ? c : (c > 0 ? dual_cd::kInfinity : 0.0);
        lambda[i] = p.loss == SvmLoss::hinge || c <= 0 ? 0.0 : 0.5 / c;
        qd[i] = rows.squared_norm(i) + b * b;
        // A row without loss, or with no features at all, never moves w: leave it out.
        if (upper[i] > 0 && qd[i] + lambda[i] > 0) index.push_back(i);
    }
    SvrStep<Rows> step{p, {rows, d, b}, qd, upper, lambda, r.alpha, r.w.data()};
    dual_cd::run(step, index, o, r);
    double v = 0.5 * r.w.squaredNorm();
    for (Index i = 0; i < n; ++i) {
        const double beta = r.alpha[i];
        v += p.epsilon * std::fabs(beta) - p.y[i] * beta + 0.5 * lambda[i] * beta * beta;
    }
    r.dual_objective = v;
    return r;
}

}  // namespace

DualCdResult solve_svr_dual_cd(const SvrDualProblem& problem, const DualCdOptions& options) {
    if (problem.y.size() != problem.X.rows() || problem.cost.size() != problem.X.rows())
        throw InternalError("solve_svr_dual_cd: y, cost and X disagree on the number of rows");
    SparseMatrix scratch;
    return rows::visit(problem.X, scratch, [&](const auto& rows) { return solve(problem, options, rows); });
}

double svr_primal_objective(const SvrDualProblem& p, const Vector& w) {
    const Index d = p.X.cols();
    Vector z = p.X.multiply(Vector(w.head(d)));
    if (p.bias > 0) z.array() += p.bias * w[d];
    double loss = 0;
    for (Index i = 0; i < z.size(); ++i) {
        const double m = std::max(0.0, std::fabs(p.y[i] - z[i]) - p.epsilon);
        loss += p.cost[i] * (p.loss == SvmLoss::hinge ? m : m * m);
    }
    return 0.5 * w.squaredNorm() + loss;
}

}  // namespace kestrel
