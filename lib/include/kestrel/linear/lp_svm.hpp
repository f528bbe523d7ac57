#pragma once
// The 1-norm SVM (docs/models/lp_svm.md): min ||w||₁ + C Σ_i c_i ξ_i subject to
// y_i (wᵀx_i + b) >= 1 - ξ_i, ξ_i >= 0, a linear program (the linear-programming
// classifier). Binary; k > 2 classes through one-vs-rest.
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

class LpSvm : public Estimator {
public:
    const Vector& coef() const { return coef_; }
    double intercept() const { return intercept_; }
    // ||w||₁ + C Σ c_i ξ_i at the last fit's solution; not saved.
    double objective() const { return objective_; }

protected:
    void do_fit(const Dataset& data, const Context& ctx) override;
    Matrix do_decision_function(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    Vector coef_;
    double intercept_ = 0;
    double objective_ = 0;
};

ModelInfo lp_svm_model_info();

}  // namespace kestrel
