#include "kestrel/kernels/kernel_params.hpp"

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/kernels/kernel.hpp"

namespace kestrel {

std::vector<Bound<KernelParams>> kernel_param_bindings(const std::string& default_kernel) {
    return {
        bind(&KernelParams::kernel,
             text_param("kernel", default_kernel,
                        "kernel spec: linear, poly, rbf, laplacian, exponential, sigmoid, min, anova, precomputed, or a "
                        "non-negative sum/product such as 0.7*rbf(gamma=0.5)+0.3*linear")
                 .like("LIBSVM -t; scikit-learn kernel=")),
        bind(&KernelParams::gamma, real_param("gamma", 0.0, "kernel gamma where the spec leaves it out; 0 or auto = "
                                                            "1/num_features, median = median heuristic (recorded as "
                                                            "its value)")
                                       .range(0.0, std::nullopt)
                                       .also({"auto", "median"})
                                       .like("LIBSVM -g; scikit-learn gamma=")),
        bind(&KernelParams::degree,
             int_param("degree", 3, "degree of poly and anova kernels").range(0.0, 1000.0).like("LIBSVM -d")),
        bind(&KernelParams::coef0, real_param("coef0", 0.0, "coef0 of poly and sigmoid kernels").like("LIBSVM -r")),
    };
}

ParamSpec kernel_param_defs(const std::string& default_kernel) {
    ParamSpec spec;
    for (const Bound<KernelParams>& b : kernel_param_bindings(default_kernel)) spec.add(b.def);
    return spec;
}

namespace {

KernelDefaults defaults_of(const KernelParams& p) {
    KernelDefaults d;
    if (p.gamma.is("median")) d.gamma_rule = GammaRule::median;
    else if (p.gamma.is("auto")) d.gamma_rule = GammaRule::automatic;
    else if (!p.gamma.word.empty()) throw ParamError("gamma='" + p.gamma.word + "': expected a number, 'auto' or 'median'");
    else if (p.gamma.value < 0) throw ParamError("gamma must be non-negative");
    else if (p.gamma.value > 0) {  // 0 is LIBSVM's "unset": 1/num_features
        d.gamma_rule = GammaRule::given;
        d.gamma = p.gamma.value;
    }
    d.degree = static_cast<int>(p.degree);
    d.coef0 = p.coef0;
    return d;
}

}  // namespace

KernelSpec kernel_from_params(const KernelParams& p, const Features& X, const Context& ctx) {
    const KernelSpec spec = KernelSpec::parse(p.kernel);
    if (spec.single() && spec.single()->kind == KernelKind::precomputed)
        check_precomputed_serials(X, "precomputed kernel");
    // One stream ("kern") for every kernel model, so svc and kernel_ridge resolve
    // gamma=median to the same number on the same data and seed.
    return resolve_kernel(spec, defaults_of(p), X, derive_seed(ctx.seed, 0x6b65726e));
}

KernelSpec kernel_from_params(const Params& resolved, const Features& X, const Context& ctx) {
    static const ParamBinding<KernelParams> binding = [] {
        ParamBinding<KernelParams> b;
        b.add(kernel_param_bindings());
        return b;
    }();
    return kernel_from_params(binding.read(resolved), X, ctx);
}

}  // namespace kestrel
