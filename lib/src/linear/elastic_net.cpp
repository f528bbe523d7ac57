#include "kestrel/linear/elastic_net.hpp"

#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel {

namespace {

ElasticNetSettings settings_of(const ElasticNetParams& p) {
    ElasticNetSettings st;
    st.l1_ratio = p.l1_ratio;
    if (p.lambda.word.empty()) st.lambda = p.lambda.value;
    st.n_lambda = static_cast<int>(p.n_lambda);
    if (p.lambda_min_ratio.word.empty()) st.lambda_min_ratio = p.lambda_min_ratio.value;
    st.tol = p.tol;
    st.max_iter = static_cast<int>(p.max_iter);
    st.fit_intercept = p.fit_intercept;
    st.standardize = p.standardize;
    st.updates = p.updates == "naive"        ? ElasticNetUpdates::naive
                 : p.updates == "covariance" ? ElasticNetUpdates::covariance
                                             : ElasticNetUpdates::automatic;
    return st;
}

}  // namespace

void ElasticNet::on_params(const Params& resolved) {
    // lasso's spec has no l1_ratio: it is the elastic net at 1.
    p_ = resolved.contains("l1_ratio") ? elastic_net_params().read(resolved) : lasso_params().read(resolved);
    if (!resolved.contains("l1_ratio")) p_.l1_ratio = 1.0;
}

void ElasticNet::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::regression)
        throw UsageError(name() + ": learns regression only (for classification use logistic or linear_svm)");
    path_ = elastic_net_path(data, settings_of(p_), ctx.resolved_threads(), ctx.rows_sharded);
    const Index last = path_.lambdas.size() - 1;
    lambda_ = path_.lambdas[last];
    feature_names_ = data.feature_names;
    keep(Vector(path_.coef.row(last).transpose()), path_.intercepts[last]);
    if (!path_.converged)
        ctx.warning(name() + ": coordinate descent used all max_iter=" + std::to_string(p_.max_iter) +
                    " sweeps before the end of the λ path; the model is usable but not optimal (raise max_iter, "
                    "loosen tol, or scale the features)");
}

std::string ElasticNet::do_report(const std::string& report_name, const ReportNames& names) const {
    if (report_name != "path") return LinearModel::do_report(report_name, names);
    if (path_.lambdas.size() == 0)
        throw UsageError(name() + ": the λ path exists only right after training (it is not saved in the model file)");
    return path_to_csv(path_, feature_names_);
}

Json ElasticNet::do_save_state() const {
    Json state = LinearModel::do_save_state();
    state["lambda"] = lambda_;
    return state;
}

void ElasticNet::do_load_state(const Json& state) {
    load_weights(state);
    if (!state.contains("lambda")) throw ModelStateError(name() + " state needs \"lambda\"");
    const Vector lambda = vector_from_json(Json::array({state.at("lambda")}), name() + " lambda", 1);
    if (lambda[0] < 0) throw ModelStateError(name() + " lambda must be >= 0");
    lambda_ = lambda[0];
}

namespace {

// `auto` (a symbolic value) is the default of lambda and lambda_min_ratio.
ParamDef auto_default(ParamDef d) {
    d.default_value = "auto";
    return d;
}

// The path's parameters, shared by lasso and elastic_net (which adds l1_ratio in front).
template <class P>
std::vector<Bound<P>> path_params() {
    return {
        bind(&P::lambda, auto_default(real_param("lambda", 0.0, "the penalty λ of the final model; auto = the end "
                                                                "of the λ path")
                                          .range(0.0, std::nullopt)
                                          .also({"auto"})
                                          .like("glmnet s / lambda; scikit-learn alpha"))),
        bind(&P::n_lambda, int_param("n_lambda", 100, "number of λ values on the geometric path from λ_max down")
                               .range(1.0, std::nullopt)
                               .like("glmnet nlambda; scikit-learn n_alphas (lasso_path)")),
        bind(&P::lambda_min_ratio,
             auto_default(real_param("lambda_min_ratio", 0.0, "λ_min / λ_max; auto = 1e-4 when n > d, else 1e-2")
                              .range(0.0, 1.0)
                              .open_below()
                              .also({"auto"})
                              .like("glmnet lambda.min.ratio; scikit-learn eps"))),
        tol_param(1e-7, "stop a λ when max_j v_j Δβ_j² <= tol · var(y) over a full sweep", "glmnet thresh", true),
        max_iter_param(100000, "maximum number of coordinate sweeps over the whole path",
                       "glmnet maxit; scikit-learn max_iter"),
        fit_intercept_param("learn an unpenalised intercept", "glmnet intercept; scikit-learn fit_intercept"),
        bind(&P::updates, choice_param("updates", "auto", {"auto", "naive", "covariance"},
                                       "naive: keep the residual, each coordinate one pass over its column; "
                                       "covariance: form the d x d Gram once, each coordinate O(d) (dense data); "
                                       "auto: covariance when dense, n > d and d <= 500")
                              .like("glmnet type.gaussian")),
        bind(&P::standardize, bool_param("standardize", false,
                                         "penalise coefficients of the features scaled to unit variance "
                                         "(coefficients are reported on the original scale)")
                                  .like("glmnet standardize (default TRUE there)")),
    };
}

// lasso and elastic_net: one estimator, two parameter tables.
ModelInfo path_model_info(std::string name, std::string summary, ParamSpec spec) {
    ModelInfo info = model_info_of<ElasticNet>(std::move(name), std::move(summary), std::move(spec), {Task::regression},
                                               {.sparse_input = true, .sample_weights = true});
    info.reports = [](const Params&) { return std::vector<std::string>{"path"}; };
    // Rows spread over ranks: covariance updates on the Gram and X̃ᵀSy summed over the ranks
    // (auto takes them there); naive updates keep a residual per row and are refused.
    info.refine = [](const Capabilities& declared, const Params& resolved) {
        Capabilities c = declared;
        c.sharded_rows = !(resolved.contains("updates") && resolved.at("updates") == "naive");
        return c;
    };
    return info;
}

}  // namespace

const ParamBinding<ElasticNetParams>& lasso_params() {
    static const ParamBinding<ElasticNetParams> binding = [] {
        ParamBinding<ElasticNetParams> b;
        b.add(path_params<ElasticNetParams>());
        return b;
    }();
    return binding;
}

const ParamBinding<ElasticNetParams>& elastic_net_params() {
    static const ParamBinding<ElasticNetParams> binding = [] {
        ParamBinding<ElasticNetParams> b{
            bind(&ElasticNetParams::l1_ratio,
                 real_param("l1_ratio", 0.5, "mixing α: penalty λ(α||β||₁ + (1-α)/2 ||β||²); 1 = lasso, 0 = ridge")
                     .range(0.0, 1.0)
                     .like("glmnet alpha; scikit-learn l1_ratio"))};
        b.add(path_params<ElasticNetParams>());
        return b;
    }();
    return binding;
}

ModelInfo lasso_model_info() {
    return path_model_info("lasso", "lasso (L1-penalised least squares), coordinate descent along a λ path (glmnet)",
                           lasso_params().spec());
}

ModelInfo elastic_net_model_info() {
    return path_model_info("elastic_net",
                           "elastic net (L1 + L2 penalised least squares), coordinate descent along a λ path (glmnet)",
                           elastic_net_params().spec());
}

}  // namespace kestrel
