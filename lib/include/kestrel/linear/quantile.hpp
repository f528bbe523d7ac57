#pragma once
// Quantile regression (docs/models/quantile.md) and least absolute deviations
// (docs/models/lad.md), one estimator: min (1/S) Σ s_i ρ_q(y_i - wᵀx_i - b) + alpha ||w||₁
// with S = Σ s_i, as scikit-learn's QuantileRegressor, solved as a linear program.
// lad is q = 0.5, alpha = 0 (min Σ s_i |y_i - wᵀx_i - b|, the same minimiser).
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

class QuantileRegression : public Estimator {
public:
    const Vector& coef() const { return coef_; }
    double intercept() const { return intercept_; }
    // (1/S) Σ s_i ρ_q(r_i) + alpha ||w||₁ at the last fit's solution; not saved.
    double objective() const { return objective_; }

protected:
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    Vector coef_;
    double intercept_ = 0;
    double objective_ = 0;
};

ModelInfo quantile_model_info();
ModelInfo lad_model_info();

}  // namespace kestrel
