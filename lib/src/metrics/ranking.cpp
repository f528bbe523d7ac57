// Ranking metrics (ROC AUC, average precision) and log loss, as scikit-learn 1.2's
// roc_auc_score, average_precision_score and log_loss.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/classification.hpp"
#include "metrics_internal.hpp"

namespace kestrel {
namespace {

// Cumulative true and false positives at each distinct score, highest score first
// (sklearn's _binary_clf_curve): tied scores enter together, which is what gives a
// tied positive/negative pair half credit in the ROC area.
struct CurvePoint {
    long long tp = 0, fp = 0;
};

std::vector<CurvePoint> binary_curve(const Eigen::VectorXd& is_positive, const Eigen::VectorXd& score) {
    const Index n = score.size();
    std::vector<Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Index{0});
    std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return score[a] > score[b]; });
    std::vector<CurvePoint> curve;
    CurvePoint at;
    for (std::size_t j = 0; j < order.size(); ++j) {
        const Index i = order[j];
        if (is_positive[i] != 0) ++at.tp; else ++at.fp;
        if (j + 1 == order.size() || score[order[j + 1]] != score[i]) curve.push_back(at);
    }
    return curve;
}

bool valid_inputs(const Eigen::VectorXd& is_positive, const Eigen::VectorXd& score) {
    if (is_positive.size() != score.size())
        throw InternalError("ranking metric: " + std::to_string(is_positive.size()) + " labels but " +
                            std::to_string(score.size()) + " scores");
    // NaN has no place in an ordering; a diverged model yields NaN, not undefined behaviour.
    return !score.array().isNaN().any();
}

void check_score_rows(const Predictions& p) {
    const Index n = p.y_true.size();
    metrics_internal::check_lengths(p.y_true, p.y_pred);
    if ((p.proba.size() > 0 && p.proba.rows() != n) || (p.decision.size() > 0 && p.decision.rows() != n))
        throw InternalError("metrics: the score matrix does not have one row per prediction");
}

// The score of class c for every row: its probability when the model has them, else
// its decision value (a binary model's single column scores class 1; class 0 gets its
// negation). A class without a column (seen only in the test data) scores a constant 0.
Eigen::VectorXd class_scores(const Predictions& p, Index c) {
    const Index n = p.y_true.size();
    const Eigen::MatrixXd& s = p.proba.size() > 0 ? p.proba : p.decision;
    if (p.proba.size() == 0 && s.cols() == 1) {
        if (c == 1) return s.col(0);
        if (c == 0) return -s.col(0);
        return Eigen::VectorXd::Zero(n);
    }
    return c < s.cols() ? Eigen::VectorXd(s.col(c)) : Eigen::VectorXd::Zero(n);
}

Eigen::VectorXd indicator(const Eigen::VectorXd& y_true, Index c) {
    Eigen::VectorXd out(y_true.size());
    for (Index i = 0; i < y_true.size(); ++i) out[i] = metrics_internal::class_index(y_true[i]) == c ? 1.0 : 0.0;
    return out;
}

using BinaryMetric = std::function<double(const Eigen::VectorXd&, const Eigen::VectorXd&)>;

// Binary when there are two classes (positive = class 1), else one-vs-rest macro over the
// classes present in y_true (sklearn's multi_class="ovr", average="macro").
std::optional<double> ranking_metric(const Predictions& p, const BinaryMetric& metric) {
    metrics_internal::check_task(p, Task::classification, "a ranking metric");
    if (!p.has_scores()) return std::nullopt;
    check_score_rows(p);
    const Index k = metrics_internal::covered_classes(p);
    std::vector<long long> support(static_cast<std::size_t>(k), 0);
    for (Index i = 0; i < p.y_true.size(); ++i) ++support[metrics_internal::class_index(p.y_true[i])];
    const auto present = std::count_if(support.begin(), support.end(), [](long long s) { return s > 0; });
    if (present < 2) return std::nullopt;
    if (k == 2) return metric(indicator(p.y_true, 1), class_scores(p, 1));
    double sum = 0;
    for (Index c = 0; c < k; ++c)
        if (support[c] > 0) sum += metric(indicator(p.y_true, c), class_scores(p, c));
    return sum / static_cast<double>(present);
}

}  // namespace

double roc_auc_binary(const Eigen::VectorXd& is_positive, const Eigen::VectorXd& score) {
    if (!valid_inputs(is_positive, score)) return metrics_internal::kNaN;
    const std::vector<CurvePoint> curve = binary_curve(is_positive, score);
    if (curve.empty()) return metrics_internal::kNaN;
    const long long positives = curve.back().tp, negatives = curve.back().fp;
    if (positives == 0 || negatives == 0) return metrics_internal::kNaN;  // sklearn: undefined for one class
    // Trapezoids between consecutive (fp, tp) points from (0, 0), in integers (twice the
    // area, exact), normalised once: the same area as sklearn's trapz over (fpr, tpr).
    long long twice_area = 0;
    CurvePoint prev;
    for (const CurvePoint& pt : curve) {
        twice_area += (pt.fp - prev.fp) * (pt.tp + prev.tp);
        prev = pt;
    }
    return static_cast<double>(twice_area) /
           (2.0 * static_cast<double>(positives) * static_cast<double>(negatives));
}

double average_precision_binary(const Eigen::VectorXd& is_positive, const Eigen::VectorXd& score) {
    if (!valid_inputs(is_positive, score)) return metrics_internal::kNaN;
    const std::vector<CurvePoint> curve = binary_curve(is_positive, score);
    if (curve.empty() || curve.back().tp == 0) return metrics_internal::kNaN;  // recall undefined without positives
    const double positives = static_cast<double>(curve.back().tp);
    // AP = sum_n (R_n - R_{n-1}) P_n over distinct thresholds, no interpolation.
    double ap = 0, prev_recall = 0;
    for (const CurvePoint& pt : curve) {
        const double recall = static_cast<double>(pt.tp) / positives;
        const double precision = static_cast<double>(pt.tp) / static_cast<double>(pt.tp + pt.fp);
        ap += (recall - prev_recall) * precision;
        prev_recall = recall;
    }
    return ap;
}

std::optional<double> roc_auc(const Predictions& p) { return ranking_metric(p, roc_auc_binary); }

std::optional<double> average_precision(const Predictions& p) {
    return ranking_metric(p, average_precision_binary);
}

std::optional<double> log_loss(const Predictions& p) {
    metrics_internal::check_task(p, Task::classification, "log_loss");
    if (p.proba.size() == 0 || p.y_true.size() == 0) return std::nullopt;
    check_score_rows(p);
    const Index k = metrics_internal::covered_classes(p);
    const Index m = p.proba.cols();
    const auto clipped = [](double v) { return std::clamp(v, kLogLossEps, 1.0 - kLogLossEps); };
    double total = 0;
    for (Index i = 0; i < p.y_true.size(); ++i) {
        // Clip, then renormalise the row, as sklearn 1.2 does; classes the model never
        // saw have probability 0 and so count as eps.
        double row_sum = 0;
        for (Index c = 0; c < k; ++c) row_sum += clipped(c < m ? p.proba(i, c) : 0.0);
        const Index t = metrics_internal::class_index(p.y_true[i]);
        const double p_true = clipped(t < m ? p.proba(i, t) : 0.0);
        total -= std::log(p_true / row_sum);
    }
    return total / static_cast<double>(p.y_true.size());
}

}  // namespace kestrel
