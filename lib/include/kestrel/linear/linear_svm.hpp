#pragma once
// Linear support vector machine (docs/models/linear_svm.md): L2-regularised hinge or
// squared-hinge loss by dual coordinate descent, LIBLINEAR's -s 3 and -s 1. Binary;
// k > 2 classes go through one-vs-rest, as LIBLINEAR.
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/registry.hpp"

namespace kestrel {

class LinearSvm : public Estimator {
public:
    bool has_decision_function() const override { return true; }
    bool supports_sparse() const override { return true; }
    bool supports_sample_weights() const override { return true; }

    const Vector& coef() const { return coef_; }
    double intercept() const { return intercept_; }
    // Dual objective ½αᵀ(Q+D)α − Σα of the last fit (LIBLINEAR prints it); not saved.
    double dual_objective() const { return dual_objective_; }

protected:
    void do_fit(const Dataset& data, const Context& ctx) override;
    Matrix do_decision_function(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    Vector coef_;
    double intercept_ = 0;  // bias weight times intercept_scaling
    double dual_objective_ = 0;
};

ModelInfo linear_svm_model_info();

}  // namespace kestrel
