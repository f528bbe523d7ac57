// Regression metrics, as scikit-learn 1.2's mean_squared_error, mean_absolute_error,
// r2_score and max_error.
#include "kestrel/metrics/regression.hpp"

#include <cmath>
#include <limits>

#include "metrics_internal.hpp"

namespace kestrel {

double mean_squared_error(const Eigen::VectorXd& y, const Eigen::VectorXd& yhat) {
    metrics_internal::check_lengths(y, yhat);
    if (y.size() == 0) return metrics_internal::kNaN;
    return (y - yhat).squaredNorm() / static_cast<double>(y.size());
}

double mean_absolute_error(const Eigen::VectorXd& y, const Eigen::VectorXd& yhat) {
    metrics_internal::check_lengths(y, yhat);
    if (y.size() == 0) return metrics_internal::kNaN;
    return (y - yhat).cwiseAbs().sum() / static_cast<double>(y.size());
}

double r2_score(const Eigen::VectorXd& y, const Eigen::VectorXd& yhat) {
    metrics_internal::check_lengths(y, yhat);
    if (y.size() < 2) return metrics_internal::kNaN;  // sklearn: not well-defined with fewer than two samples
    const double ss_res = (y - yhat).squaredNorm();
    // A constant truth is tested directly: its float mean can differ from the value in
    // the last bit (mean of three 0.1s), which would turn SStot into rounding noise.
    const bool constant_truth = (y.array() == y[0]).all();
    if (constant_truth) return ss_res == 0 ? 1.0 : 0.0;  // sklearn's force_finite convention
    const double ss_tot = (y.array() - y.mean()).square().sum();
    return 1.0 - ss_res / ss_tot;
}

double max_error(const Eigen::VectorXd& y, const Eigen::VectorXd& yhat) {
    metrics_internal::check_lengths(y, yhat);
    if (y.size() == 0) return metrics_internal::kNaN;
    return (y - yhat).cwiseAbs().maxCoeff();
}

RegressionReport regression_report(const Predictions& p) {
    metrics_internal::check_task(p, Task::regression, "the regression report");
    RegressionReport r;
    r.n = p.y_true.size();
    r.mse = mean_squared_error(p.y_true, p.y_pred);
    r.rmse = std::sqrt(r.mse);
    r.mae = mean_absolute_error(p.y_true, p.y_pred);
    r.r2 = r2_score(p.y_true, p.y_pred);
    r.max_error = max_error(p.y_true, p.y_pred);
    return r;
}

std::string RegressionReport::to_text() const {
    std::string out = "n           ";
    out += std::to_string(n);
    const auto line = [&out](const char* label, double v) {
        out += label;
        out += metrics_internal::fixed4(v);
    };
    line("\nMSE         ", mse);
    line("\nRMSE        ", rmse);
    line("\nMAE         ", mae);
    line("\nR^2         ", r2);
    line("\nmax error   ", max_error);
    out += "\n";
    return out;
}

Json RegressionReport::to_json() const {
    return Json{{"n", n}, {"mse", mse}, {"rmse", rmse}, {"mae", mae}, {"r2", r2}, {"max_error", max_error}};
}

}  // namespace kestrel
