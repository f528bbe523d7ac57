#pragma once
// k-fold cross-validation of a ModelSpec: preprocessing and model are fitted on the
// training folds only. Folds run in parallel; each fold's fit gets a seed derived
// from the master seed and its fold number, so results do not depend on --threads.
#include <map>
#include <string>
#include <vector>

#include "kestrel/core/model.hpp"
#include "kestrel/metrics/predictions.hpp"
#include "kestrel/model_selection/splits.hpp"

namespace kestrel {

struct CvOptions {
    int k = 5;
    int repeats = 1;
    std::vector<std::string> metrics;  // empty = the task's default report metrics
};

struct FoldResult {
    int repeat = 0, index = 0;
    std::map<std::string, double> scores;
    double fit_seconds = 0;
};

struct MetricSummary {
    double mean = 0, std = 0;  // std over folds (population, ddof=0, as sklearn's cv_results_)
};

struct CvResult {
    std::vector<FoldResult> folds;
    std::map<std::string, MetricSummary> summary;
    Predictions out_of_fold;  // of the first repetition, rows in file order
    std::vector<std::string> metrics;

    double mean(const std::string& metric) const { return summary.at(metric).mean; }
};

// The metrics a cv reports by default for a task.
std::vector<std::string> default_cv_metrics(Task task, bool has_scores, bool has_proba);

// Makes the folds for a dataset: stratified for classification, plain otherwise.
std::vector<Fold> make_folds(const Dataset& data, int k, int repeats, std::uint64_t seed);

// Fits on fold.train, predicts fold.test (labels, decision values and probabilities
// where the model has them). `fit_seconds`, when given, receives the training time.
Predictions fit_and_predict(const ModelSpec& spec, const Dataset& data, const Fold& fold, const Context& ctx,
                            double* fit_seconds = nullptr);

// Checks before any fit that each metric exists, is one for the data's task, and gets
// the decision values or probabilities it needs from this model (UsageError).
void check_metrics(const ModelSpec& spec, Task task, const std::vector<std::string>& metrics);

// Scores predictions on the given metrics.
std::map<std::string, double> score_predictions(const Predictions& p, const std::vector<std::string>& metrics);

CvResult cross_validate(const ModelSpec& spec, const Dataset& data, const CvOptions& opts, const Context& ctx);

// Mean and population std of a list of numbers.
MetricSummary summarize(const std::vector<double>& values);

}  // namespace kestrel
