#pragma once
// The primal L2-regularised squared-hinge (L2-loss SVM) objective, LIBLINEAR -s 2's
// l2r_l2_svc_fun, as an Objective for trust-region Newton:
//   f(ŵ) = ½‖ŵ‖² + Σ_i C_i max(0, 1 − y_i ŵᵀx̂_i)²,   x̂_i = [x_i; B] when bias B > 0
// The bias weight is penalised like the others (LIBLINEAR's -B). f is once
// differentiable; its generalised Hessian I + 2 Σ_{i∈I} C_i x̂_i x̂_iᵀ, I = {i: 1 − y_i ŵᵀx̂_i > 0},
// is what hessian_vector applies (Mangasarian 2002; Lin, Weng, Keerthi 2008).
// Keeps a reference to X: it must outlive the objective.
#include <vector>

#include "kestrel/optim/objective.hpp"

namespace kestrel {

class SquaredHingeObjective : public Objective {
public:
    // y: +1 / −1 per row; cost: C_i ≥ 0; bias: B (≤ 0: no bias weight).
    SquaredHingeObjective(const Features& X, Vector y, Vector cost, double bias);

    Index dimension() const override { return d_ + (bias_ > 0 ? 1 : 0); }
    double value_gradient(const Vector& w, Vector& grad) override;
    double value(const Vector& w) override;
    bool has_hessian_vector() const override { return true; }
    void hessian_vector(const Vector& v, Vector& out) const override;
    // The weight of the ½‖ŵ‖² penalty: 1, or 0 on all but rank 0 of a fit on shards
    // (ObjectiveOverRanks sums the ranks' objectives and must count it once).
    void set_penalty_weight(double weight) { penalty_ = weight; }

private:
    Vector margins(const Vector& w) const;  // x̂_iᵀŵ
    template <class F>
    void with_rows(F&& f) const;  // f(rows::Dense or rows::Sparse)

    const Features& X_;
    SparseMatrix compressed_;  // X compressed, when it came uncompressed
    Vector y_, cost_;
    Index d_;
    double bias_;
    std::vector<Index> active_;  // I at the last value_gradient point
    double penalty_ = 1;
};

}  // namespace kestrel
