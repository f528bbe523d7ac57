#pragma once
// Choosing the decision threshold of a binary classifier on out-of-fold scores
// (kestrel-cv --tune-threshold). A row is predicted positive (classes[1]) when its
// score is above the threshold; the score is P(classes[1]) when the model gives
// probabilities, else its decision value (Model::threshold_score).
#include <string>

#include "kestrel/core/dataset.hpp"
#include "kestrel/metrics/predictions.hpp"

namespace kestrel {

struct ThresholdCriterion {
    enum class Kind { f1, precision, recall };
    Kind kind = Kind::f1;
    double target = 0;  // precision / recall: the least value to reach
    std::string text;   // as given
};

// "f1", "precision=P", "recall=R" (P, R in (0, 1]); UsageError naming the option tune_threshold.
ThresholdCriterion parse_threshold_criterion(const std::string& text);

struct ThresholdChoice {
    double threshold = 0;
    double precision = 0, recall = 0, f1 = 0;  // on the scores it was chosen on
    double predicted_positive = 0;             // (weighted) rows above the threshold
};

// Candidates are the midpoints between consecutive distinct scores (and just below the
// lowest), each predicting at least one row positive. f1: the highest F1;
// precision=P: the highest recall among thresholds with precision >= P;
// recall=R: the highest precision among thresholds with recall >= R. Ties go to the
// higher threshold. `positive` is 1 for classes[1] rows, 0 otherwise; `weights` may be
// empty. DataError when no threshold reaches the target, naming the best reachable.
ThresholdChoice tune_threshold(const Vector& scores, const Vector& positive, const Vector& weights,
                               const ThresholdCriterion& criterion);

// The score column a threshold applies to: P(classes[1]) when there are probabilities,
// else the binary decision value. Empty when the predictions have neither.
Vector positive_scores(const Predictions& p);

}  // namespace kestrel
