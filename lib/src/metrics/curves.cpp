// ROC and precision-recall curve points, as scikit-learn 1.2's roc_curve and
// precision_recall_curve over its _binary_clf_curve.
#include "kestrel/metrics/curves.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/classification.hpp"
#include "metrics_internal.hpp"

namespace kestrel {
namespace {

// Cumulative true and false positives at each distinct score, highest first: every row
// scoring at least the threshold is predicted positive, so tied rows enter together.
struct ThresholdCounts {
    std::vector<double> tps, fps, thresholds;
};

ThresholdCounts binary_clf_curve(const Eigen::VectorXd& is_positive, const Eigen::VectorXd& score) {
    if (is_positive.size() != score.size())
        throw InternalError("curves: " + std::to_string(is_positive.size()) + " labels but " +
                            std::to_string(score.size()) + " scores");
    if (score.array().isNaN().any())
        throw DataError("curves: the scores contain NaN (did the model diverge?)");
    std::vector<Index> order(static_cast<std::size_t>(score.size()));
    std::iota(order.begin(), order.end(), Index{0});
    std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return score[a] > score[b]; });
    ThresholdCounts out;
    double tp = 0, fp = 0;
    for (std::size_t j = 0; j < order.size(); ++j) {
        const Index i = order[j];
        if (is_positive[i] != 0) tp += 1; else fp += 1;
        if (j + 1 == order.size() || score[order[j + 1]] != score[i]) {
            out.tps.push_back(tp);
            out.fps.push_back(fp);
            out.thresholds.push_back(score[i]);
        }
    }
    return out;
}

std::vector<double> divided(const std::vector<double>& v, double by) {
    std::vector<double> out(v.size(), metrics_internal::kNaN);
    if (by > 0) std::transform(v.begin(), v.end(), out.begin(), [by](double x) { return x / by; });
    return out;
}

// The score of class c for every row: its probability, else its decision value (a
// binary model's single decision column scores class 1). Empty when c has no column.
Eigen::VectorXd score_of_class(const Predictions& p, Index c) {
    const Eigen::MatrixXd& s = p.proba.size() > 0 ? p.proba : p.decision;
    if (p.proba.size() == 0 && s.cols() == 1) return c == 1 ? Eigen::VectorXd(s.col(0)) : Eigen::VectorXd();
    return c < s.cols() ? Eigen::VectorXd(s.col(c)) : Eigen::VectorXd();
}

}  // namespace

RocCurve roc_curve(const Eigen::VectorXd& is_positive, const Eigen::VectorXd& score, bool drop_intermediate) {
    const ThresholdCounts c = binary_clf_curve(is_positive, score);
    RocCurve out;
    if (c.tps.empty()) return out;
    // A point is kept where the curve turns: a non-zero second difference in fps or tps
    // (sklearn's test; collinear points never change the trapezoid area).
    std::vector<double> tps{0}, fps{0}, thresholds{c.thresholds.front() + 1};
    const std::size_t m = c.tps.size();
    for (std::size_t i = 0; i < m; ++i) {
        const bool ends = i == 0 || i + 1 == m;
        const bool corner = ends || !drop_intermediate || m <= 2 ||
                            c.fps[i + 1] - 2 * c.fps[i] + c.fps[i - 1] != 0 ||
                            c.tps[i + 1] - 2 * c.tps[i] + c.tps[i - 1] != 0;
        if (!corner) continue;
        tps.push_back(c.tps[i]);
        fps.push_back(c.fps[i]);
        thresholds.push_back(c.thresholds[i]);
    }
    out.fpr = divided(fps, fps.back());
    out.tpr = divided(tps, tps.back());
    out.thresholds = std::move(thresholds);
    return out;
}

PrCurve precision_recall_curve(const Eigen::VectorXd& is_positive, const Eigen::VectorXd& score) {
    const ThresholdCounts c = binary_clf_curve(is_positive, score);
    PrCurve out;
    const std::size_t m = c.tps.size();
    const double positives = m > 0 ? c.tps.back() : 0;
    // Reversed so that recall decreases, then the (recall 0, precision 1) end point.
    for (std::size_t j = m; j-- > 0;) {
        const double predicted = c.tps[j] + c.fps[j];
        out.precision.push_back(predicted != 0 ? c.tps[j] / predicted : 0.0);
        out.recall.push_back(positives > 0 ? c.tps[j] / positives : 1.0);  // sklearn: 1 without positives
        out.thresholds.push_back(c.thresholds[j]);
    }
    out.precision.push_back(1.0);
    out.recall.push_back(0.0);
    return out;
}

std::vector<ClassCurves> class_curves(const Predictions& p) {
    metrics_internal::check_task(p, Task::classification, "a ROC or precision-recall curve");
    if (!p.has_scores()) throw InternalError("class_curves: the predictions carry no scores");
    const Index k = metrics_internal::covered_classes(p);
    std::vector<Index> wanted;
    if (k == 2) wanted = {1};
    else for (Index c = 0; c < k; ++c) wanted.push_back(c);
    std::vector<ClassCurves> out;
    for (Index c : wanted) {
        const Eigen::VectorXd score = score_of_class(p, c);
        if (score.size() == 0) continue;
        if (score.size() != p.y_true.size()) throw InternalError("class_curves: one score per row expected");
        Eigen::VectorXd is_positive(p.y_true.size());
        for (Index i = 0; i < p.y_true.size(); ++i)
            is_positive[i] = metrics_internal::class_index(p.y_true[i]) == c ? 1.0 : 0.0;
        const double positives = is_positive.sum();
        if (positives == 0 || positives == static_cast<double>(is_positive.size())) continue;
        ClassCurves cc;
        cc.class_index = c;
        cc.class_name = c < p.n_classes() ? p.classes[static_cast<std::size_t>(c)] : std::to_string(c);
        cc.roc = roc_curve(is_positive, score);
        cc.pr = precision_recall_curve(is_positive, score);
        cc.roc_auc = roc_auc_binary(is_positive, score);
        cc.average_precision = average_precision_binary(is_positive, score);
        out.push_back(std::move(cc));
    }
    return out;
}

}  // namespace kestrel
