#pragma once
// Kernel ridge regression (docs/models/kernel_ridge.md): scikit-learn's KernelRidge
// with an optional unpenalised intercept,
//     min_{f,b} Σ_i s_i (y_i - f(x_i) - b)² + alpha ‖f‖²_H,
// solved exactly on the n x n Gram matrix (Cholesky or conjugate gradient) or on a
// Nyström approximation with m landmarks (an m x m system, memory O(m²) + O(chunk·m)).
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/kernel_methods/nystrom.hpp"
#include "kestrel/kernels/kernel_params.hpp"
#include "kestrel/kernel_methods/kernel_expansion.hpp"

namespace kestrel {

struct KernelRidgeParams : KernelParams, NystromParams, InterceptParams, IterationParams {
    double alpha = 1;
    std::string solver, precision;
};
const ParamBinding<KernelRidgeParams>& kernel_ridge_params();

class KernelRidge final : public Estimator {
public:
    const KernelExpansion& expansion() const { return model_; }

protected:
    void on_params(const Params& resolved) override { p_ = kernel_ridge_params().read(resolved); }
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    KernelRidgeParams p_;
    void fit_exact(const Dataset& data, const Context& ctx, const KernelSpec& spec);
    void fit_nystrom(const Dataset& data, const Context& ctx, const KernelSpec& spec);
    KernelExpansion model_;
};

ModelInfo kernel_ridge_model_info();

}  // namespace kestrel
