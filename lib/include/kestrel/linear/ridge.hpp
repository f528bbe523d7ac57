#pragma once
// Ridge regression (docs/models/ridge.md): min Σ s_i (y_i - wᵀx_i - b)² + alpha ||w||²,
// solved in closed form, primal (d x d) or dual (n x n), dense or sparse.
#include "kestrel/core/param_binding.hpp"
#include "kestrel/linear/linear_model.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/core/search_space.hpp"

namespace kestrel {

struct RidgeParams : InterceptParams, IterationParams {
    double alpha = 0;
    std::string solver;
    RealOrWord eta0;  // sgd's step, or "auto"
    bool average = true;
};
const ParamBinding<RidgeParams>& ridge_params();

class RidgeRegression : public LinearModel {
protected:
    void on_params(const Params& resolved) override;
    void do_fit(const Dataset& data, const Context& ctx) override;

private:
    RidgeParams p_;
};

ModelInfo ridge_model_info();
SearchSpace ridge_search_space();  // kestrel-auto and kestrel-gridsearch without -g

}  // namespace kestrel
