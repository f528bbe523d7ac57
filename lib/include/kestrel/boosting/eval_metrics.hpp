#pragma once
// gbdt's evaluation metrics (`-p eval_metric=`, docs/models/gbdt.md "Validation sets"):
// computed every round on each watched set from its raw scores, as XGBoost's `evals`.
// Names are XGBoost's; every sum is weighted by the set's row weights (all 1 when none).
//   logloss, mlogloss   −Σ w log p_y / Σ w (p clipped to [1e-15, 1 − 1e-15])
//   error, merror       weighted share of rows misclassified (two classes: p > 0.5 is class 1)
//   auc                 two classes: P(score of a positive > a negative's), ties half;
//                       more: one-vs-rest AUCs averaged with weights the class totals (XGBoost 1.7)
//   aucpr               two classes: average precision Σ (R_k − R_{k−1}) P_k over score thresholds
//                       (scikit-learn's average_precision_score)
//   rmse, mae, mape     on the regression prediction (e^F under a log link): √(Σ w r² / Σ w),
//                       Σ w |r| / Σ w, Σ w |r / y| / Σ w
//   poisson-nloglik     Σ w (log Γ(y + 1) + μ − y log μ) / Σ w, μ = e^F          (log links)
//   gamma-nloglik       Σ w (y / μ + log μ) / Σ w
//   gamma-deviance      2 Σ w (log(μ / y) + y / μ − 1) / Σ w (μ, y each + 1e-6, as XGBoost)
//   tweedie-nloglik     Σ w (−y μ^(1−ρ) / (1−ρ) + μ^(2−ρ) / (2−ρ)) / Σ w, ρ the loss's power
//   quantile            the pinball loss at the loss's alpha (loss=quantile)
//   ndcg[@k], map[@k], mrr[@k]  the ranking losses: per query, averaged (metrics/query_metrics.hpp)
//   loss                the objective itself: Loss::mean (what early stopping watched before
//                       eval_metric existed, and the default of huber)
#include <span>
#include <string>
#include <vector>

#include "kestrel/boosting/losses.hpp"
#include "kestrel/core/dataset.hpp"

namespace kestrel {

struct EvalMetric {
    std::string name;
    bool maximize = false;  // auc, aucpr: larger is better
};

// The metrics of `list` (comma-separated names; "auto": the loss's default, XGBoost's:
// rmse, mae, loss, logloss, mlogloss, poisson-nloglik, gamma-nloglik, tweedie-nloglik,
// quantile, ndcg for lambdarank, map for rank_pairwise). ParamError for an unknown name or one that does
// not fit the loss's task.
std::vector<EvalMetric> parse_eval_metrics(const std::string& list, const Loss& loss);

// The metric over n rows with raw scores F (row-major n x K), labels y (class index or
// target) and weights w (empty: all 1). DataError when the set cannot give it (auc with
// one class present). `queries`: the set's query groups (query_starts), for the ranking losses.
double evaluate_metric(const EvalMetric& metric, const Loss& loss, const double* F, Index K, const Vector& y,
                       const Vector& w, int threads, std::span<const Index> queries = {});

}  // namespace kestrel
