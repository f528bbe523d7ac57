#pragma once
// The kernel parameters shared by every kernel model that is not an SVM (kernel
// ridge, kernel logistic regression, the kernel perceptron, k-NN's kernel metric):
// LIBSVM's names (kernel, gamma, degree, coef0) and their resolution on the training data.
#include <string>

#include "kestrel/core/context.hpp"
#include "kestrel/core/params.hpp"
#include "kestrel/kernels/kernel_spec.hpp"

namespace kestrel {

// kernel (default `default_kernel`), gamma (0/auto = 1/num_features, median), degree, coef0.
ParamSpec kernel_param_defs(const std::string& default_kernel = "rbf");

// The spec of those parameters resolved on X: gamma=median uses a sample drawn from a
// stream of ctx.seed of its own; a precomputed kernel has its serial numbers checked.
KernelSpec kernel_from_params(const Params& p, const Features& X, const Context& ctx);

}  // namespace kestrel
