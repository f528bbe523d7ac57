#include "kestrel/linear/elastic_net.hpp"

#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel {

void ElasticNet::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::regression)
        throw UsageError(name() + ": learns regression only (for classification use logistic or linear_svm)");
    path_ = elastic_net_path(data, elastic_net_settings(params()), ctx.resolved_threads());
    const Index last = path_.lambdas.size() - 1;
    coef_ = path_.coef.row(last).transpose();
    intercept_ = path_.intercepts[last];
    lambda_ = path_.lambdas[last];
    feature_names_ = data.feature_names;
    require_finite(coef_.transpose(), Vector::Constant(1, intercept_), name());
    if (!path_.converged)
        ctx.warning(name() + ": coordinate descent used all max_iter=" + params().at("max_iter").dump() +
                    " sweeps before the end of the λ path; the model is usable but not optimal (raise max_iter, "
                    "loosen tol, or scale the features)");
}

Vector ElasticNet::do_predict(const Features& X) const {
    Vector out = X.multiply(coef_);
    out.array() += intercept_;
    return out;
}

std::string ElasticNet::do_report(const std::string& /*report_name: "path", checked by report()*/,
                                  const ReportNames& /*names*/) const {
    if (path_.lambdas.size() == 0)
        throw UsageError(name() + ": the λ path exists only right after training (it is not saved in the model file)");
    return path_to_csv(path_, feature_names_);
}

Json ElasticNet::do_save_state() const {
    return Json{{"coef", vector_to_json(coef_)}, {"intercept", intercept_}, {"lambda", lambda_}};
}

void ElasticNet::do_load_state(const Json& state) {
    if (!state.is_object() || !state.contains("coef") || !state.contains("intercept") || !state.contains("lambda"))
        throw std::runtime_error(name() + " state needs \"coef\", \"intercept\" and \"lambda\"");
    Vector coef = vector_from_json(state.at("coef"), name() + " coef", n_features() > 0 ? n_features() : -1);
    const Vector scalars =
        vector_from_json(Json::array({state.at("intercept"), state.at("lambda")}), name() + " intercept/lambda", 2);
    if (scalars[1] < 0) throw std::runtime_error(name() + " lambda must be >= 0");
    coef_ = std::move(coef);
    intercept_ = scalars[0];
    lambda_ = scalars[1];
}

namespace {

// `auto` (a symbolic value) is the default of lambda and lambda_min_ratio.
ParamDef auto_default(ParamDef d) {
    d.default_value = "auto";
    return d;
}

ParamSpec path_spec() {
    return ParamSpec{
        auto_default(real_param("lambda", 0.0, "the penalty λ of the final model; auto = the end of the λ path")
                         .range(0.0, std::nullopt)
                         .also({"auto"})
                         .like("glmnet s / lambda; scikit-learn alpha")),
        int_param("n_lambda", 100, "number of λ values on the geometric path from λ_max down")
            .range(1.0, std::nullopt)
            .like("glmnet nlambda; scikit-learn n_alphas (lasso_path)"),
        auto_default(real_param("lambda_min_ratio", 0.0, "λ_min / λ_max; auto = 1e-4 when n > d, else 1e-2")
                         .range(0.0, 1.0)
                         .open_below()
                         .also({"auto"})
                         .like("glmnet lambda.min.ratio; scikit-learn eps")),
        real_param("tol", 1e-7, "stop a λ when max_j v_j Δβ_j² <= tol · var(y) over a full sweep")
            .range(0.0, std::nullopt)
            .open_below()
            .like("glmnet thresh"),
        int_param("max_iter", 100000, "maximum number of coordinate sweeps over the whole path")
            .range(1.0, std::nullopt)
            .like("glmnet maxit; scikit-learn max_iter"),
        bool_param("fit_intercept", true, "learn an unpenalised intercept")
            .like("glmnet intercept; scikit-learn fit_intercept"),
        choice_param("updates", "auto", {"auto", "naive", "covariance"},
                     "naive: keep the residual, each coordinate one pass over its column; covariance: form the d x d "
                     "Gram once, each coordinate O(d) (dense data); auto: covariance when dense, n > d and d <= 500")
            .like("glmnet type.gaussian"),
        bool_param("standardize", false,
                   "penalise coefficients of the features scaled to unit variance (coefficients "
                   "are reported on the original scale)")
            .like("glmnet standardize (default TRUE there)"),
    };
}

ModelInfo path_model_info(std::string name) {
    ModelInfo info;
    info.name = std::move(name);
    info.tasks = {Task::regression};
    info.capabilities = {.sparse_input = true, .sample_weights = true};
    info.factory = [] { return std::make_unique<ElasticNet>(); };
    return info;
}

}  // namespace

ModelInfo lasso_model_info() {
    ModelInfo info = path_model_info("lasso");
    info.summary = "lasso (L1-penalised least squares), coordinate descent along a λ path (glmnet)";
    info.spec = path_spec();
    return info;
}

ModelInfo elastic_net_model_info() {
    ModelInfo info = path_model_info("elastic_net");
    info.summary = "elastic net (L1 + L2 penalised least squares), coordinate descent along a λ path (glmnet)";
    ParamSpec spec{real_param("l1_ratio", 0.5, "mixing α: penalty λ(α||β||₁ + (1-α)/2 ||β||²); 1 = lasso, 0 = ridge")
                       .range(0.0, 1.0)
                       .like("glmnet alpha; scikit-learn l1_ratio")};
    spec.extend(path_spec());
    info.spec = std::move(spec);
    return info;
}

}  // namespace kestrel
