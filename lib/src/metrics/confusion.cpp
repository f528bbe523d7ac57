// Confusion matrix, accuracy and balanced accuracy (scikit-learn 1.2 definitions).
#include <cmath>
#include <limits>

#include "kestrel/metrics/classification.hpp"
#include "metrics_internal.hpp"

namespace kestrel {

using metrics_internal::class_index;

CountMatrix confusion_matrix(const Eigen::VectorXd& y_true, const Eigen::VectorXd& y_pred, Index k) {
    metrics_internal::check_lengths(y_true, y_pred);
    // Widen to any index beyond k (a class seen only in the test data) instead of failing.
    for (Index i = 0; i < y_true.size(); ++i)
        k = std::max({k, class_index(y_true[i]) + 1, class_index(y_pred[i]) + 1});
    CountMatrix cm = CountMatrix::Zero(k, k);
    for (Index i = 0; i < y_true.size(); ++i) ++cm(class_index(y_true[i]), class_index(y_pred[i]));
    return cm;
}

double accuracy(const Eigen::VectorXd& y_true, const Eigen::VectorXd& y_pred) {
    metrics_internal::check_lengths(y_true, y_pred);
    // sklearn averages over no samples to NaN; so do we rather than invent a value.
    if (y_true.size() == 0) return std::numeric_limits<double>::quiet_NaN();
    long long hits = 0;
    for (Index i = 0; i < y_true.size(); ++i) hits += class_index(y_true[i]) == class_index(y_pred[i]);
    return static_cast<double>(hits) / static_cast<double>(y_true.size());
}

double balanced_accuracy(const Eigen::VectorXd& y_true, const Eigen::VectorXd& y_pred, Index k) {
    const CountMatrix cm = confusion_matrix(y_true, y_pred, k);
    // Mean recall over the classes present in y_true: a class only predicted has no
    // recall and sklearn drops it (with a warning) rather than counting it as 0.
    double sum = 0;
    Index present = 0;
    for (Index c = 0; c < cm.rows(); ++c) {
        const long long support = cm.row(c).sum();
        if (support == 0) continue;
        sum += static_cast<double>(cm(c, c)) / static_cast<double>(support);
        ++present;
    }
    if (present == 0) return std::numeric_limits<double>::quiet_NaN();
    return sum / static_cast<double>(present);
}

}  // namespace kestrel
