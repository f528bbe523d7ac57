#include "kestrel/kernels/kernel_params.hpp"

#include "kestrel/core/rng.hpp"
#include "kestrel/kernels/kernel.hpp"

namespace kestrel {

ParamSpec kernel_param_defs(const std::string& default_kernel) {
    return ParamSpec{
        text_param("kernel", default_kernel,
                   "kernel spec: linear, poly, rbf, laplacian, exponential, sigmoid, min, anova, precomputed, or a "
                   "non-negative sum/product such as 0.7*rbf(gamma=0.5)+0.3*linear")
            .like("LIBSVM -t; scikit-learn kernel="),
        real_param("gamma", 0.0, "kernel gamma where the spec leaves it out; 0 or auto = 1/num_features, "
                                 "median = median heuristic (recorded as its value)")
            .range(0.0, std::nullopt)
            .also({"auto", "median"})
            .like("LIBSVM -g; scikit-learn gamma="),
        int_param("degree", 3, "degree of poly and anova kernels").range(0.0, 1000.0).like("LIBSVM -d"),
        real_param("coef0", 0.0, "coef0 of poly and sigmoid kernels").like("LIBSVM -r"),
    };
}

KernelSpec kernel_from_params(const Params& p, const Features& X, const Context& ctx) {
    const KernelSpec spec = KernelSpec::parse(get_string(p, "kernel"));
    if (spec.single() && spec.single()->kind == KernelKind::precomputed)
        check_precomputed_serials(X, "precomputed kernel");
    // The same stream as the SVMs ("kern"), so svc and kernel_ridge resolve
    // gamma=median to the same number on the same data and seed.
    return resolve_kernel(spec, kernel_defaults_from_params(p), X, derive_seed(ctx.seed, 0x6b65726e));
}

}  // namespace kestrel
