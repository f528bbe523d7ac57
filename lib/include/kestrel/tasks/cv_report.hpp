#pragma once
// What cross-validation answers, as kestrel-cv writes it: the scheme and the scores as
// JSON and as the text table, every split's test predictions as CSV, and a learning curve
// as JSON, CSV and text. A program (or the Python package's printed result) gets the same
// bytes; the classification and regression reports print themselves (to_text()).
#include <cstdint>
#include <string>
#include <vector>

#include "kestrel/model_selection/cross_validate.hpp"
#include "kestrel/model_selection/learning_curve.hpp"

namespace kestrel {

// The scheme: {"scheme": describe(s)} and k / repeats, splits / test_fraction, or k and
// the group count.
Json cv_scheme_json(const SplitOptions& s);

// What was cross-validated: {"model", "task" (as the registry labels it), "rows", "seed"}
// and cv_scheme_json.
Json cv_about_json(const ModelSpec& spec, const Dataset& data, const SplitOptions& s, std::uint64_t seed);

// "5-fold cross-validation x 2 repeats", "leave-one-out cross-validation", ...
std::string cv_title(const SplitOptions& s);

// The scores as a table: a row per metric with its mean, std and each fold's score (with
// more than 10 splits, the pooled score instead of the folds), and the early-stopping
// rounds of each fold's model.
std::string cv_scores_text(const CvResult& r);

// The scores of cv: {"metrics": {name: {"mean", "std", "folds", "pooled"}}, "rounds" (early
// stopping per fold, when the model stops early), "out_of_fold" (the classification or
// regression report of the out-of-fold predictions)}.
Json cv_scores_json(const CvResult& r, Task task);

// One line per (split, test row): row (0-based data row; for a validation file, its row in
// that file), repeat (repeated k-fold), fold (1-based), truth, prediction, then
// probabilities and decision values where every split has them.
std::string fold_predictions_csv(const Dataset& data, const CvResult& r, const SplitOptions& s);

// {"metric", "greater_is_better", "points": [{"fraction", "train_size", "train",
// "validation", "mean_fit_seconds"}]}.
Json learning_curve_json(const LearningCurve& c);
// The curve as a table: fraction, rows, train and validation mean and std, fit seconds.
std::string learning_curve_text(const LearningCurve& c);
// fraction, train_size, train_mean, train_std, validation_mean, validation_std, mean_fit_seconds.
std::string learning_curve_csv(const LearningCurve& c);

// Group ids 0..g-1 in sorted order of the values (numeric when every value is a number),
// as numpy.unique numbers scikit-learn's groups.
std::vector<Index> group_ids(const std::vector<std::string>& values);

}  // namespace kestrel
