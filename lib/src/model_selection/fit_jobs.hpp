#pragma once
// One parallel loop over independent fits, shared by cross_validate, the searches
// (grid, random, halving, nested) and learning curves: each job fits a spec on a
// fold's training rows and scores its test rows. Jobs carry their own master seed
// and stream, so a job's result never depends on which thread ran it or when.
#include <span>
#include <string>
#include <vector>

#include "kestrel/model_selection/cross_validate.hpp"

namespace kestrel::detail {

struct FitJob {
    const Dataset* data = nullptr;
    const Fold* fold = nullptr;
    const ModelSpec* spec = nullptr;
    std::uint64_t seed = 0;    // master seed of the fit's context
    std::uint64_t stream = 0;  // the fit's seed is derive_seed(seed, stream)
    std::string label;         // prefixes the fit's warnings
    int outer = -1;            // nested CV: the outer fold these rows come from
    FitPhase phase = FitPhase::tune;
    bool score_train = false;  // also score the training rows (learning curves)
    bool keep_predictions = false;
    // A model that stops early (gbdt) watches the fold's test rows, as XGBoost's cv does;
    // false leaves it to its own hold-out of the training rows (kestrel-auto, whose
    // scores rank models that do not stop early against it).
    bool stop_on_test_rows = true;
};

struct FitOutcome {
    std::vector<double> scores;        // per metric, on the test rows
    std::vector<double> train_scores;  // per metric, on the training rows (score_train)
    double seconds = 0;                // fit time
    long long best_iteration = -1;     // the round early stopping kept (Estimator::best_iteration)
    Predictions predictions;           // test rows in fold order (keep_predictions)
};

std::vector<FitOutcome> run_fit_jobs(const std::vector<FitJob>& jobs, const std::vector<std::string>& metrics,
                                     const Context& ctx, const std::string& progress_label,
                                     const FitObserver& observer = {});

// A fitted model's predictions on `rows` of `data` (X = those rows' features).
Predictions predict_rows(const Model& model, const ModelSpec& spec, const Dataset& data,
                         std::span<const Index> rows, const Features& X);

}  // namespace kestrel::detail
