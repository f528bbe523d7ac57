#pragma once
// Ordinary least squares (docs/models/least_squares.md): min Σ s_i (y_i − b − x_iᵀw)²
// by Householder QR, by SVD (the minimum-norm solution when the design is rank
// deficient) or by gradient descent with a fixed step, the bold-driver heuristic or
// backtracking line search.
#include "kestrel/core/param_binding.hpp"
#include "kestrel/linear/linear_model.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/core/search_space.hpp"

namespace kestrel {

struct LeastSquaresParams : InterceptParams, IterationParams {
    std::string solver, step;
    RealOrWord learning_rate;  // gd's step, or "auto"
};
const ParamBinding<LeastSquaresParams>& least_squares_params();

class LeastSquares : public LinearModel {
public:
    int iterations() const { return iterations_; }  // gd iterations of the last fit; not saved
    Index rank() const { return rank_; }           // numerical rank seen by qr/svd; not saved

protected:
    void on_params(const Params& resolved) override;
    void do_fit(const Dataset& data, const Context& ctx) override;

private:
    LeastSquaresParams p_;
    int iterations_ = 0;
    Index rank_ = 0;
};

ModelInfo least_squares_model_info();
SearchSpace least_squares_search_space();  // kestrel-auto and kestrel-gridsearch without -g

}  // namespace kestrel
