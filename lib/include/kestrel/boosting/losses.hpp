#pragma once
// The losses of `gbdt` (docs/models/gbdt.md, "Losses"): each row's loss ℓ(y, F) in the
// raw score F (one score per row, or k for softmax), its gradient g = ∂ℓ/∂F and the
// Hessian h the trees use in their second-order step. Rows are weighted by w_i.
//   squared   ½(y − F)²                              g = F − y            h = 1
//   absolute  |y − F|                                g = sign(F − y)      h = 1 (*)
//   huber     ½r² if |r| <= δ, else δ(|r| − ½δ)     g = clip(F − y, ±δ)  h = 1 (*)
//   logistic  log(1 + e^F) − yF, y in {0, 1}        g = p − y            h = p(1 − p)
//   softmax   −log p_y, p = softmax(F)               g_c = p_c − [y = c]  h_c = s·p_c(1 − p_c)
//   quantile  α r if r >= 0, else (α − 1) r; r = y − F  g = 1 − α if F >= y, else −α   h = 1 (*)
//   poisson   e^F − yF                                g = e^F − y          h = e^(F + m)  (†)
//   gamma     y e^−F + F                              g = 1 − y e^−F       h = y e^−F
//   tweedie   −y e^((1−ρ)F)/(1−ρ) + e^((2−ρ)F)/(2−ρ)  g = −y e^((1−ρ)F) + e^((2−ρ)F)
//                                                     h = −(1−ρ) y e^((1−ρ)F) + (2−ρ) e^((2−ρ)F)
// The last three are negative log-likelihoods (up to terms free of F) in the log link: the
// prediction is e^F. (†) m = max_delta_step: XGBoost's count:poisson inflates the Hessian by
// e^m (0.7 by default there), a smaller step; m = 0 is the true Hessian.
// with s = softmax_hessian_scale: 2 is XGBoost's multi:softprob, 1 scikit-learn's (the true
// diagonal). XGBoost's doubled Hessian halves every step, so the same learning_rate means the
// same model only with XGBoost's s.
// lambdarank and rank_pairwise are pairwise within query groups: rank_losses.hpp.
// (*) a unit Hessian (the true one is 0): the tree is grown as a gradient step and its
// leaf values are then re-fitted to the loss (renewed_leaf), as LightGBM, XGBoost and
// Friedman's M-regression do.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

// One row's gradient and Hessian; float halves the memory traffic of histogram building
// (sums are accumulated in double).
struct GradPair {
    float g = 0, h = 0;
};

enum class LossKind { squared, absolute, huber, logistic, softmax, quantile, poisson, gamma, tweedie, lambdarank, rank_pairwise };

const char* to_string(LossKind k);
// "auto" is resolved by the caller; throws ParamError listing the valid names.
LossKind loss_from_string(const std::string& s);
bool is_classification_loss(LossKind k);
// poisson, gamma, tweedie: the raw score is log E[y], predictions are e^F.
bool has_log_link(LossKind k);
// lambdarank, rank_pairwise: the loss couples the rows of a query (Dataset::qid).
bool is_ranking_loss(LossKind k);

struct Loss {
    LossKind kind = LossKind::squared;
    double delta = 1.0;  // huber's δ
    double softmax_hessian_scale = 1.0;  // s above; only softmax reads it
    double alpha = 0.5;                  // quantile's α
    double max_delta_step = 0.0;         // poisson's m
    double tweedie_power = 1.5;          // tweedie's ρ, in (1, 2)
    double scale_pos_weight = 1.0;       // logistic: multiplies g and h of rows with y = 1
    double rank_sigma = 1.0;             // ranking losses: σ of the pair's logistic
    Index truncation_level = 0;          // lambdarank: pairs with a document in the top T (0: all)

    // Raw scores per row: k for softmax, else 1.
    Index n_outputs(Index n_classes) const { return kind == LossKind::softmax ? n_classes : 1; }

    // Unweighted loss of one row; F points to n_outputs scores.
    double value(double y, const double* F, Index K) const;
    // Gradient and Hessian of one row's unweighted loss, one per output; returns the loss
    // (value() with the exponentials shared). Not for the ranking losses, whose rows are coupled.
    double derivatives(double y, const double* F, Index K, double* g, double* h) const;

    // Fills out[c·n + i] = w_i·(g, h) of row i for output c (F row-major n x K) and returns
    // Σ_i w_i ℓ_i, summed in fixed row blocks so that it does not depend on `threads`.
    // With logistic, w_i of a row with y = 1 is multiplied by scale_pos_weight (as XGBoost;
    // the returned sum, like mean(), is of the unscaled loss).
    // The ranking losses need the rows' query groups `queries` (query_starts) and no weights;
    // they return the sum of their pairs' losses (rank_losses.hpp).
    double gradients(const double* F, const Vector& y, const Vector& w, Index K, GradPair* out, int threads,
                     std::span<const Index> queries = {}) const;
    // Σ_i w_i ℓ_i / Σ_i w_i (w empty = all 1), thread-count independent; for the ranking
    // losses the sum of their pairs' losses per row.
    double mean(const double* F, const Vector& y, const Vector& w, Index K, int threads,
                std::span<const Index> queries = {}) const;

    // The constant raw score(s) minimising the weighted loss: mean, median, median,
    // log-odds, log class priors (probabilities clipped to [1e-12, 1 − 1e-12]), α-quantile,
    // and log of the weighted mean for the log links.
    // rows_sharded: y holds this rank's rows of rows spread over MPI ranks (sums over ranks).
    std::vector<double> initial_scores(const Vector& y, const Vector& w, Index K, bool rows_sharded = false) const;

    // DataError naming the first row (1-based) whose label the loss cannot take: y < 0
    // (poisson, tweedie), y <= 0 (gamma), or Σ y = 0 (poisson, tweedie: log 0 has no score),
    // or a grade that is not a whole number in 0..31 (ranking losses).
    void check_labels(const Vector& y) const;

    // Whether leaf values are re-fitted after growth (absolute, huber, quantile).
    bool renews_leaves() const {
        return kind == LossKind::absolute || kind == LossKind::huber || kind == LossKind::quantile;
    }
    // The value minimising Σ w_i ℓ(r_i − v) over one leaf's residuals r_i = y_i − F_i:
    // the weighted median (absolute), the weighted α-quantile (quantile), or Friedman's one-step Huber estimate
    // m + Σ w_i sign(r_i − m) min(δ, |r_i − m|) / Σ w_i with m the weighted median.
    double renewed_leaf(std::span<const double> residuals, std::span<const double> weights) const;

    // Raw scores to probabilities (logistic: n x 2, softmax: n x k), row-major K per row.
    Eigen::MatrixXd probabilities(const Eigen::MatrixXd& raw) const;
};

// The weighted α-quantile: the smallest value whose cumulative weight (values ascending)
// reaches α of the total, scikit-learn's _weighted_percentile; weights may be empty (all 1).
double weighted_quantile(std::span<const double> values, std::span<const double> weights, double alpha);
// weighted_quantile at ½ (the lower median at an exact half).
double weighted_median(std::span<const double> values, std::span<const double> weights);

}  // namespace kestrel
