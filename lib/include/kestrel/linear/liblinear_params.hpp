#pragma once
// Parameters the LIBLINEAR-style models (linear_svm, linear_svr) share, declared once:
// the bias feature (-B: fit_intercept with intercept_scaling) and the stopping tolerance
// -e whose "auto" default is LIBLINEAR's per-solver value.
#include <string>

#include "kestrel/core/param_binding.hpp"

namespace kestrel {

struct LiblinearBiasParams : InterceptParams {
    double intercept_scaling = 1;
    // B of LIBLINEAR's -B: the value of the constant feature whose weight is the bias; 0 for none.
    double bias() const { return fit_intercept ? intercept_scaling : 0.0; }
};
Bound<LiblinearBiasParams> intercept_scaling_param();

// `eps`, default "auto" (the solver's own LIBLINEAR default, which `help` states).
ParamDef liblinear_eps_param(std::string help);

}  // namespace kestrel
