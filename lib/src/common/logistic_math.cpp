#include "kestrel/common/logistic_math.hpp"

#include <cmath>

namespace kestrel {

double log1p_exp(double t) {
    // For t > 0, log(1 + e^t) = t + log(1 + e^-t): e^t would overflow past ~709.
    return t > 0 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t));
}

Eigen::MatrixXd logistic_probabilities(const Eigen::MatrixXd& z) {
    const Index n = z.rows();
    if (z.cols() == 1) {
        Eigen::MatrixXd proba(n, 2);
        for (Index i = 0; i < n; ++i) {
            proba(i, 0) = sigmoid(-z(i, 0));
            proba(i, 1) = sigmoid(z(i, 0));
        }
        return proba;
    }
    Eigen::MatrixXd proba = z;
    for (Index i = 0; i < n; ++i) {
        auto row = proba.row(i);
        row.array() = (row.array() - row.maxCoeff()).exp();
        row /= row.sum();
    }
    return proba;
}

}  // namespace kestrel
