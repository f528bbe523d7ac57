#pragma once
// The dual (kernel) perceptron (docs/models/kernel_perceptron.md): on a mistake
// y_i f(x_i) <= 0 the row joins the expansion f(x) = Σ_j α_j y_j k(x_j, x) + b with
// α_j += eta · class_weight · sample weight; epochs over a seeded shuffle, an optional
// budget of support entries (the oldest is dropped) and the averaged variant. Binary;
// k > 2 classes through the generic one-vs-rest wrapper.
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/kernels/kernel_params.hpp"
#include "kestrel/kernel_methods/kernel_expansion.hpp"

namespace kestrel {

struct KernelPerceptronParams : KernelParams, InterceptParams, IterationParams, ClassWeightParams {
    double eta = 1;
    bool shuffle = true;
    bool averaged = false;
    long long budget = 0;
};
const ParamBinding<KernelPerceptronParams>& kernel_perceptron_params();

class KernelPerceptron final : public Estimator {
public:
    const KernelExpansion& expansion() const { return model_; }

protected:
    void on_params(const Params& resolved) override { p_ = kernel_perceptron_params().read(resolved); }
    void do_fit(const Dataset& data, const Context& ctx) override;
    Matrix do_decision_function(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    KernelPerceptronParams p_;
    KernelExpansion model_;
};

ModelInfo kernel_perceptron_model_info();

}  // namespace kestrel
