#pragma once
// Metrics by name, for kestrel-cv and kestrel-gridsearch --metric. Names follow
// scikit-learn's scoring strings where they exist (accuracy, balanced_accuracy,
// f1_macro, f1_micro, f1_weighted, precision_macro, recall_macro, roc_auc,
// average_precision, neg_log_loss, r2, neg_mean_squared_error, ...), plus the
// plain error names (mse, rmse, mae, max_error, log_loss) reported as they are.
#include <functional>
#include <string>
#include <vector>

#include "kestrel/metrics/predictions.hpp"

namespace kestrel {

struct MetricInfo {
    std::string name;
    std::string help;
    Task task;
    bool greater_is_better = true;
    bool needs_scores = false;  // decision values or probabilities
    bool needs_proba = false;
    std::function<double(const Predictions&)> compute;
};

const MetricInfo& metric_info(const std::string& name);       // UsageError listing valid names
std::vector<std::string> metric_names(Task task);
double compute_metric(const std::string& name, const Predictions& p);  // UsageError if it needs scores that p lacks
// Whether a model can be scored on metric `m`: a metric that needs probabilities only when
// it gives them, one that needs scores (ROC AUC, average precision) only when it gives
// decision values or probabilities.
bool model_gives(const MetricInfo& m, bool has_scores, bool has_proba);
// The metrics of `task` (in table order) a model with these scores can be scored on: what a
// default set may hold (model_selection's default_cv_metrics keeps to it).
std::vector<std::string> metrics_given(Task task, bool has_scores, bool has_proba);
// UsageError naming the option "metric" when `name` is a metric of the other task.
void check_metric_task(const std::string& name, Task task);
// Default metric for a task: accuracy / r2.
std::string default_metric(Task task);
// Default metric of rows in query groups (learning to rank).
inline const char* const kDefaultRankingMetric = "ndcg@10";

}  // namespace kestrel
