#pragma once
// Small builders for metric tests.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kestrel/metrics/predictions.hpp"

namespace kestrel::metrics_test {

// Values that are exact up to rounding: 1e-12 relative (doctest's Approx scale 1).
inline doctest::Approx exact(double v) { return doctest::Approx(v).epsilon(1e-12); }

inline Eigen::VectorXd vec(const std::vector<double>& v) {
    return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Index>(v.size()));
}

inline Eigen::MatrixXd mat(const std::vector<std::vector<double>>& rows) {
    Eigen::MatrixXd m(static_cast<Index>(rows.size()), rows.empty() ? 0 : static_cast<Index>(rows[0].size()));
    for (Index i = 0; i < m.rows(); ++i)
        for (Index j = 0; j < m.cols(); ++j) m(i, j) = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
    return m;
}

inline Predictions classification(const std::vector<double>& y_true, const std::vector<double>& y_pred,
                                  std::vector<std::string> classes) {
    Predictions p;
    p.task = Task::classification;
    p.y_true = vec(y_true);
    p.y_pred = vec(y_pred);
    p.classes = std::move(classes);
    return p;
}

inline Predictions regression(const std::vector<double>& y, const std::vector<double>& yhat) {
    Predictions p;
    p.task = Task::regression;
    p.y_true = vec(y);
    p.y_pred = vec(yhat);
    return p;
}

}  // namespace kestrel::metrics_test
