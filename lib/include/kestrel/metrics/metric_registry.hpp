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
// Default metric for a task: accuracy / r2.
std::string default_metric(Task task);
// Default metric of rows in query groups (learning to rank).
inline const char* const kDefaultRankingMetric = "ndcg@10";

}  // namespace kestrel
