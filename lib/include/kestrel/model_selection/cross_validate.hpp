#pragma once
// k-fold cross-validation of a ModelSpec: preprocessing and model are fitted on the
// training folds only. Folds run in parallel; each fold's fit gets a seed derived
// from the master seed and its fold number, so results do not depend on --threads.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "kestrel/common/splits.hpp"
#include "kestrel/metrics/predictions.hpp"
#include "kestrel/model_selection/cv_scheme.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

// An audit hook: called (one call at a time) before every fit with the rows it is
// fitted on and the features it will be scored on. Nested CV reports the outer fold
// whose training rows an inner fit uses; tests use it to prove what a fit never saw.
enum class FitPhase { tune, refit };
struct FitRecord {
    int outer;  // nested CV's outer fold, else -1
    FitPhase phase;
    const Dataset& train;
    const Features& test;
};
using FitObserver = std::function<void(const FitRecord&)>;

// The scheme (k, repeats, --loo, shuffle-split, groups, fixed) and what to report.
struct CvOptions : SplitOptions {
    std::vector<std::string> metrics;  // empty = the task's default report metrics
    FitObserver observe;
};

struct FoldResult {
    int repeat = 0, index = 0;
    std::map<std::string, double> scores;
    double fit_seconds = 0;
    // With early stopping (gbdt): the rounds the fold's model kept, best_iteration + 1,
    // found on the fold's test rows; 0 when the model does not stop early.
    long long rounds = 0;
};

struct MetricSummary {
    double mean = 0, std = 0;  // std over folds (population, ddof=0, as sklearn's cv_results_)
};

struct CvResult {
    std::vector<FoldResult> folds;
    std::map<std::string, MetricSummary> summary;
    // Schemes whose tests partition the rows: the first repetition's predictions, one
    // per row in file order. Others (shuffle-split, a validation file): every split's
    // test predictions one after another, and `pooled_splits` is set.
    Predictions out_of_fold;
    bool pooled_splits = false;
    std::map<std::string, double> pooled;  // each metric on out_of_fold as a whole (LIBSVM -v)
    std::vector<Fold> splits;                     // as made, one per folds[i]
    std::vector<Predictions> fold_predictions;    // per split, its test rows in order
    std::vector<std::string> metrics;

    double mean(const std::string& metric) const { return summary.at(metric).mean; }
};

// The metrics a cv reports by default for a task, kept to those a model with these scores
// gives (metrics_given): accuracy, balanced_accuracy, f1_macro, then roc_auc with decision
// values or probabilities and log_loss with probabilities; r2, rmse, mae for regression.
std::vector<std::string> default_cv_metrics(Task task, bool has_scores, bool has_proba);
// The same for a model and data, as kestrel-cv chooses them: ndcg@10 for rows in query
// groups with a regression task, else the set above for what the model's declared
// capabilities (Registry::capabilities: a multiclass wrapper's, a --calibrate) offer.
std::vector<std::string> default_cv_metrics(const ModelSpec& spec, const Dataset& data);

// Makes the k-fold folds for a dataset: stratified for classification, plain otherwise.
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
