#pragma once
// The logistic function and its log-partition, written once for every model that
// turns margins into probabilities (logistic, kernel logistic, Platt scaling, ECOC
// decoding, gbdt's log-loss).
#include <cmath>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

double log1p_exp(double t);  // log(1 + e^t) without overflow
// 1 / (1 + e^-t) without overflow; inline: gbdt's gradient loop calls it once per row and round.
inline double sigmoid(double t) {
    if (t >= 0) return 1.0 / (1.0 + std::exp(-t));
    const double e = std::exp(t);
    return e / (1.0 + e);
}
// Class probabilities from decision scores: one column z gives (σ(−z), σ(z)), each side
// from its own sign (1 − σ(z) would lose the small one); k columns give their softmax.
Eigen::MatrixXd logistic_probabilities(const Eigen::MatrixXd& z);

}  // namespace kestrel
