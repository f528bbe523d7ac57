#include "kestrel/linear/quantile.hpp"

#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/optim/l1_linear_lp.hpp"

namespace kestrel {

void QuantileRegression::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::regression)
        throw UsageError(name() + ": learns regression only (for classification use lp_svm or logistic)");
    const double q = p_.quantile, alpha = p_.alpha;
    const Index n = data.rows();
    const Vector s = data.has_weights() ? data.weights : Vector::Ones(n);
    const double total = s.sum();
    if (!(total > 0)) throw DataError(name() + ": the sample weights sum to zero");

    // scikit-learn's scaling: the pinball sum against alpha·S·||w||₁ (the same
    // minimiser as the mean pinball loss against alpha·||w||₁).
    const L1LinearLp lp{data.X, Vector(), data.y, -(1.0 - q) * s, q * s, alpha * total, p_.fit_intercept};
    const L1LinearFit fit = solve_l1_linear_lp(lp, p_.max_iter, name());
    objective_ = fit.objective / total;
    keep(fit.w, fit.b);
    if (!fit.optimal)
        ctx.warning(name() + ": " + fit.message + "; the model is usable but not optimal (raise max_iter)");
}

void QuantileRegression::on_params(const Params& resolved) {
    // lad declares neither quantile nor alpha: it is the median with no penalty.
    if (resolved.contains("quantile")) {
        p_ = quantile_params().read(resolved);
    } else {
        p_ = lad_params().read(resolved);
        p_.quantile = 0.5;
        p_.alpha = 0.0;
    }
}

namespace {

Bound<InterceptParams> intercept_param(const char* anchor) {
    return fit_intercept_param("learn an unpenalised intercept b", anchor);
}

Bound<IterationParams> simplex_iterations() {
    return max_iter_param(1000000, "maximum number of simplex iterations (then a warning and the last basis)",
                          "scikit-learn QuantileRegressor(solver_options={'maxiter': ...})");
}

// quantile and lad: one estimator, two parameter tables.
ModelInfo lp_regression_info(std::string name, std::string summary, ParamSpec spec) {
    return model_info_of<QuantileRegression>(std::move(name), std::move(summary), std::move(spec), {Task::regression},
                                             {.sparse_input = true, .sample_weights = true});
}

}  // namespace

const ParamBinding<QuantileParams>& quantile_params() {
    using P = QuantileParams;
    static const ParamBinding<P> binding{
        bind(&P::quantile,
             real_param("quantile", 0.5, "the quantile q in (0,1) the model predicts; pinball loss q·r⁺ + (1-q)·r⁻")
                 .range(0.0, 1.0)
                 .open_below()
                 .open_above()
                 .like("scikit-learn QuantileRegressor(quantile=...)")),
        bind(&P::alpha, real_param("alpha", 1.0, "weight of the L1 penalty alpha·||w||₁ against the mean pinball loss")
                            .range(0.0, std::nullopt)
                            .like("scikit-learn QuantileRegressor(alpha=...)")),
        intercept_param("scikit-learn QuantileRegressor(fit_intercept=...)"),
        simplex_iterations(),
    };
    return binding;
}

const ParamBinding<QuantileParams>& lad_params() {
    static const ParamBinding<QuantileParams> binding{
        intercept_param("scikit-learn QuantileRegressor(quantile=0.5, alpha=0, fit_intercept=...)"),
        simplex_iterations(),
    };
    return binding;
}

ModelInfo quantile_model_info() {
    return lp_regression_info(
        "quantile",
        "quantile regression, pinball loss + L1 penalty, as a linear program (scikit-learn QuantileRegressor)",
        quantile_params().spec());
}

ModelInfo lad_model_info() {
    return lp_regression_info("lad", "least absolute deviations regression (median regression), as a linear program",
                              lad_params().spec());
}

}  // namespace kestrel
