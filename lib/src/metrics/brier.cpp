#include "kestrel/core/error.hpp"
#include "kestrel/metrics/classification.hpp"
#include "metrics_internal.hpp"

namespace kestrel {

std::optional<double> brier_score(const Predictions& p) {
    metrics_internal::check_task(p, Task::classification, "brier_score");
    if (p.proba.size() == 0 || p.y_true.size() == 0) return std::nullopt;
    metrics_internal::check_lengths(p.y_true, p.y_pred);
    if (p.proba.rows() != p.y_true.size())
        throw InternalError("metrics: the probabilities do not have one row per prediction");
    const Index k = metrics_internal::covered_classes(p);
    const Index m = p.proba.cols();
    const auto proba = [&](Index i, Index c) { return c < m ? p.proba(i, c) : 0.0; };
    double total = 0;
    for (Index i = 0; i < p.y_true.size(); ++i) {
        const Index t = metrics_internal::class_index(p.y_true[i]);
        if (k == 2) {
            const double d = proba(i, 1) - (t == 1 ? 1.0 : 0.0);
            total += d * d;
            continue;
        }
        for (Index c = 0; c < k; ++c) {
            const double d = proba(i, c) - (t == c ? 1.0 : 0.0);
            total += d * d;
        }
    }
    return total / static_cast<double>(p.y_true.size());
}

}  // namespace kestrel
