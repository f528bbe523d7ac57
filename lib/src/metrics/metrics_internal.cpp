#include "metrics_internal.hpp"

#include <charconv>
#include <cmath>

#include "kestrel/core/error.hpp"

namespace kestrel::metrics_internal {

Index class_index(double v) {
    if (!(v >= 0) || v != std::floor(v) || v > 1e15)
        throw InternalError("metrics: a class index must be a non-negative integer, got " + std::to_string(v));
    return static_cast<Index>(v);
}

void check_lengths(const Eigen::VectorXd& y_true, const Eigen::VectorXd& y_pred) {
    if (y_true.size() != y_pred.size())
        throw InternalError("metrics: y_true has " + std::to_string(y_true.size()) + " values but y_pred has " +
                            std::to_string(y_pred.size()));
}

void check_task(const Predictions& p, Task task, const std::string& what) {
    if (p.task != task)
        throw UsageError(what + " is a " + to_string(task) + " metric; these predictions are " +
                         to_string(p.task));
}

Index covered_classes(const Predictions& p) {
    Index k = p.n_classes();
    for (Index i = 0; i < p.y_true.size(); ++i) k = std::max(k, class_index(p.y_true[i]) + 1);
    for (Index i = 0; i < p.y_pred.size(); ++i) k = std::max(k, class_index(p.y_pred[i]) + 1);
    return k;
}

std::string fixed4(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 4);
    if (res.ec != std::errc()) return "?";  // only for magnitudes beyond 1e59
    return std::string(buf, res.ptr);
}

}  // namespace kestrel::metrics_internal
