#pragma once
// The objective of L2-regularised kernel logistic regression in the dual
// coefficients (docs/models/kernel_logistic.md): with F = K A + 1 bᵀ (n x q),
//     binary (q = 1, y_i = ±1):  ½ aᵀ K a + Σ_i c_i log(1 + exp(-y_i f_i))
//     multinomial (q = k):       ½ tr(AᵀKA) + Σ_i c_i (log Σ_j exp(F_ij) - F_{i,y_i})
// with c_i = C · class_weight · s_i. Gradient: K (G + A) for A and Σ_i G_i for b, where
// G = ∂loss/∂F. Parameters are packed column-major: vec(A), then b.
#include "kestrel/optim/objective.hpp"

namespace kestrel {

class KernelLogisticObjective final : public Objective {
public:
    // K: the n x n Gram matrix (kept by reference); y: class index per row; k classes.
    KernelLogisticObjective(const DenseMatrix& K, const Vector& y, Index k, Vector cost, int threads);
    Index dimension() const override { return (n_ + 1) * q_; }
    double value_gradient(const Vector& w, Vector& grad) override;
    Index outputs() const { return q_; }

private:
    const DenseMatrix& K_;
    Vector y_, cost_;
    Index n_, q_;
    int threads_;
};

}  // namespace kestrel
