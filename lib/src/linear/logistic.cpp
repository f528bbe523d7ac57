#include "kestrel/linear/logistic.hpp"

#include <cmath>
#include <memory>

#include "kestrel/common/class_weight.hpp"
#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/linear/c_search.hpp"
#include "kestrel/optim/l1_logistic.hpp"
#include "kestrel/optim/lbfgs.hpp"
#include "kestrel/optim/logistic_objective.hpp"
#include "kestrel/optim/objective_over_rows.hpp"
#include "kestrel/optim/tron.hpp"

namespace kestrel {

namespace {

constexpr std::uint64_t kLogisticCSearchStream = 0xc5eb;

// One fit at C: coefficients (rows x d), intercepts, and the solver's own vector, which
// warm-starts the next C of a C=auto search (the L1 solver always starts from zero).
struct LogisticFit {
    Eigen::MatrixXd coef;
    Vector intercept;
    Vector solution;
};

// The L1 fit (LIBLINEAR -s 6's newGLMNET) on the columns of binary data, from zero.
LogisticFit solve_l1(const FeatureColumns& X, const Vector& y_pm, const Vector& cost, const LogisticParams& p,
                     const Context& ctx) {
    L1LogisticOptions l1;
    l1.tol = p.tol;
    l1.max_iter = static_cast<int>(p.max_iter);
    l1.fit_intercept = p.fit_intercept;
    l1.seed = derive_seed(ctx.seed, 0x11c0);
    l1.threads = ctx.resolved_threads();
    const L1LogisticResult r = solve_l1_logistic(X, y_pm, cost, l1);
    LogisticFit out;
    out.coef = r.w.transpose();
    out.intercept = Vector::Constant(1, r.b);
    out.solution.resize(X.cols() + 1);
    out.solution << r.w, r.b;
    if (!r.converged)
        ctx.warning("logistic: penalty=l1 newGLMNET stopped before tol (after " + std::to_string(r.iterations) +
                    " of max_iter=" + std::to_string(l1.max_iter) +
                    " Newton iterations, or no further decrease); the model is usable but not optimal (raise "
                    "max_iter, loosen tol, or scale the features)");
    return out;
}

LogisticFit solve_at(const Dataset& data, const LogisticParams& p, double C, const Vector& warm, const Context& ctx) {
    const Index k = data.n_classes();
    const bool fit_intercept = p.fit_intercept;
    SolverOptions opts;
    opts.tol = p.tol;
    opts.max_iter = static_cast<int>(p.max_iter);
    const Vector cost = row_costs(data, p.class_weight, C);
    const Index d = data.cols();
    LogisticFit out;

    if (p.l1()) {
        if (k != 2)
            throw UsageError("logistic: penalty=l1 is binary (LIBLINEAR -s 6); for " + std::to_string(k) +
                             " classes use multiclass=ovr");
        return solve_l1(FeatureColumns(data.X), plus_minus(data), cost, p, ctx);
    }
    // Both minimise the same objective under the same stopping rule; TRON (LIBLINEAR -s 0's
    // solver) takes Newton steps through Hessian-vector products.
    const bool tron = p.solver == "tron";
    auto minimize = [&](Objective& f) {
        const bool warm_start = warm.size() == f.dimension();
        const Vector start = warm_start ? warm : Vector::Zero(f.dimension());
        double reference = 0;
        if (warm_start) {
            // Stop where a cold start would: the target is relative to the gradient at 0.
            Vector g0;
            f.value_gradient(Vector::Zero(f.dimension()), g0);
            reference = g0.norm();
        }
        if (!tron) {
            SolverOptions o = opts;
            o.reference_grad_norm = reference;
            return minimize_lbfgs(f, start, o);
        }
        TronOptions t;
        t.tol = opts.tol;
        t.max_iter = opts.max_iter;
        t.reference_grad_norm = reference;
        return minimize_tron(f, start, t);
    };
    // Whole, spread over ranks or read as a stream: the same objective, summed where the rows are.
    SolverResult result;
    if (k == 2) {
        const Vector y_pm = plus_minus(data);
        result = minimize_over_rows(
            data, ctx,
            [&](const Features& X, Index first) {
                return std::make_unique<BinaryLogisticObjective>(X, y_pm.segment(first, X.rows()),
                                                                 cost.segment(first, X.rows()), fit_intercept,
                                                                 ctx.resolved_threads());
            },
            minimize);
        out.coef = result.w.head(d).transpose();
        out.intercept = Vector::Constant(1, fit_intercept ? result.w[d] : 0.0);
    } else {
        result = minimize_over_rows(
            data, ctx,
            [&](const Features& X, Index first) {
                return std::make_unique<MultinomialLogisticObjective>(X, data.y.segment(first, X.rows()), k,
                                                                      cost.segment(first, X.rows()), fit_intercept,
                                                                      ctx.resolved_threads());
            },
            minimize);
        out.coef = Eigen::Map<const Eigen::MatrixXd>(result.w.data(), d, k).transpose();
        out.intercept = fit_intercept ? Vector(result.w.segment(d * k, k)) : Vector::Zero(k);
    }
    if (!result.converged)
        ctx.warning("logistic: " + result.message +
                    "; the model is usable but not optimal (raise max_iter, "
                    "loosen tol, or scale the features)");
    out.solution = std::move(result.w);
    return out;
}

}  // namespace

void LogisticRegression::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::classification)
        throw UsageError("logistic: learns classification only (for regression use ridge)");
    const Index k = data.n_classes();
    if (k < 2) throw DataError("logistic: needs at least two classes, the data has " + std::to_string(k));
    const LogisticParams& p = p_;
    ChosenC chosen = choose_c(
        p.C, data, ctx, {.extra = 0.0, .factor = 1.0, .seed = derive_seed(ctx.seed, kLogisticCSearchStream)},
        [&](const Dataset& train, double c, const Vector& warm, const Context& quiet) {
            return solve_at(train, p, c, warm, quiet).solution;
        },
        [&](const Features& X, const Vector& w) {
            const Index d = X.cols();
            const bool l1 = p.l1(), icpt = p.fit_intercept;
            if (k == 2 || l1) {
                Vector z = X.multiply(Vector(w.head(d)));
                if (icpt || l1) z.array() += w[d];
                return Vector((z.array() > 0).select(Vector::Ones(z.size()), Vector::Zero(z.size())));
            }
            Eigen::MatrixXd Z = X.multiply(Eigen::MatrixXd(Eigen::Map<const Eigen::MatrixXd>(w.data(), d, k)));
            if (icpt) Z.rowwise() += w.segment(d * k, k).transpose();
            Vector cls(Z.rows());
            for (Index i = 0; i < Z.rows(); ++i) Z.row(i).maxCoeff(&cls[i]);
            return cls;
        });
    const double C = chosen.C;
    LogisticFit fit = solve_at(data, p, C, continued_solution(ctx, p.fit_intercept ? 1.0 : 0.0), ctx);
    keep(std::move(fit.coef), std::move(fit.intercept));
    keep_c_search(std::move(chosen.search));
}

void LogisticRegression::do_fit_owned(Dataset&& data, const Context& ctx) {
    const LogisticParams& p = p_;
    // Only an L1 fit at one C reads nothing but the columns: a C=auto search refits on
    // folds of the rows, and the L2 solvers work on the rows. The rest (and every error)
    // is do_fit's.
    if (!p.l1() || p.C.is("auto") || data.task != Task::classification || data.n_classes() != 2)
        return do_fit(data, ctx);
    const Vector cost = row_costs(data, p.class_weight, p.C.value), y_pm = plus_minus(data);
    const FeatureColumns columns(std::move(data.X));  // the rows' storage, rearranged
    LogisticFit fit = solve_l1(columns, y_pm, cost, p, ctx);
    keep(std::move(fit.coef), std::move(fit.intercept));
    keep_c_search(Json());
}

void LogisticRegression::on_params(const Params& resolved) {
    p_ = logistic_params().read(resolved);
}

Matrix LogisticRegression::do_predict_proba(const Features& X) const {
    return logistic_probabilities(scores(X));
}

void LogisticRegression::do_load_state(const Json& state) {
    load_weights(state, n_classes() > 2 ? n_classes() : (n_classes() == 2 ? 1 : -1));
    if (coef_matrix().rows() == 2) throw ModelStateError("logistic coef: 2 rows (binary models have one)");
}

const ParamBinding<LogisticParams>& logistic_params() {
    static const ParamBinding<LogisticParams> binding{
        bind(&LogisticParams::C, c_param(1.0, "weight of the summed log-loss against ½||w||² (larger = less regularisation)",
                                         "LIBLINEAR -c; scikit-learn LogisticRegression(C=...)")),
        tol_param(1e-4,
                  "l2: stop when ||gradient|| <= tol * max(1, ||gradient at w=0||); l1: when the summed "
                  "optimality violation <= tol * its value at w=0",
                  "LIBLINEAR -e (same relative rule); scikit-learn tol", true),
        max_iter_param(1000, "maximum number of L-BFGS / Newton iterations (l1: newGLMNET's Newton iterations)",
                       "scikit-learn max_iter"),
        fit_intercept_param("learn an unpenalised intercept",
                            "scikit-learn fit_intercept; LIBLINEAR -B 1 (which penalises it)"),
        class_weight_param("\"\" (all 1), \"balanced\" (n/(k*n_c)) or label:weight,...; multiplies C for that class",
                           "LIBLINEAR -wi; scikit-learn class_weight"),
        bind(&LogisticParams::penalty,
             choice_param("penalty", "l2", {"l2", "l1"},
                          "l2: ½||w||², L-BFGS (binary or multinomial); l1: ||w||₁, newGLMNET (binary; "
                          "multiclass=ovr for more classes)")
                 .like("LIBLINEAR -s 0 / -s 6; scikit-learn penalty")),
        bind(&LogisticParams::solver,
             choice_param("solver", "tron", {"tron", "lbfgs"},
                          "penalty=l2: tron (trust-region Newton with conjugate gradient, LIBLINEAR -s 0's solver) "
                          "or lbfgs (quasi-Newton); same objective and stopping rule")
                 .like("LIBLINEAR -s 0 (tron); scikit-learn solver='lbfgs' / 'newton-cg'")),
    };
    return binding;
}

ModelInfo logistic_model_info() {
    ModelInfo info = model_info_of<LogisticRegression>(
        "logistic",
        "logistic regression: L2 (binary or multinomial, trust-region Newton or L-BFGS) or L1 (binary, newGLMNET)",
        logistic_params().spec(), {Task::classification},
        {.decision_function = true, .predict_proba = true, .sparse_input = true, .sample_weights = true});
    // LIBLINEAR -s 6 is binary: k > 2 classes train one-vs-rest, as LIBLINEAR does.
    info.binary_only_when = [](const Params& resolved) { return logistic_params().read(resolved).l1(); };
    info.reports = [](const Params& resolved) { return c_search_reports(logistic_params().read(resolved).C); };
    // On rows spread over ranks: the L2 objective at a given C, solved by TRON or L-BFGS on
    // sums over the ranks. Not the C search (its folds), balanced class weights (class
    // counts of one rank), newGLMNET (coordinate steps over columns) or a wrapper's members.
    info.refine = [](const Capabilities& declared, const Params& resolved) {
        Capabilities c = declared;
        const LogisticParams p = logistic_params().read(resolved);
        const bool native = !resolved.contains("multiclass") || resolved.at("multiclass") == "auto";
        c.sharded_rows = !p.l1() && !p.C.is("auto") && p.class_weight != "balanced" && native;
        // On a stream the labels are held whole: balanced class weights count them as in memory.
        c.streamed_rows = !p.l1() && !p.C.is("auto") && native;
        // --init-model: the L2 solvers start from the old weights (scikit-learn's warm_start).
        c.continue_training = c.streamed_rows;
        return c;
    };
    info.search_space = logistic_search_space();
    return info;
}

SearchSpace logistic_search_space() {
    // scikit-learn LogisticRegressionCV's Cs=10: C log-spaced over 1e-4..1e4.
    // The portfolio: the decades around the default C=1 that LogisticRegressionCV's grid
    // covers, strongest regularization last.
    return {.axes = {"C=loguniform(0.0001,10000)", "scale=standard"},
            .portfolio = {"C=0.1", "C=10", "C=0.01"},
            .cost = 1};
}

}  // namespace kestrel
