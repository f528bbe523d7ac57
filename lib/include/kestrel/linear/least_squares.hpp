#pragma once
// Ordinary least squares (docs/models/least_squares.md): min Σ s_i (y_i − b − x_iᵀw)²
// by Householder QR, by SVD (the minimum-norm solution when the design is rank
// deficient) or by gradient descent with a fixed step, the bold-driver heuristic or
// backtracking line search.
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

class LeastSquares : public Estimator {
public:
    const Vector& coef() const { return coef_; }
    double intercept() const { return intercept_; }
    int iterations() const { return iterations_; }  // gd iterations of the last fit; not saved
    Index rank() const { return rank_; }           // numerical rank seen by qr/svd; not saved

protected:
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    Vector coef_;
    double intercept_ = 0;
    int iterations_ = 0;
    Index rank_ = 0;
};

ModelInfo least_squares_model_info();

}  // namespace kestrel
