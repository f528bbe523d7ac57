#pragma once
// L2-regularised kernel logistic regression (docs/models/kernel_logistic.md), binary
// and natively multinomial, with an unpenalised intercept and logistic's C:
//     min_{f,b} ½ ‖f‖²_H + C Σ_i c_{y_i} s_i loss(y_i, f(x_i) + b).
// Solvers: Newton (IRLS) for small binary problems, L-BFGS on the dual coefficients,
// or a Nyström feature map with m landmarks and L-BFGS on its weights.
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/kernel_methods/nystrom.hpp"
#include "kestrel/kernels/kernel_params.hpp"
#include "kestrel/kernel_methods/kernel_expansion.hpp"

namespace kestrel {

struct KernelLogisticParams : KernelParams, NystromParams, IterationParams, ClassWeightParams {
    double C = 1;
    std::string solver;
};
const ParamBinding<KernelLogisticParams>& kernel_logistic_params();

class KernelLogistic final : public Estimator {
public:
    const KernelExpansion& expansion() const { return model_; }

protected:
    void on_params(const Params& resolved) override { p_ = kernel_logistic_params().read(resolved); }
    void do_fit(const Dataset& data, const Context& ctx) override;
    Matrix do_decision_function(const Features& X) const override;
    Matrix do_predict_proba(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    KernelLogisticParams p_;
    KernelExpansion model_;
};

ModelInfo kernel_logistic_model_info();

}  // namespace kestrel
