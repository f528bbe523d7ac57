#pragma once
// L2-regularised logistic losses as Objectives (value, gradient, Hessian-vector
// product), for L-BFGS today and trust-region Newton later.
//
// Binary, y_i in {-1, +1}, parameters [w; b]:
//   f(w, b) = ½||w||² + Σ_i cost_i · log(1 + exp(-y_i (wᵀx_i + b)))
// Multinomial, y_i in {0..k-1}, parameters [vec(W); b] with W d x k column-major
// (column c = class c) and b of length k:
//   f(W, b) = ½ Σ_c ||w_c||² + Σ_i cost_i · (log Σ_c exp(z_ic) - z_{i,y_i}),  z_i = Wᵀx_i + b
// cost_i = C · class_weight[y_i] · s_i. The intercept is not penalised and is absent
// from the parameters when fit_intercept is false.
//
// Both keep a reference to X: it must outlive the objective.
#include <memory>

#include "kestrel/common/logistic_math.hpp"
#include "kestrel/optim/objective.hpp"

namespace kestrel {

class BinaryLogisticObjective : public Objective {
public:
    // y: +1 / -1 per row; cost: per-row loss weight (>= 0); threads: for the sums over
    // dense rows (the result does not depend on it).
    BinaryLogisticObjective(const Features& X, Vector y, Vector cost, bool fit_intercept, int threads = 1);

    Index dimension() const override { return d_ + (fit_intercept_ ? 1 : 0); }
    double value_gradient(const Vector& w, Vector& grad) override;
    double value(const Vector& w) override;
    bool has_hessian_vector() const override { return true; }
    void hessian_vector(const Vector& v, Vector& out) const override;
    // The weight of the ½‖w‖² penalty (1; 0 on all but one rank of a fit on shards,
    // ObjectiveOverRanks, so that the summed objective counts it once).
    void set_penalty_weight(double weight) { penalty_ = weight; }

private:
    Vector margins(const Vector& w) const;  // X w + b
    // Dense rows [first, end): z_i = x_iᵀw + b (entry i − first).
    std::unique_ptr<double[]> block_margins(const Vector& w, Index first, Index end) const;
    // e^-|t_i| of the rows' signed margins t_i = y_i z_i, by the dispatched vector exp
    // (within 2 ulp of std::exp): one libm call a row was a third of an evaluation.
    std::unique_ptr<double[]> exp_minus_abs_margins(Index first, Index end, const double* z) const;
    // out[0 .. d) += Σ a_i x_i and out[d] += Σ a_i over the dense rows [first, end).
    void add_block_rows(Index first, Index end, const double* a, double* out) const;

    const Features& X_;
    Vector y_, cost_;
    Index d_;
    bool fit_intercept_;
    int threads_;
    Vector curvature_;  // cost_i σ(t_i) σ(-t_i) at the last point, for hessian_vector
    double penalty_ = 1;
};

class MultinomialLogisticObjective : public Objective {
public:
    // y: class index 0..k-1 per row; cost: per-row loss weight (>= 0); threads: for the
    // sums over dense rows (the result does not depend on it).
    MultinomialLogisticObjective(const Features& X, Vector y, Index k, Vector cost, bool fit_intercept,
                                 int threads = 1);

    Index dimension() const override { return (d_ + (fit_intercept_ ? 1 : 0)) * k_; }
    double value_gradient(const Vector& w, Vector& grad) override;
    double value(const Vector& w) override;
    bool has_hessian_vector() const override { return true; }
    void hessian_vector(const Vector& v, Vector& out) const override;
    void set_penalty_weight(double weight) { penalty_ = weight; }  // as the binary one's

private:
    Eigen::MatrixXd scores(const Vector& w) const;  // n x k: X W + 1 bᵀ
    void pack_gradient(const Vector& w, const Eigen::MatrixXd& R, Vector& grad) const;
    double softmax_row(Index i, double* z) const;
    // Over dense rows, a block of rows at a time: block_terms(first, Z, out) gets the block's
    // scores Z (rows x k, row-major; X W + b), may add its own values into out's first
    // width − (d+1)k entries, and leaves R in Z; Xᵀ R and R's column sums go to the rest.
    template <class BlockTerms>
    Vector sum_dense(const Vector& w, Index width, BlockTerms&& block_terms) const;

    const Features& X_;
    Vector y_, cost_;
    Index d_, k_;
    bool fit_intercept_;
    int threads_;
    // softmax at the last point, for hessian_vector; row-major: each row is read and written whole
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> proba_;
    double penalty_ = 1;
};

}  // namespace kestrel
