#pragma once
// Huber regression (docs/models/huber.md): scikit-learn's HuberRegressor, the Huber loss
// with a jointly estimated scale σ (kestrel/linear/huber_objective.hpp) and an L2
// penalty, minimised by L-BFGS-B with σ bounded below.
#include "kestrel/core/param_binding.hpp"
#include "kestrel/linear/linear_model.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

struct HuberParams : InterceptParams, IterationParams {
    double epsilon = 1.35;
    double alpha = 0;
};
const ParamBinding<HuberParams>& huber_params();

class HuberRegression : public LinearModel {
public:
    double scale() const { return scale_; }  // σ, scikit-learn's scale_

protected:
    void on_params(const Params& resolved) override;
    void do_fit(const Dataset& data, const Context& ctx) override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    HuberParams p_;
    double scale_ = 1;
};

ModelInfo huber_model_info();

}  // namespace kestrel
