#pragma once
// The kernel parameters shared by every kernel model (the SVMs, kernel ridge, kernel
// logistic regression, the kernel perceptron, k-NN's kernel metric):
// LIBSVM's names (kernel, gamma, degree, coef0) and their resolution on the training data.
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/core/param_binding.hpp"
#include "kestrel/core/params.hpp"
#include "kestrel/kernels/kernel_spec.hpp"

namespace kestrel {

// LIBSVM's kernel parameters, the group every kernel model derives its parameters from.
struct KernelParams {
    std::string kernel;
    RealOrWord gamma;  // a number (0 = 1/num_features), "auto" or "median"
    long long degree = 3;
    double coef0 = 0;
};
// kernel (default `default_kernel`), gamma (0/auto = 1/num_features, median), degree, coef0.
std::vector<Bound<KernelParams>> kernel_param_bindings(const std::string& default_kernel = "rbf");
ParamSpec kernel_param_defs(const std::string& default_kernel = "rbf");

// The spec of those parameters resolved on X: gamma=median uses a sample drawn from a
// stream of ctx.seed of its own; a precomputed kernel has its serial numbers checked.
KernelSpec kernel_from_params(const KernelParams& p, const Features& X, const Context& ctx);
// The same from resolved parameters that hold the group (kernel_param_defs).
KernelSpec kernel_from_params(const Params& resolved, const Features& X, const Context& ctx);

}  // namespace kestrel
