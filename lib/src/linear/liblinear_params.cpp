#include "kestrel/linear/liblinear_params.hpp"

namespace kestrel {

Bound<LiblinearBiasParams> intercept_scaling_param() {
    return bind(&LiblinearBiasParams::intercept_scaling,
                real_param("intercept_scaling", 1.0, "value of the constant feature (the bias term's B)")
                    .range(0.0, std::nullopt)
                    .open_below()
                    .like("LIBLINEAR -B B; scikit-learn intercept_scaling"));
}

ParamDef liblinear_eps_param(std::string help) {
    return real_param("eps", 0.1, std::move(help))
        .range(0.0, std::nullopt)
        .open_below()
        .also({"auto"})
        .defaults_to("auto")
        .like("LIBLINEAR -e; scikit-learn tol");
}

}  // namespace kestrel
