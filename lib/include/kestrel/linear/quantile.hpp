#pragma once
// Quantile regression (docs/models/quantile.md) and least absolute deviations
// (docs/models/lad.md), one estimator: min (1/S) Σ s_i ρ_q(y_i - wᵀx_i - b) + alpha ||w||₁
// with S = Σ s_i, as scikit-learn's QuantileRegressor, solved as a linear program.
// lad is q = 0.5, alpha = 0 (min Σ s_i |y_i - wᵀx_i - b|, the same minimiser).
#include "kestrel/core/param_binding.hpp"
#include "kestrel/linear/linear_model.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

struct QuantileParams : InterceptParams, IterationParams {
    double quantile = 0.5;  // lad: 0.5
    double alpha = 0;       // lad: 0
};
const ParamBinding<QuantileParams>& quantile_params();
const ParamBinding<QuantileParams>& lad_params();

class QuantileRegression : public LinearModel {
public:
    // (1/S) Σ s_i ρ_q(r_i) + alpha ||w||₁ at the last fit's solution; not saved.
    double objective() const { return objective_; }

protected:
    void on_params(const Params& resolved) override;
    void do_fit(const Dataset& data, const Context& ctx) override;

private:
    QuantileParams p_;
    double objective_ = 0;
};

ModelInfo quantile_model_info();
ModelInfo lad_model_info();

}  // namespace kestrel
