#pragma once
// ROC and precision-recall curve points, as scikit-learn 1.2's roc_curve and
// precision_recall_curve (their AUCs are roc_auc_binary / average_precision_binary in
// classification.hpp, which these curves reproduce: trapezoids under the ROC points,
// steps under the PR points).
#include <string>
#include <vector>

#include "kestrel/metrics/predictions.hpp"

namespace kestrel {

// Points from (0, 0) to (1, 1), fpr and tpr non-decreasing. thresholds[i] is the lowest
// score predicted positive at point i; thresholds[0] is the highest score + 1 (sklearn
// 1.2's extra point that starts the curve at the origin). drop_intermediate drops the
// points collinear with their neighbours, as sklearn's default (the area is unchanged).
struct RocCurve {
    std::vector<double> fpr, tpr, thresholds;
};
// Recall decreasing to 0; precision and recall have one more point than thresholds
// (the last point, precision 1 at recall 0, has no threshold), as sklearn.
struct PrCurve {
    std::vector<double> precision, recall, thresholds;
};

// is_positive: 1 for the positive class, 0 otherwise. DataError when a score is NaN.
// With no positives (or no negatives) the tpr (fpr) column is NaN, as sklearn.
RocCurve roc_curve(const Eigen::VectorXd& is_positive, const Eigen::VectorXd& score, bool drop_intermediate = true);
PrCurve precision_recall_curve(const Eigen::VectorXd& is_positive, const Eigen::VectorXd& score);

// The curves of one class against the rest.
struct ClassCurves {
    Index class_index = 0;
    std::string class_name;
    RocCurve roc;
    PrCurve pr;
    double roc_auc = 0, average_precision = 0;
};

// Binary (two classes): one entry, the positive class (class 1) scored by its
// probability, else the decision value. Multiclass: one-vs-rest, one entry per class
// present in y_true that has a score column. Classes whose truth holds only positives
// or only negatives are left out, so the list may be empty. The predictions must be a
// classification with scores (has_scores()), else InternalError: callers check first
// to name their flag.
std::vector<ClassCurves> class_curves(const Predictions& p);

// A reliability diagram, as scikit-learn 1.2's calibration_curve(strategy="uniform"): n_bins
// equal bins of [0, 1] with edges b / n_bins (bin b holds the probabilities in
// (b / n, (b + 1) / n], bin 0 also 0); per non-empty bin, the mean probability, the fraction
// of positives and the row count. UsageError when n_bins < 1.
struct ReliabilityCurve {
    std::vector<double> mean_predicted, fraction_positive;
    std::vector<Index> count;
};
ReliabilityCurve reliability_curve(const Eigen::VectorXd& is_positive, const Eigen::VectorXd& proba, int n_bins = 10);

}  // namespace kestrel
