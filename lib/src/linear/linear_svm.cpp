#include "kestrel/linear/linear_svm.hpp"

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/linear/class_weight.hpp"
#include "kestrel/linear/linear_state.hpp"
#include "kestrel/optim/dual_cd.hpp"

namespace kestrel {
namespace {
// Seed stream of the row permutation: any fixed number, so that the fit depends on
// the context's seed only.
constexpr std::uint64_t permutation_stream = 0x51f3;
}  // namespace

void LinearSvm::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::classification)
        throw UsageError("linear_svm: learns classification only (for regression use linear_svr or ridge)");
    if (data.n_classes() != 2)
        throw UsageError("linear_svm: binary; use multiclass=ovr for " + std::to_string(data.n_classes()) +
                         " classes");
    const Params& p = params();
    const Vector cost =
        get_real(p, "C") * sample_costs(data, parse_class_weights(get_string(p, "class_weight"), data.classes, data.y));
    // classes[1] is the positive class.
    const Vector y_pm = (data.y.array() > 0.5).select(Vector::Ones(data.rows()), -Vector::Ones(data.rows()));
    const double bias = get_bool(p, "fit_intercept") ? get_real(p, "intercept_scaling") : 0.0;
    const DualCdProblem problem{data.X, y_pm, cost,
                                get_string(p, "loss") == "hinge" ? SvmLoss::hinge : SvmLoss::squared_hinge, bias};
    DualCdOptions opts;
    opts.eps = get_real(p, "eps");
    opts.max_iter = static_cast<int>(get_int(p, "max_iter"));
    opts.seed = derive_seed(ctx.seed, permutation_stream);
    const DualCdResult r = solve_dual_cd(problem, opts);

    const Index d = data.cols();
    coef_ = r.w.head(d);
    intercept_ = bias > 0 ? bias * r.w[d] : 0.0;
    dual_objective_ = r.dual_objective;
    require_finite(coef_.transpose(), Vector::Constant(1, intercept_), "linear_svm");
    if (!r.converged)
        ctx.warning("linear_svm: dual coordinate descent reached max_iter=" + std::to_string(opts.max_iter) +
                    " passes; the model is usable but not optimal (raise max_iter, loosen eps, or scale the "
                    "features)");
}

Matrix LinearSvm::do_decision_function(const Features& X) const {
    Matrix out = X.multiply(coef_);
    out.array() += intercept_;
    return out;
}

Json LinearSvm::do_save_state() const { return coef_state_to_json(coef_, intercept_); }

void LinearSvm::do_load_state(const Json& state) { coef_state_from_json(state, "linear_svm", n_features(), coef_, intercept_); }

ModelInfo linear_svm_model_info() {
    ModelInfo info;
    info.name = "linear_svm";
    info.summary = "linear SVM, L2-regularised (squared) hinge loss, dual coordinate descent (LIBLINEAR -s 1/-s 3)";
    info.spec = ParamSpec{
        choice_param("loss", "squared_hinge", {"squared_hinge", "hinge"},
                     "squared_hinge: C*max(0,1-yz)^2 (LIBLINEAR -s 1); hinge: C*max(0,1-yz) (-s 3)")
            .like("LIBLINEAR -s 1 / -s 3; scikit-learn LinearSVC(loss=..., dual=True)"),
        real_param("C", 1.0, "weight of the summed loss against ½||w||² (larger = less regularisation)")
            .range(0.0, std::nullopt)
            .open_below()
            .like("LIBLINEAR -c; scikit-learn LinearSVC(C=...)"),
        real_param("eps", 0.1, "stop when max - min projected dual gradient <= eps over a pass")
            .range(0.0, std::nullopt)
            .open_below()
            .like("LIBLINEAR -e (default 0.1 for the dual solvers); scikit-learn tol"),
        int_param("max_iter", 1000, "maximum number of passes over the data")
            .range(1.0, std::nullopt)
            .like("LIBLINEAR's fixed 1000; scikit-learn max_iter"),
        bool_param("fit_intercept", true,
                   "append a constant feature of value intercept_scaling; its weight is penalised like w")
            .like("LIBLINEAR -B; scikit-learn fit_intercept"),
        real_param("intercept_scaling", 1.0, "value of the constant feature (the bias term's B)")
            .range(0.0, std::nullopt)
            .open_below()
            .like("LIBLINEAR -B B; scikit-learn intercept_scaling"),
        text_param("class_weight", "",
                   "\"\" (all 1), \"balanced\" (n/(k*n_c)) or label:weight,...; multiplies C for that class")
            .like("LIBLINEAR -wi; scikit-learn class_weight"),
    };
    info.tasks = {Task::classification};
    info.multiclass = Multiclass::binary_only;
    info.default_strategy = "ovr";
    info.factory = [] { return std::make_unique<LinearSvm>(); };
    return info;
}

}  // namespace kestrel
