#pragma once
// Support vector regression (docs/models/svr.md) and one-class SVM, the single-
// decision-function kernel SVMs:
//   svr        epsilon-SVR, LIBSVM -s 3: min ½(α-α*)ᵀK(α-α*) + ε Σ(α+α*) - Σ y_i(α-α*),
//              Σ(α-α*) = 0, 0 <= α, α* <= C_i
//   nu_svr     nu-SVR, LIBSVM -s 4: ε is learned, Σ(α+α*) = C·nu·l
//   one_class  LIBSVM -s 2: min ½αᵀKα, eᵀα = nu·l, 0 <= α_i <= 1; predicts +1 (inside
//              the estimated support) or -1; the labels of the training file are ignored.
// Prediction is f(x) = Σ_i coef_i K(x_i, x) - rho.
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/core/search_space.hpp"
#include "kestrel/svm/svm_model.hpp"

namespace kestrel {

const ParamBinding<SvmParams>& svr_params();
const ParamBinding<SvmParams>& nu_svr_params();
const ParamBinding<SvmParams>& one_class_params();

class KernelSvmRegressor : public Estimator {
public:
    const SvmModel& model() const { return model_; }

protected:
    Vector do_predict(const Features& X) const override;
    Matrix do_decision_function(const Features& X) const override;
    Json do_save_state() const override { return model_.to_json(); }
    Json do_save_state_for_file(JsonTextSlots& slots) const override { return model_.to_json(slots); }
    void do_load_state(const Json& state) override;

    // The model's binding (svr_params, nu_svr_params, one_class_params).
    virtual const ParamBinding<SvmParams>& binding() const = 0;
    void on_params(const Params& resolved) override { p_ = binding().read(resolved); }

    // Builds the model from per-row coefficients (zeros are dropped) and rho.
    void set_solution(const Dataset& data, KernelSpec spec, const Vector& coef, double rho);
    // probability=1 (svr, nu_svr): the Laplace scale σ of 5-fold cross-validated residuals
    // into model_.prob_a[0], as LIBSVM's -b 1 (its noise model y = f(x) + z, p(z) ∝ e^(-|z|/σ)).
    void fit_laplace_scale(const Dataset& data, const Context& ctx);

    SvmModel model_;
    SvmParams p_;
};

class Svr final : public KernelSvmRegressor {
public:
protected:
    const ParamBinding<SvmParams>& binding() const override { return svr_params(); }
    void do_fit(const Dataset& data, const Context& ctx) override;
};

class NuSvr final : public KernelSvmRegressor {
public:
protected:
    const ParamBinding<SvmParams>& binding() const override { return nu_svr_params(); }
    void do_fit(const Dataset& data, const Context& ctx) override;
};

class OneClassSvm final : public KernelSvmRegressor {
protected:
    const ParamBinding<SvmParams>& binding() const override { return one_class_params(); }
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;  // +1 / -1
};

ModelInfo svr_model_info();
SearchSpace svr_search_space();  // kestrel-auto and kestrel-gridsearch without -g
ModelInfo nu_svr_model_info();
ModelInfo one_class_model_info();

}  // namespace kestrel
