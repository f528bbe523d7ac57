#include "kestrel/linear/linear_svr.hpp"

#include <cmath>

#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/linear/c_search.hpp"
#include "kestrel/optim/dual_cd.hpp"
#include "kestrel/optim/lbfgs.hpp"

namespace kestrel {
namespace {

constexpr std::uint64_t kSvrPermutationStream = 0x5f72;

// -s 11's primal: f(ŵ) = ½‖ŵ‖² + Σ_i C_i max(0, |y_i − ŵᵀx̂_i| − p)², x̂_i = [x_i; B]. Once
// differentiable, which is all L-BFGS needs.
class SquaredInsensitiveObjective : public Objective {
public:
    explicit SquaredInsensitiveObjective(const SvrDualProblem& p) : p_(p), d_(p.X.cols()) {}
    Index dimension() const override { return d_ + (p_.bias > 0 ? 1 : 0); }
    double value_gradient(const Vector& w, Vector& grad) override {
        Vector z = p_.X.multiply(Vector(w.head(d_)));
        if (p_.bias > 0) z.array() += p_.bias * w[d_];
        Vector dz(z.size());
        double loss = 0;
        for (Index i = 0; i < z.size(); ++i) {
            const double r = p_.y[i] - z[i];
            const double m = std::max(0.0, std::fabs(r) - p_.epsilon);
            loss += p_.cost[i] * m * m;
            dz[i] = -2.0 * p_.cost[i] * m * (r > 0 ? 1.0 : -1.0);
        }
        grad = w;
        grad.head(d_) += p_.X.transpose_multiply(dz);
        if (p_.bias > 0) grad[d_] += p_.bias * dz.sum();
        return 0.5 * w.squaredNorm() + loss;
    }

private:
    const SvrDualProblem& p_;
    Index d_;
};

}  // namespace

namespace {

constexpr std::uint64_t kSvrCSearchStream = 0xc5ec;

struct SvrFit {
    Vector w;  // d weights, then the bias weight when bias > 0
    double objective = 0;
};

// One fit at C; `warm` (a neighbouring C's ŵ, or empty) starts the primal L-BFGS solver,
// the dual solver always starts from zero.
SvrFit solve_at(const Dataset& data, const LinearSvrParams& p, double C, const Vector& warm, const Context& ctx) {
    const bool l1 = p.l1();
    const bool dual = p.dual;
    Vector cost = Vector::Constant(data.rows(), C);
    if (data.has_weights()) cost = cost.cwiseProduct(data.weights);
    const double bias = p.bias();
    const SvrDualProblem problem{data.X, data.y, cost, p.epsilon, l1 ? SvmLoss::hinge : SvmLoss::squared_hinge, bias};
    const double eps = p.eps.word.empty() ? p.eps.value : (dual ? 0.1 : 0.001);
    const int max_iter = static_cast<int>(p.max_iter);

    SvrFit out;
    bool converged = true;
    if (dual) {
        DualCdOptions opts;
        opts.eps = eps;
        opts.max_iter = max_iter;
        opts.seed = derive_seed(ctx.seed, kSvrPermutationStream);
        const DualCdResult r = solve_svr_dual_cd(problem, opts);
        out.w = r.w;
        converged = r.converged;
    } else {
        SquaredInsensitiveObjective f(problem);
        SolverOptions opts;
        opts.tol = eps;
        opts.max_iter = max_iter;
        const SolverResult r =
            minimize_lbfgs(f, warm.size() == f.dimension() ? warm : Vector::Zero(f.dimension()), opts);
        out.w = r.w;
        converged = r.converged;
    }
    out.objective = svr_primal_objective(problem, out.w);
    if (!converged)
        ctx.warning("linear_svr: the solver reached max_iter=" + std::to_string(max_iter) +
                    "; the model is usable but not optimal (raise max_iter, loosen eps, or scale the features)");
    return out;
}

}  // namespace

void LinearSvr::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::regression)
        throw UsageError("linear_svr: learns regression only (for classification use linear_svm)");
    const LinearSvrParams& p = p_;
    const bool l1 = p.l1();
    if (l1 && !p.dual)
        throw ParamError("linear_svr: loss=epsilon_insensitive is solved in the dual only (LIBLINEAR -s 13); "
                         "use dual=1, or loss=squared_epsilon_insensitive with dual=0 (-s 11)");
    const Index d = data.cols();
    const double bias = p.bias();
    ChosenC chosen = choose_c(
        p.C, data, ctx,
        {.extra = bias * bias, .factor = l1 ? 1.0 : 2.0, .seed = derive_seed(ctx.seed, kSvrCSearchStream)},
        [&](const Dataset& train, double c, const Vector& warm, const Context& quiet) {
            return solve_at(train, p, c, warm, quiet).w;
        },
        [&](const Features& X, const Vector& w) {
            Vector z = X.multiply(Vector(w.head(d)));
            if (bias > 0) z.array() += bias * w[d];
            return z;
        });
    const double C = chosen.C;
    const SvrFit fit = solve_at(data, p, C, Vector(), ctx);
    objective_ = fit.objective;
    keep(Vector(fit.w.head(d)), bias > 0 ? bias * fit.w[d] : 0.0);
    keep_c_search(std::move(chosen.search));
}

void LinearSvr::on_params(const Params& resolved) {
    p_ = linear_svr_params().read(resolved);
}

const ParamBinding<LinearSvrParams>& linear_svr_params() {
    using P = LinearSvrParams;
    static const ParamBinding<P> binding{
        bind(&P::loss, choice_param("loss", "epsilon_insensitive", {"epsilon_insensitive", "squared_epsilon_insensitive"},
                                    "epsilon_insensitive: C*max(0,|r|-epsilon) (-s 13); squared_...: its square (-s "
                                    "12, -s 11)")
                           .like("LIBLINEAR -s 13 / -s 12 / -s 11; scikit-learn LinearSVR(loss=...)")),
        bind(&P::dual,
             bool_param("dual", true, "dual coordinate descent (-s 12/13); 0 = primal L-BFGS, squared loss only (-s 11)")
                 .like("scikit-learn LinearSVR(dual=...)")),
        bind(&P::C, c_param(1.0, "weight of the summed loss against ½||w||²", "LIBLINEAR -c; scikit-learn C")),
        bind(&P::epsilon, real_param("epsilon", 0.1, "half width of the insensitive zone")
                              .range(0.0, std::nullopt)
                              .like("LIBLINEAR -p (default 0.1); scikit-learn epsilon (default 0)")),
        bind(&P::eps, liblinear_eps_param("stopping tolerance; auto = 0.1 (dual) or 0.001 (primal), as LIBLINEAR")),
        max_iter_param(1000, "maximum number of passes (dual) or L-BFGS iterations (primal)",
                       "LIBLINEAR's fixed 1000; scikit-learn max_iter"),
        fit_intercept_param("append a constant feature of value intercept_scaling; its weight is penalised like w",
                            "LIBLINEAR -B; scikit-learn fit_intercept"),
        intercept_scaling_param(),
    };
    return binding;
}

ModelInfo linear_svr_model_info() {
    ModelInfo info = model_info_of<LinearSvr>(
        "linear_svr", "linear SVR, L2-regularised (squared) epsilon-insensitive loss (LIBLINEAR -s 11/12/13)",
        linear_svr_params().spec(), {Task::regression}, {.sparse_input = true, .sample_weights = true});
    info.reports = [](const Params& resolved) { return c_search_reports(linear_svr_params().read(resolved).C); };
    return info;
}

}  // namespace kestrel
