#include "kestrel/kernel_methods/kernel_logistic.hpp"

#include "gram_limit.hpp"

#include <sstream>

#include "kestrel/common/class_weight.hpp"
#include "kestrel/core/param_binding.hpp"
#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/kernel_methods/klr_newton.hpp"
#include "kestrel/kernel_methods/klr_objective.hpp"
#include "kestrel/kernel_methods/nystrom.hpp"
#include "kestrel/kernels/kernel_params.hpp"
#include "kestrel/optim/lbfgs.hpp"
#include "kestrel/optim/logistic_objective.hpp"

namespace kestrel {

namespace {

// solver=auto uses Newton up to this many rows (one (n+1)² LU per step).
constexpr Index kNewtonMaxRows = 1000;

}  // namespace

void KernelLogistic::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::classification)
        throw UsageError("kernel_logistic: learns classification only (for regression use kernel_ridge)");
    const KernelLogisticParams& p = p_;
    const Index n = data.rows(), k = data.n_classes();
    const int threads = std::max(1, ctx.resolved_threads());
    const KernelSpec spec = kernel_from_params(p, data.X, ctx);
    const Kernel kernel(spec);
    const Vector cost = row_costs(data, p.class_weight, p.C);
    const Vector y_pm = plus_minus(data);
    const Index q = k == 2 ? 1 : k;
    SolverOptions opts;
    opts.tol = p.tol;
    opts.max_iter = static_cast<int>(p.max_iter);
    const std::string& solver = p.solver;
    std::string trouble;  // why the solver stopped early, for the warning

    model_ = KernelExpansion{};
    model_.kernel_spec = spec;
    if (p.nystrom > 0) {
        // Stream "nyst", as kernel_ridge: the same seed picks the same landmarks.
        const auto landmarks = choose_landmarks(data.X, kernel, static_cast<Index>(p.nystrom),
                                                landmark_sampling_from_string(p.landmarks),
                                                derive_seed(ctx.seed, 0x6e797374), threads);
        const NystromBasis basis = nystrom_basis(data.X, kernel, landmarks, threads);
        const Features phi{DenseMatrix(nystrom_features(basis, kernel, data.X, threads))};
        const Index r = basis.T.cols();
        SolverResult res;
        Eigen::MatrixXd W;
        if (q == 1) {
            BinaryLogisticObjective f(phi, y_pm, cost, true, threads);
            res = minimize_lbfgs(f, Vector::Zero(f.dimension()), opts);
            W = res.w.head(r);
            model_.intercept = Vector::Constant(1, res.w[r]);
        } else {
            MultinomialLogisticObjective f(phi, data.y, k, cost, true, threads);
            res = minimize_lbfgs(f, Vector::Zero(f.dimension()), opts);
            W = Eigen::Map<const Eigen::MatrixXd>(res.w.data(), r, k);
            model_.intercept = res.w.segment(r * k, k);
        }
        if (!res.converged) trouble = res.message;
        model_.rows = basis.landmarks;
        model_.coef = basis.T * W;
    } else {
        require_exact_gram_fits("kernel_logistic", n);
        const DenseMatrix K = kernel.gram(KernelRows(data.X), threads);
        const bool newton = solver == "newton" || (solver == "auto" && q == 1 && n <= kNewtonMaxRows);
        if (newton) {
            if (q != 1)
                throw UsageError("kernel_logistic: solver=newton is binary; for " + std::to_string(k) +
                                 " classes use solver=lbfgs (multinomial) or multiclass=ovr");
            const KlrNewtonResult res = solve_klr_newton(K, y_pm, cost, opts.tol, opts.max_iter, threads);
            if (!res.converged) {
                std::ostringstream msg;
                msg << "Newton stopped after " << res.iterations << " steps with gradient norm " << res.grad_norm;
                trouble = msg.str();
            }
            model_.coef = res.a;
            model_.intercept = Vector::Constant(1, res.b);
        } else {
            KernelLogisticObjective f(K, data.y, k, cost, threads);
            const SolverResult res = minimize_lbfgs(f, Vector::Zero(f.dimension()), opts);
            if (!res.converged) trouble = res.message;
            model_.coef = Eigen::Map<const Eigen::MatrixXd>(res.w.data(), n, q);
            model_.intercept = res.w.segment(n * q, q);
        }
        model_.rows = data.X;
        model_.drop_zero_rows();
    }
    require_finite(model_.coef, model_.intercept, "kernel_logistic");
    model_.prepare();
    if (!trouble.empty())
        ctx.warning("kernel_logistic: " + trouble +
                    "; the model is usable but not optimal (raise max_iter, loosen tol, or scale the features)");
}

Matrix KernelLogistic::do_decision_function(const Features& X) const { return model_.decision(X); }

Matrix KernelLogistic::do_predict_proba(const Features& X) const {
    return logistic_probabilities(model_.decision(X));
}

Json KernelLogistic::do_save_state() const { return model_.to_json(); }

void KernelLogistic::do_load_state(const Json& state) {
    if (n_classes() < 2) throw ModelStateError("kernel_logistic state needs at least two classes");
    model_ = KernelExpansion::from_json(state, n_features(), n_classes() == 2 ? 1 : n_classes());
}

const ParamBinding<KernelLogisticParams>& kernel_logistic_params() {
    using P = KernelLogisticParams;
    static const ParamBinding<P> binding = [] {
        ParamBinding<P> b{
            bind(&P::C, real_param("C", 1.0, "weight of the summed log-loss against ½||f||² (C = 1/(n*lambda))")
                            .range(0.0, std::nullopt)
                            .open_below()
                            .like("LIBLINEAR -c; scikit-learn LogisticRegression(C=...)")),
            class_weight_param("\"\" (all 1), \"balanced\" or label:weight,...; multiplies C for that class",
                               "scikit-learn LogisticRegression(class_weight=...)"),
            bind(&P::solver, choice_param("solver", "auto", {"auto", "newton", "lbfgs"},
                                          "newton (IRLS, binary, O(n³) a step), lbfgs (dual coefficients), auto = "
                                          "newton for binary problems up to 1000 rows")
                                 .like("scikit-learn LogisticRegression(solver='newton-cg'|'lbfgs')")),
            tol_param(1e-4, "stop when ||grad|| <= tol * max(1, ||grad at 0||)",
                      "scikit-learn LogisticRegression(tol=...)", true),
            max_iter_param(1000, "maximum Newton steps or L-BFGS iterations",
                           "scikit-learn LogisticRegression(max_iter=...)"),
        };
        b.add(nystrom_param_bindings("use a Nyström feature map with this many landmarks (0 = exact)",
                                       "scikit-learn Nystroem(n_components=m) + LogisticRegression"));
        b.add(kernel_param_bindings("rbf"));
        return b;
    }();
    return binding;
}

ModelInfo kernel_logistic_model_info() {
    ModelInfo info = model_info_of<KernelLogistic>(
        "kernel_logistic",
        "kernel logistic regression (L2, intercept), binary or multinomial; Newton, L-BFGS or Nyström",
        kernel_logistic_params().spec(), {Task::classification},
        {.decision_function = true, .predict_proba = true, .sparse_input = true, .sample_weights = true});
    // The exact Newton solver is binary: k > 2 classes with solver=newton train one-vs-rest.
    info.binary_only_when = [](const Params& resolved) {
        return kernel_logistic_params().read(resolved).solver == "newton";
    };
    return info;
}

}  // namespace kestrel
