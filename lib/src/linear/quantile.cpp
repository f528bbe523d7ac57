#include "kestrel/linear/quantile.hpp"

#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/optim/l1_linear_lp.hpp"

namespace kestrel {

void QuantileRegression::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::regression)
        throw UsageError(name() + ": learns regression only (for classification use lp_svm or logistic)");
    const Params& p = params();
    // lad declares neither parameter: it is the median with no penalty.
    const double q = p.contains("quantile") ? get_real(p, "quantile") : 0.5;
    const double alpha = p.contains("alpha") ? get_real(p, "alpha") : 0.0;
    const Index n = data.rows();
    const Vector s = data.has_weights() ? data.weights : Vector::Ones(n);
    const double total = s.sum();
    if (!(total > 0)) throw DataError(name() + ": the sample weights sum to zero");

    // scikit-learn's scaling: the pinball sum against alpha·S·||w||₁ (the same
    // minimiser as the mean pinball loss against alpha·||w||₁).
    const L1LinearLp lp{data.X, Vector(), data.y, -(1.0 - q) * s, q * s, alpha * total, get_bool(p, "fit_intercept")};
    const L1LinearFit fit = solve_l1_linear_lp(lp, get_int(p, "max_iter"), name());
    coef_ = fit.w;
    intercept_ = fit.b;
    objective_ = fit.objective / total;
    require_finite(coef_.transpose(), Vector::Constant(1, intercept_), name());
    if (!fit.optimal)
        ctx.warning(name() + ": " + fit.message + "; the model is usable but not optimal (raise max_iter)");
}

Vector QuantileRegression::do_predict(const Features& X) const {
    Vector out = X.multiply(coef_);
    out.array() += intercept_;
    return out;
}

Json QuantileRegression::do_save_state() const {
    return coef_state_to_json(coef_, intercept_);
}

void QuantileRegression::do_load_state(const Json& state) {
    coef_state_from_json(state, name(), n_features(), coef_, intercept_);
}

namespace {

ParamDef intercept_param() {
    return bool_param("fit_intercept", true, "learn an unpenalised intercept b")
        .like("scikit-learn QuantileRegressor(fit_intercept=...)");
}

ParamDef max_iter_param() {
    return int_param("max_iter", 1000000, "maximum number of simplex iterations (then a warning and the last basis)")
        .range(1.0, std::nullopt)
        .like("scikit-learn QuantileRegressor(solver_options={'maxiter': ...})");
}

ModelInfo lp_regression_info(std::string name) {
    ModelInfo info;
    info.name = std::move(name);
    info.tasks = {Task::regression};
    info.capabilities = {.sparse_input = true, .sample_weights = true};
    info.factory = [] { return std::make_unique<QuantileRegression>(); };
    return info;
}

}  // namespace

ModelInfo quantile_model_info() {
    ModelInfo info = lp_regression_info("quantile");
    info.summary =
        "quantile regression, pinball loss + L1 penalty, as a linear program (scikit-learn QuantileRegressor)";
    info.spec = ParamSpec{
        real_param("quantile", 0.5, "the quantile q in (0,1) the model predicts; pinball loss q·r⁺ + (1-q)·r⁻")
            .range(0.0, 1.0)
            .open_below()
            .open_above()
            .like("scikit-learn QuantileRegressor(quantile=...)"),
        real_param("alpha", 1.0, "weight of the L1 penalty alpha·||w||₁ against the mean pinball loss")
            .range(0.0, std::nullopt)
            .like("scikit-learn QuantileRegressor(alpha=...)"),
        intercept_param(),
        max_iter_param(),
    };
    return info;
}

ModelInfo lad_model_info() {
    ModelInfo info = lp_regression_info("lad");
    info.summary = "least absolute deviations regression (median regression), as a linear program";
    info.spec = ParamSpec{
        intercept_param().like("scikit-learn QuantileRegressor(quantile=0.5, alpha=0, fit_intercept=...)"),
        max_iter_param(),
    };
    return info;
}

}  // namespace kestrel
