#pragma once
// Huber regression (docs/models/huber.md): scikit-learn's HuberRegressor, the Huber loss
// with a jointly estimated scale σ (kestrel/linear/huber_objective.hpp) and an L2
// penalty, minimised by L-BFGS-B with σ bounded below.
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

class HuberRegression : public Estimator {
public:
    const Vector& coef() const { return coef_; }
    double intercept() const { return intercept_; }
    double scale() const { return scale_; }  // σ, scikit-learn's scale_

protected:
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    Vector coef_;
    double intercept_ = 0;
    double scale_ = 1;
};

ModelInfo huber_model_info();

}  // namespace kestrel
