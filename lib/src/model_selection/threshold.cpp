#include "kestrel/model_selection/threshold.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <vector>

#include "kestrel/core/error.hpp"

namespace kestrel {

ThresholdCriterion parse_threshold_criterion(const std::string& text) {
    ThresholdCriterion c;
    c.text = text;
    if (text == "f1") return c;
    const auto eq = text.find('=');
    const std::string name = text.substr(0, eq);
    if (eq == std::string::npos || (name != "precision" && name != "recall"))
        throw UsageError(option_named("tune_threshold") + ": expected f1, precision=P or recall=R, got '" + text + "'");
    const std::string value = text.substr(eq + 1);
    double v = 0;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() || !(v > 0 && v <= 1))
        throw UsageError(option_named("tune_threshold") + " " + text + ": the target must be a number in (0, 1]");
    c.kind = name == "precision" ? ThresholdCriterion::Kind::precision : ThresholdCriterion::Kind::recall;
    c.target = v;
    return c;
}

ThresholdChoice tune_threshold(const Vector& scores, const Vector& positive, const Vector& weights,
                               const ThresholdCriterion& criterion) {
    const Index n = scores.size();
    if (n == 0) throw DataError(option_named("tune_threshold") + ": no out-of-fold scores");
    for (Index i = 0; i < n; ++i)
        if (!std::isfinite(scores[i]))
            throw DataError(option_named("tune_threshold") + ": a score is not a finite number");
    auto w = [&](Index i) { return weights.size() ? weights[i] : 1.0; };
    std::vector<Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return scores[a] > scores[b]; });
    double total_pos = 0;
    for (Index i = 0; i < n; ++i) total_pos += positive[i] > 0.5 ? w(i) : 0.0;
    if (!(total_pos > 0))
        throw DataError(option_named("tune_threshold") + ": the out-of-fold rows hold no positive class");

    ThresholdChoice best;
    bool found = false;
    double best_key = -1, reachable = 0;
    double tp = 0, fp = 0;
    for (Index j = 0; j < n; ++j) {
        const Index r = order[static_cast<std::size_t>(j)];
        (positive[r] > 0.5 ? tp : fp) += w(r);
        // Only between distinct scores: a threshold cannot split equal scores.
        if (j + 1 < n && scores[order[static_cast<std::size_t>(j + 1)]] == scores[r]) continue;
        if (!(tp + fp > 0)) continue;
        const double precision = tp / (tp + fp), recall = tp / total_pos;
        const double f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
        double key = 0;
        bool ok = true;
        switch (criterion.kind) {
            case ThresholdCriterion::Kind::f1:
                key = f1;
                break;
            case ThresholdCriterion::Kind::precision:
                reachable = std::max(reachable, precision);
                ok = precision >= criterion.target;
                key = recall;
                break;
            case ThresholdCriterion::Kind::recall:
                reachable = std::max(reachable, recall);
                ok = recall >= criterion.target;
                key = precision;
                break;
        }
        // Strictly better only: on ties the earlier (higher) threshold stays.
        if (!ok || (found && key <= best_key)) continue;
        found = true;
        best_key = key;
        const double next = j + 1 < n ? scores[order[static_cast<std::size_t>(j + 1)]] : -INFINITY;
        best.threshold = j + 1 < n ? (scores[r] + next) / 2 : std::nextafter(scores[r], -INFINITY);
        best.precision = precision;
        best.recall = recall;
        best.f1 = f1;
        best.predicted_positive = tp + fp;
    }
    if (!found)
        throw DataError(option_named("tune_threshold") + " " + criterion.text +
                        ": no threshold reaches it on the out-of-fold scores " + "(the best is " +
                        std::to_string(reachable) + ")");
    return best;
}

Vector positive_scores(const Predictions& p) {
    if (p.proba.size() > 0 && p.proba.cols() >= 2) return p.proba.col(1);
    if (p.decision.size() > 0 && p.decision.cols() == 1) return p.decision.col(0);
    return {};
}

}  // namespace kestrel
