#pragma once
// Feature selection scored by cross-validation (kestrel-select): greedy forward and
// backward selection, and selection by L1 models along their regularization path.
// Every candidate is scored by cross_validate with the same folds (the folds depend
// on the labels and the seed only), so candidates differ only by their features.
#include <string>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/model_selection/cross_validate.hpp"

namespace kestrel {

struct SelectionOptions {
    bool forward = true;
    int max_features = 0;  // 0 = no limit
    CvOptions cv;          // the scheme; its metrics are replaced by `metric`
    std::string metric;    // empty = accuracy (classification) / rmse (regression)
};

// The error of a metric value: 1 - score for a metric where greater is better (all
// of kestrel's are at most 1: accuracy, f1, roc_auc, r2, ...), else the value itself.
double metric_error(const std::string& metric, double score);

// The dataset with only the columns `features` (in that order) and their names.
Dataset with_features(const Dataset& data, const std::vector<Index>& features);

struct SelectionStep {
    std::vector<Index> features;  // after the step, in input order
    Index changed = -1;           // the feature added or removed (-1: the starting set)
    double score = 0, error = 0;  // cross-validated mean of the metric, and its error
};

struct SelectionResult {
    std::string metric;
    std::vector<SelectionStep> trajectory;  // accepted steps in order; the last is the selection
    std::vector<Index> selected;
    ErrorText stop;  // why it stopped (naming max_features when that stopped it)
};

// Forward: from no feature, add the feature that lowers the cross-validated error
// most; stop when no addition lowers it (or at max_features). Backward: from all
// features, remove the feature whose removal lowers the error most; stop when no
// removal lowers it (removals continue while more than max_features remain, when
// set), or at one feature. Ties go to the lowest feature index.
SelectionResult sequential_selection(const ModelSpec& spec, const Dataset& data, const SelectionOptions& opts,
                                     const Context& ctx);

struct L1PathPoint {
    double strength = 0;          // lasso: lambda; logistic: C
    std::vector<Index> nonzero;   // features with a non-zero weight, fitted on all rows
    double score = 0, error = 0;  // cross-validated, at this strength
};

struct L1SelectionResult {
    std::string model;          // "lasso" or "logistic"
    std::string strength_name;  // "lambda" or "C"
    std::string metric;
    std::vector<L1PathPoint> path;   // from strongest to weakest regularization
    std::size_t chosen = 0;          // the path point selected
    std::vector<Index> entry_order;  // features in the order they become non-zero along the path
    std::vector<Index> selected;
};

// Selection by an L1 model: lasso for regression, logistic with penalty=l1 for
// classification (one-vs-rest for k > 2 classes: a feature counts when any class
// uses it). The path has `points` strengths: lasso's own λ path (geometric from
// λ_max), or C geometric over three decades above the C below which every weight is
// zero. The selection is the non-zero set of the point with the lowest
// cross-validated error among those with 1..max_features features (ties: the
// sparser, more regularized point). `spec.model` must be lasso or logistic.
L1SelectionResult l1_selection(const ModelSpec& spec, const Dataset& data, const SelectionOptions& opts, int points,
                               const Context& ctx);

}  // namespace kestrel
