#pragma once
// Ridge regression (docs/models/ridge.md): min Σ s_i (y_i - wᵀx_i - b)² + alpha ||w||²,
// solved in closed form, primal (d x d) or dual (n x n), dense or sparse.
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

class RidgeRegression : public Estimator {
public:
    const Vector& coef() const { return coef_; }
    double intercept() const { return intercept_; }

protected:
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    Vector coef_;
    double intercept_ = 0;
};

ModelInfo ridge_model_info();

}  // namespace kestrel
