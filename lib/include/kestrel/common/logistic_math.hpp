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
// log(1 + e^-t) and σ(-t) from one exp, e^-|t|: the same bits as log1p_exp(-t) and
// sigmoid(-t), which compute the same e^-|t| each (the logistic loss of a margin t and
// its derivative's weight, for the sums over rows that need both).
struct LogisticLossTerms {
    double loss;     // log(1 + e^-t)
    double p_wrong;  // σ(-t): the probability given to the other class
};
// The same from e = e^-|t| computed elsewhere (a vector exp over a block of rows).
inline LogisticLossTerms logistic_loss_terms(double t, double e) {
    const double log1p_e = std::log1p(e);
    return {t < 0 ? -t + log1p_e : log1p_e, t <= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e)};
}
inline LogisticLossTerms logistic_loss_terms(double t) { return logistic_loss_terms(t, std::exp(-std::abs(t))); }
// Class probabilities from decision scores: one column z gives (σ(−z), σ(z)), each side
// from its own sign (1 − σ(z) would lose the small one); k columns give their softmax.
Eigen::MatrixXd logistic_probabilities(const Eigen::MatrixXd& z);

}  // namespace kestrel
