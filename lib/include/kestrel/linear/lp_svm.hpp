#pragma once
// The 1-norm SVM (docs/models/lp_svm.md): min ||w||₁ + C Σ_i c_i ξ_i subject to
// y_i (wᵀx_i + b) >= 1 - ξ_i, ξ_i >= 0, a linear program (the linear-programming
// classifier). Binary; k > 2 classes through one-vs-rest.
#include "kestrel/core/param_binding.hpp"
#include "kestrel/linear/linear_model.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

struct LpSvmParams : InterceptParams, IterationParams, ClassWeightParams {
    double C = 1;
};
const ParamBinding<LpSvmParams>& lp_svm_params();

class LpSvm : public LinearModel {
public:
    // ||w||₁ + C Σ c_i ξ_i at the last fit's solution; not saved.
    double objective() const { return objective_; }

protected:
    void on_params(const Params& resolved) override;
    void do_fit(const Dataset& data, const Context& ctx) override;

private:
    LpSvmParams p_;
    double objective_ = 0;
};

ModelInfo lp_svm_model_info();

}  // namespace kestrel
