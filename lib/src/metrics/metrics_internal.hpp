#pragma once
// Helpers shared by the metric sources (not part of the public surface).
#include <limits>
#include <string>

#include "kestrel/metrics/predictions.hpp"

namespace kestrel::metrics_internal {

// The value of a metric that is undefined on its input (e.g. AUC with one class).
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A class index stored as a double (y_true / y_pred); InternalError unless it is a
// non-negative integer, since every producer of Predictions writes indices.
Index class_index(double v);

// InternalError unless y_true and y_pred have the same length.
void check_lengths(const Eigen::VectorXd& y_true, const Eigen::VectorXd& y_pred);

// UsageError unless the predictions are of the given task (names the caller).
void check_task(const Predictions& p, Task task, const std::string& what);

// The number of classes the metrics must cover: the class list, widened to any index
// that appears in y_true or y_pred beyond it.
Index covered_classes(const Predictions& p);

// Fixed notation with 4 decimals, independent of the C locale ("nan" for NaN).
std::string fixed4(double v);

}  // namespace kestrel::metrics_internal
