#pragma once
// Probability outputs for the kernel SVMs, as LIBSVM (Chang & Lin 2011, section 8):
// Platt's sigmoid P(y=+1 | f) = 1 / (1 + exp(A f + B)) fitted by the improved
// Newton method of Lin, Lin & Weng (2007) on decision values that each row got from
// a model that did not see it (internal 5-fold cross-validation), and the Laplace
// scale of epsilon-SVR's held-out residuals.
#include <cstdint>
#include <span>

#include "kestrel/calibration/sigmoid.hpp"  // fit_sigmoid, sigmoid_probability
#include "kestrel/core/dataset.hpp"

namespace kestrel {

// LIBSVM's svm_svr_probability: the scale σ of a Laplace density fitted to
// held-out residuals, leaving out those beyond 5 standard deviations.
double laplace_scale(std::span<const double> residuals);

// The k-fold (k = min(5, n)) assignment of the probability fits: rows of fold f are
// those with fold[i] == f; shuffled from `seed`.
std::vector<int> probability_folds(Index n, std::uint64_t seed);

}  // namespace kestrel
