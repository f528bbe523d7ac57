#pragma once
#include <string>

#include "kestrel/metrics/predictions.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

double mean_squared_error(const Eigen::VectorXd& y, const Eigen::VectorXd& yhat);
double mean_absolute_error(const Eigen::VectorXd& y, const Eigen::VectorXd& yhat);
double r2_score(const Eigen::VectorXd& y, const Eigen::VectorXd& yhat);  // 1 - SSres/SStot (sklearn: 1.0 if perfect constant, 0.0 if constant truth otherwise)
double max_error(const Eigen::VectorXd& y, const Eigen::VectorXd& yhat);

struct RegressionReport {
    double mse = 0, rmse = 0, mae = 0, r2 = 0, max_error = 0;
    long long n = 0;
    std::string to_text() const;
    Json to_json() const;
};
RegressionReport regression_report(const Predictions& p);

}  // namespace kestrel
