#include "kestrel/linear/lp_svm.hpp"

#include "kestrel/common/class_weight.hpp"
#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/optim/l1_linear_lp.hpp"

namespace kestrel {

void LpSvm::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::classification)
        throw UsageError("lp_svm: learns classification only (for regression use lad or quantile)");
    if (data.n_classes() != 2)
        throw UsageError("lp_svm: binary; use multiclass=ovr for " + std::to_string(data.n_classes()) + " classes");
    const Index n = data.rows();
    const Vector cost = row_costs(data, p_.class_weight, p_.C);
    const Vector y_pm = plus_minus(data);
    // Dual of the hinge loss: 0 <= a_i <= C c_i, gain 1 per unit of a_i, |Σ a_i y_i x_ij| <= 1.
    const L1LinearLp lp{data.X, y_pm, Vector::Ones(n), Vector::Zero(n), cost, 1.0, p_.fit_intercept};
    const L1LinearFit fit = solve_l1_linear_lp(lp, p_.max_iter, "lp_svm");
    objective_ = fit.objective;
    keep(fit.w, fit.b);
    if (!fit.optimal) ctx.warning("lp_svm: " + fit.message + "; the model is usable but not optimal (raise max_iter)");
}

void LpSvm::on_params(const Params& resolved) {
    p_ = lp_svm_params().read(resolved);
}

const ParamBinding<LpSvmParams>& lp_svm_params() {
    static const ParamBinding<LpSvmParams> binding{
        bind(&LpSvmParams::C,
             real_param("C", 1.0, "weight of the summed hinge losses against ||w||₁ (larger = less regularisation)")
                 .range(0.0, std::nullopt)
                 .open_below()
                 .like("1-norm SVM (Zhu et al. 2003); nearest: LIBLINEAR -s 5 -c, LinearSVC(penalty='l1', C=...), "
                       "squared hinge there")),
        fit_intercept_param("learn an unpenalised intercept b", "scikit-learn LinearSVC(fit_intercept=...)"),
        class_weight_param("\"\" (all 1), \"balanced\" (n/(k*n_c)) or label:weight,...; multiplies C for that class",
                           "LIBLINEAR -wi; scikit-learn class_weight"),
        max_iter_param(1000000, "maximum number of simplex iterations (then a warning and the last basis)",
                       "scikit-learn LinearSVC(max_iter=...)"),
    };
    return binding;
}

ModelInfo lp_svm_model_info() {
    ModelInfo info = model_info_of<LpSvm>(
        "lp_svm", "1-norm SVM (L1-penalised hinge loss) as a linear program: sparse weights", lp_svm_params().spec(),
        {Task::classification}, {.decision_function = true, .sparse_input = true, .sample_weights = true});
    info.multiclass = Multiclass::binary_only;
    return info;
}

}  // namespace kestrel
