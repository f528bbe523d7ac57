#pragma once
// scikit-learn's HuberRegressor objective (Owen's joint scale), over θ = (w, [b,] σ):
//   f(θ) = Σ_i s_i (σ + H_ε(r_i / σ) σ) + alpha ||w||²,   r_i = y_i - wᵀx_i - b,
//   H_ε(z) = z² for |z| <= ε, 2ε|z| - ε² otherwise.
// Jointly convex for σ > 0 and continuously differentiable. The sum runs over fixed
// blocks of rows added in block order, so the value does not depend on the thread count.
#include "kestrel/core/dataset.hpp"
#include "kestrel/optim/objective.hpp"

namespace kestrel {

class HuberObjective : public Objective {
public:
    // `weights` empty = every s_i = 1. The data must outlive the objective.
    HuberObjective(const Features& X, const Vector& y, const Vector& weights, double epsilon, double alpha,
                   bool fit_intercept, int threads);

    Index dimension() const override { return d_ + (fit_intercept_ ? 2 : 1); }
    double value_gradient(const Vector& theta, Vector& grad) override;

private:
    const Features& X_;
    const Vector& y_;
    Vector s_;
    SparseMatrix scratch_;  // X compressed, when it arrives uncompressed
    double epsilon_, alpha_;
    bool fit_intercept_;
    int threads_;
    Index d_;
};

}  // namespace kestrel
