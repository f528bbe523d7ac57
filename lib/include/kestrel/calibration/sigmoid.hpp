#pragma once
// Platt's sigmoid P(y=1 | f) = 1 / (1 + exp(a f + b)) fitted to scores that each row got
// from a model that did not see it. Shared by the kernel SVMs' probabilities (LIBSVM's
// sigmoid_train) and by model calibration (scikit-learn's _sigmoid_calibration, which
// minimises the same objective from the same starting point).
#include <cstdint>
#include <span>

namespace kestrel {

struct SigmoidFit {
    double a = 0;
    double b = 0;
    int iterations = 0;
    bool converged = true;  // false: line search failed or 100 iterations reached
};

// Minimises the cross-entropy with targets (N+ + 1)/(N+ + 2) and 1/(N- + 2) (Platt's
// regularisation, which keeps a and b finite on separable scores) by the improved
// Newton method of Lin, Lin & Weng (2007), from a = 0, b = log((N- + 1)/(N+ + 1)).
// Labels are positive for the class whose probability is modelled, else <= 0. With
// `weights`, N+ and N- are weight sums and each row's loss is weighted (as scikit-learn's
// sample_weight); without, the iterates are LIBSVM 3.24's bit for bit.
// Throws InternalError on empty or mismatched input.
SigmoidFit fit_sigmoid(std::span<const double> decision, std::span<const std::int8_t> labels,
                       std::span<const double> weights = {});

// 1 / (1 + exp(a f + b)), evaluated without overflow (LIBSVM's sigmoid_predict).
double sigmoid_probability(double f, double a, double b);

}  // namespace kestrel
