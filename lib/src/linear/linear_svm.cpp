#include "kestrel/linear/linear_svm.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "kestrel/common/class_weight.hpp"
#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/linear/c_search.hpp"
#include "kestrel/linear/squared_hinge_objective.hpp"
#include "kestrel/optim/crammer_singer.hpp"
#include "kestrel/optim/dual_cd.hpp"
#include "kestrel/optim/l1_svm.hpp"
#include "kestrel/optim/pegasos.hpp"
#include "kestrel/optim/objective_over_rows.hpp"
#include "kestrel/optim/tron.hpp"

namespace kestrel {
namespace {
// Seed streams of the solvers' row / coordinate orders: any fixed numbers, so that the
// fit depends on the context's seed only.
constexpr std::uint64_t kSvmPermutationStream = 0x51f3;
constexpr std::uint64_t kL1Stream = 0x51f5;
constexpr std::uint64_t kCsStream = 0x51f4;
constexpr std::uint64_t kPegasosStream = 0x9e6a;
constexpr std::uint64_t kSvmCSearchStream = 0xc5ea;

enum class Solver { dual, primal, l1_cd, pegasos };

// The default tolerance of each solver is LIBLINEAR's default -e for it.
double tolerance(const LinearSvmParams& p, Solver s) {
    if (p.eps.word.empty()) return p.eps.value;
    return s == Solver::dual ? 0.1 : 0.01;
}

// LIBLINEAR's primal solvers (-s 2, -s 5) scale eps by the smaller class's share, so that
// eps means the same on balanced and unbalanced data.
// The counts are the whole data's when the rows are spread over ranks.
double primal_tolerance(double eps, const Vector& y_pm, const Context& ctx) {
    Vector counts(2);
    counts << static_cast<double>((y_pm.array() > 0).count()), static_cast<double>(y_pm.size());
    sum_over_ranks(ctx, counts);
    const double pos = counts[0], n = counts[1];
    return eps * std::max(std::min(pos, n - pos), 1.0) / std::max(n, 1.0);
}

Solver pick_solver(const LinearSvmParams& p) {
    const std::string& solver = p.solver;
    const bool l1 = p.penalty == "l1";
    const bool hinge = p.hinge();
    if (l1) {
        if (hinge)
            throw ParamError("linear_svm: penalty=l1 takes loss=squared_hinge only (LIBLINEAR -s 5), not loss=hinge");
        if (solver == "dual" || solver == "pegasos")
            throw ParamError(
                "linear_svm: penalty=l1 is solved in the primal by coordinate descent: use solver=auto "
                "or solver=primal, not solver=" +
                solver);
        return Solver::l1_cd;
    }
    if (solver == "primal") {
        if (hinge)
            throw ParamError(
                "linear_svm: solver=primal (trust-region Newton) needs a differentiable loss: use "
                "loss=squared_hinge, or solver=dual for the hinge loss");
        return Solver::primal;
    }
    if (solver == "pegasos") return Solver::pegasos;
    return Solver::dual;
}

void warn_max_iter(const Context& ctx, const std::string& what, long long max_iter) {
    ctx.warning("linear_svm: " + what + " reached max_iter=" + std::to_string(max_iter) +
                "; the model is usable but not optimal (raise max_iter, loosen eps, or scale the features)");
}


struct BinaryFit {
    Vector w;  // d weights, then the bias weight when bias > 0
    double objective = 0;
};

// penalty=l1 (LIBLINEAR -s 5) on the columns of binary data, from zero.
BinaryFit solve_l1(const FeatureColumns& X, const Vector& y_pm, const Vector& cost, const LinearSvmParams& p,
                   const Context& ctx) {
    L1SvmOptions opts;
    opts.tol = primal_tolerance(tolerance(p, Solver::l1_cd), y_pm, ctx);
    opts.max_iter = static_cast<int>(p.max_iter);
    opts.bias = p.bias();
    opts.seed = derive_seed(ctx.seed, kL1Stream);
    L1SvmResult r = solve_l1_squared_hinge(X, y_pm, cost, opts);
    if (!r.converged) warn_max_iter(ctx, "penalty=l1 coordinate descent", opts.max_iter);
    return {std::move(r.w), r.objective};
}

}  // namespace

void LinearSvm::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::classification)
        throw UsageError("linear_svm: learns classification only (for regression use linear_svr or ridge)");
    if (p_.crammer_singer) return fit_crammer_singer(data, ctx);
    if (data.n_classes() != 2)
        throw UsageError("linear_svm: binary; use multiclass=ovr or multiclass=crammer_singer for " +
                         std::to_string(data.n_classes()) + " classes");
    fit_binary(data, ctx);
}

void LinearSvm::do_fit_owned(Dataset&& data, const Context& ctx) {
    const LinearSvmParams& p = p_;
    // Only penalty=l1 at one C reads nothing but the columns: a C=auto search refits on
    // folds of the rows, and the other solvers work on the rows. The rest (and every
    // error, in the same order) is do_fit's.
    if (data.task != Task::classification || p.crammer_singer || data.n_classes() != 2 || p.C.is("auto") ||
        pick_solver(p) != Solver::l1_cd)
        return do_fit(data, ctx);
    const Vector cost = row_costs(data, p.class_weight, p.C.value), y_pm = plus_minus(data);
    const Index d = data.cols();
    const FeatureColumns columns(std::move(data.X));  // the rows' storage, rearranged
    const BinaryFit fit = solve_l1(columns, y_pm, cost, p, ctx);
    keep_binary(fit.w, fit.objective, d);
    keep_c_search(Json());
}

namespace {

// One binary fit at C. `warm` (the stacked ŵ of a neighbouring C, or empty) starts the
// primal Newton solver; the coordinate-descent solvers start from zero.
BinaryFit solve_binary(const Dataset& data, const LinearSvmParams& p, double C, const Vector& warm,
                       const Context& ctx) {
    const Solver solver = pick_solver(p);
    const Vector cost = row_costs(data, p.class_weight, C);
    const Vector y_pm = plus_minus(data);
    const double bias = p.bias();
    const double eps = tolerance(p, solver);
    const auto max_iter = static_cast<int>(p.max_iter);
    const bool hinge = p.hinge();
    BinaryFit out;
    switch (solver) {
        case Solver::dual: {
            const DualCdProblem problem{data.X, y_pm, cost, hinge ? SvmLoss::hinge : SvmLoss::squared_hinge, bias};
            DualCdOptions opts;
            opts.eps = eps;
            opts.max_iter = max_iter;
            opts.seed = derive_seed(ctx.seed, kSvmPermutationStream);
            DualCdResult r = solve_dual_cd(problem, opts);
            out.w = std::move(r.w);
            out.objective = r.dual_objective;
            if (!r.converged) warn_max_iter(ctx, "dual coordinate descent", max_iter);
            break;
        }
        case Solver::primal: {
            // Rows spread over ranks or read as a stream: the sums over rows are summed over
            // the ranks or the blocks, one of them carrying the penalty (docs/distributed.md,
            // docs/large-data.md).
            const auto make_local = [&](const Features& X, Index first) {
                return std::make_unique<SquaredHingeObjective>(X, y_pm.segment(first, X.rows()),
                                                               cost.segment(first, X.rows()), bias);
            };
            SolverResult r = minimize_over_rows(data, ctx, make_local, [&](Objective& f) {
                TronOptions opts;
                opts.tol = primal_tolerance(eps, y_pm, ctx);
                opts.max_iter = max_iter;
                opts.relative_only = true;  // LIBLINEAR's ‖g‖ ≤ eps' ‖g₀‖, g₀ at ŵ = 0 as LIBLINEAR
                Vector start = Vector::Zero(f.dimension());
                if (warm.size() == f.dimension()) {
                    Vector g0;
                    f.value_gradient(start, g0);
                    opts.reference_grad_norm = g0.norm();
                    start = warm;
                }
                return minimize_tron(f, start, opts);
            });
            out.w = std::move(r.w);
            out.objective = r.value;
            if (!r.converged)
                ctx.warning(
                    "linear_svm: solver=primal: " + r.message +
                    "; the model is usable but not optimal (raise max_iter, loosen eps, or scale the features)");
            break;
        }
        case Solver::l1_cd:
            return solve_l1(FeatureColumns(data.X), y_pm, cost, p, ctx);
        case Solver::pegasos: {
            PegasosOptions opts;
            opts.C = C;
            opts.epochs = static_cast<int>(p.epochs);
            opts.project = p.projection;
            opts.squared = !hinge;
            opts.bias = bias;
            opts.seed = derive_seed(ctx.seed, kPegasosStream);
            out.w = solve_pegasos(data.X, y_pm, cost, opts);
            const DualCdProblem problem{data.X, y_pm, cost, hinge ? SvmLoss::hinge : SvmLoss::squared_hinge, bias};
            out.objective = svm_primal_objective(problem, out.w);
            break;
        }
    }
    return out;
}

}  // namespace

void LinearSvm::fit_binary(const Dataset& data, const Context& ctx) {
    const LinearSvmParams& p = p_;
    const double bias = p.bias();
    const Index d = data.cols();
    if (p.C.is("auto")) pick_solver(p);  // refuse a bad combination before the search
    ChosenC chosen = choose_c(
        p.C, data, ctx,
        {.extra = bias * bias, .factor = p.hinge() ? 1.0 : 2.0, .seed = derive_seed(ctx.seed, kSvmCSearchStream)},
        [&](const Dataset& train, double c, const Vector& warm, const Context& quiet) {
            return solve_binary(train, p, c, warm, quiet).w;
        },
        [&](const Features& X, const Vector& w) {
            Vector z = X.multiply(Vector(w.head(d)));
            if (bias > 0) z.array() += bias * w[d];
            return Vector((z.array() > 0).select(Vector::Ones(z.size()), Vector::Zero(z.size())));
        });
    const double C = chosen.C;
    const BinaryFit fit = solve_binary(data, p, C, Vector(), ctx);
    keep_binary(fit.w, fit.objective, d);
    keep_c_search(std::move(chosen.search));
}

void LinearSvm::keep_binary(const Vector& w, double objective, Index d) {
    const double bias = p_.bias();
    objective_ = objective;
    keep(Eigen::MatrixXd(w.head(d).transpose()), Vector::Constant(1, bias > 0 ? bias * w[d] : 0.0));
}

void LinearSvm::fit_crammer_singer(const Dataset& data, const Context& ctx) {
    const LinearSvmParams& p = p_;
    if (p.penalty != "l2" || p.solver == "primal" || p.solver == "pegasos")
        throw ParamError(
            "linear_svm: multiclass=crammer_singer is LIBLINEAR's -s 4 dual solver: it takes "
            "penalty=l2 and solver=auto or dual");
    const Index k = data.n_classes(), d = data.cols();
    const double bias = p.bias();
    auto solve = [&](const Dataset& part, double C, const Context& c) {
        const Vector cost = row_costs(part, p.class_weight, C);
        CrammerSingerOptions opts;
        opts.eps = tolerance(p, Solver::dual);
        opts.max_iter = static_cast<int>(p.max_iter);
        opts.bias = bias;
        opts.seed = derive_seed(ctx.seed, kCsStream);
        CrammerSingerResult r = solve_crammer_singer(part.X, part.y, k, cost, opts);
        if (!r.converged) warn_max_iter(c, "crammer_singer", opts.max_iter);
        return r;
    };
    // The dual solver starts from zero at each C: no warm start, the same search.
    ChosenC chosen = choose_c(
        p.C, data, ctx, {.extra = bias * bias, .factor = 1.0, .seed = derive_seed(ctx.seed, kSvmCSearchStream)},
        [&](const Dataset& train, double c, const Vector&, const Context& quiet) {
            const Eigen::MatrixXd W = solve(train, c, quiet).W;
            return Vector(Eigen::Map<const Vector>(W.data(), W.size()));
        },
        [&](const Features& X, const Vector& w) {
            const Eigen::Map<const Eigen::MatrixXd> W(w.data(), d + (bias > 0 ? 1 : 0), k);
            Eigen::MatrixXd Z = X.multiply(Eigen::MatrixXd(W.topRows(d)));
            if (bias > 0) Z.rowwise() += bias * W.row(d);
            Vector cls(Z.rows());
            for (Index i = 0; i < Z.rows(); ++i) Z.row(i).maxCoeff(&cls[i]);
            return cls;
        });
    const double C = chosen.C;
    const CrammerSingerResult r = solve(data, C, ctx);
    objective_ = r.dual_objective;
    Eigen::MatrixXd coef = r.W.topRows(d).transpose();  // k x d
    Vector intercept = bias > 0 ? Vector(bias * r.W.row(d).transpose()) : Vector::Zero(k);
    if (k == 2) {
        // Binary models keep one score, positive for classes[1]: the difference of the two.
        keep(Eigen::MatrixXd(coef.row(1) - coef.row(0)), Vector::Constant(1, intercept[1] - intercept[0]));
    } else {
        keep(std::move(coef), std::move(intercept));
    }
    keep_c_search(std::move(chosen.search));
}

void LinearSvm::on_params(const Params& resolved) {
    p_ = linear_svm_params().read(resolved);
    // `multiclass` is the registry's parameter; crammer_singer is this model's own strategy.
    p_.crammer_singer = resolved.contains("multiclass") && resolved.at("multiclass") == "crammer_singer";
}

void LinearSvm::do_load_state(const Json& state) {
    // k > 2 without a wrapper: multiclass=crammer_singer, one row per class.
    load_weights(state, n_classes() <= 2 ? 1 : n_classes());
}

const ParamBinding<LinearSvmParams>& linear_svm_params() {
    using P = LinearSvmParams;
    static const ParamBinding<P> binding{
        bind(&P::loss, choice_param("loss", "squared_hinge", {"squared_hinge", "hinge"},
                                    "squared_hinge: C*max(0,1-yz)^2 (LIBLINEAR -s 1/-s 2/-s 5); hinge: "
                                    "C*max(0,1-yz) (-s 3)")
                           .like("LIBLINEAR -s 1 / -s 3; scikit-learn LinearSVC(loss=...)")),
        bind(&P::penalty, choice_param("penalty", "l2", {"l2", "l1"},
                                       "l2: ½||w||²; l1: ||w||₁ (sparse weights; squared_hinge, primal coordinate "
                                       "descent, -s 5)")
                              .like("LIBLINEAR -s 5; scikit-learn LinearSVC(penalty=...)")),
        bind(&P::solver, choice_param("solver", "auto", {"auto", "dual", "primal", "pegasos"},
                                      "auto: dual for l2, primal coordinate descent for l1; dual: dual coordinate "
                                      "descent (-s 1/-s 3); primal: trust-region Newton (-s 2; l1: -s 5); pegasos: "
                                      "stochastic sub-gradient")
                             .like("LIBLINEAR -s 1/2/3/5; scikit-learn LinearSVC(dual=True/False)")),
        bind(&P::C, c_param(1.0, "weight of the summed loss against the penalty (larger = less regularisation)",
                            "LIBLINEAR -c; scikit-learn LinearSVC(C=...)")),
        bind(&P::eps, liblinear_eps_param("stopping tolerance; auto = LIBLINEAR's default: 0.1 (dual, "
                                          "crammer_singer), 0.01 (primal, penalty=l1)")),
        max_iter_param(1000, "maximum passes (dual, l1, crammer_singer) or Newton iterations (primal)",
                       "LIBLINEAR's fixed 1000; scikit-learn max_iter"),
        fit_intercept_param("append a constant feature of value intercept_scaling; its weight is penalised like w",
                            "LIBLINEAR -B; scikit-learn fit_intercept"),
        intercept_scaling_param(),
        class_weight_param("\"\" (all 1), \"balanced\" (n/(k*n_c)) or label:weight,...; multiplies C for that class",
                           "LIBLINEAR -wi; scikit-learn class_weight"),
        bind(&P::epochs, int_param("epochs", 10, "solver=pegasos: passes over the data (each a fresh seeded permutation)")
                             .range(1.0, std::nullopt)
                             .like("Pegasos T = epochs*n; scikit-learn SGDClassifier max_iter")),
        bind(&P::projection,
             bool_param("projection", true, "solver=pegasos: project w onto the ball that holds the optimum after each step")
                 .like("Pegasos' optional projection step")),
    };
    return binding;
}

ModelInfo linear_svm_model_info() {
    ModelInfo info = model_info_of<LinearSvm>(
        "linear_svm",
        "linear SVM: L2 (squared) hinge by dual CD or primal trust-region Newton, L1 squared hinge, Crammer-Singer, "
        "Pegasos (LIBLINEAR -s 1/2/3/4/5)",
        linear_svm_params().spec(), {Task::classification},
        {.decision_function = true, .sparse_input = true, .sample_weights = true});
    info.multiclass = Multiclass::binary_only;
    info.native_strategies = {"crammer_singer"};
    info.reports = [](const Params& resolved) { return c_search_reports(linear_svm_params().read(resolved).C); };
    // On rows spread over ranks: the primal trust-region Newton solver (LIBLINEAR -s 2) on
    // sums over the ranks, two classes (a one-vs-rest wrapper's members fit on one rank).
    info.refine = [](const Capabilities& declared, const Params& resolved) {
        Capabilities c = declared;
        const LinearSvmParams p = linear_svm_params().read(resolved);
        const bool crammer_singer = resolved.contains("multiclass") && resolved.at("multiclass") == "crammer_singer";
        c.sharded_rows = p.solver == "primal" && p.penalty == "l2" && !p.hinge() && !p.C.is("auto") &&
                         p.class_weight != "balanced" && !crammer_singer;
        // On a stream the labels are held whole: balanced class weights count them as in memory.
        c.streamed_rows = p.solver == "primal" && p.penalty == "l2" && !p.hinge() && !p.C.is("auto") && !crammer_singer;
        return c;
    };
    info.search_space = linear_svm_search_space();
    return info;
}

SearchSpace linear_svm_search_space() {
    // LIBSVM grid.py's C range (2^-5..2^15).
    // The portfolio: a decade either side of LIBLINEAR's default C=1.
    return {.axes = {"C=loguniform(0.03125,32768)", "scale=standard"}, .portfolio = {"C=0.1", "C=10"}, .cost = 1};
}

}  // namespace kestrel
