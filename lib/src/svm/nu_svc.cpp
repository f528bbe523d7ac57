// nu-SVC: the one-vs-one machinery of svc with the nu dual per pair.
#include <algorithm>
#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/svm/svc.hpp"

namespace kestrel {

Vector NuSvc::sample_upper_bounds(const Dataset& data) const { return Vector::Ones(data.rows()); }

BinarySvcSolution NuSvc::solve_pair(const KernelRows& rows, const Kernel& kernel, const std::vector<std::int8_t>& y,
                                    const Vector& upper, const SvmSolverSettings& settings,
                                    const Context& ctx) const {
    const double nu = p_.nu;
    const Index l = rows.size();
    Index n_pos = 0;
    for (auto v : y) n_pos += v > 0 ? 1 : 0;
    const Index n_neg = l - n_pos;
    // Σ α = nu·l splits evenly over the two equality constraints, each bounded by its
    // class size: nu·l/2 <= min(n+, n-).
    if (nu * static_cast<double>(l) / 2 > static_cast<double>(std::min(n_pos, n_neg)))
        throw ParamError("nu=" + std::to_string(nu) + " is infeasible: a pair of classes has " +
                         std::to_string(n_pos) + " and " + std::to_string(n_neg) +
                         " rows, so nu must be <= 2*min/(sum) = " +
                         std::to_string(2.0 * static_cast<double>(std::min(n_pos, n_neg)) / static_cast<double>(l)));
    SmoProblem pb;
    pb.p = Vector::Zero(l);
    pb.y = y;
    pb.upper = upper;
    pb.alpha.resize(l);
    // A feasible start: fill each side up to nu·l/2 in row order.
    double left[2] = {nu * static_cast<double>(l) / 2, nu * static_cast<double>(l) / 2};
    for (Index i = 0; i < l; ++i) {
        double& side = left[y[static_cast<std::size_t>(i)] > 0 ? 0 : 1];
        pb.alpha[i] = std::min(upper[i], side);
        side -= pb.alpha[i];
    }
    KernelQ Q(rows, kernel, y, settings.cache_mb, settings.threads);
    BinarySvcSolution sol;
    sol.smo = solve_smo_nu(Q, pb, settings.smo, ctx);
    const double r = sol.smo.r;
    if (!(r > 0)) throw DataError(name() + ": the nu solver found no margin (r = " + std::to_string(r) + ")");
    // Rescale to the C-SVC form with C = 1/r: margin 1.
    sol.rho = sol.smo.rho / r;
    sol.coef.resize(l);
    for (Index i = 0; i < l; ++i) sol.coef[i] = y[static_cast<std::size_t>(i)] * sol.smo.alpha[i] / r;
    return sol;
}

void NuSvc::on_params(const Params& resolved) {
    p_ = nu_svc_params().read(resolved);
}

const ParamBinding<SvmParams>& nu_svc_params() {
    static const ParamBinding<SvmParams> binding = svm_binding({
        bind(&SvmParams::nu, real_param("nu", 0.5, "upper bound on the fraction of margin errors, lower bound on the "
                                                   "fraction of support vectors; in (0, 1]")
                                 .range(0.0, 1.0)
                                 .open_below()
                                 .like("LIBSVM -n")),
        probability_param(),
    });
    return binding;
}

ModelInfo nu_svc_model_info() {
    ModelInfo info = model_info_of<NuSvc>(
        "nu_svc", "nu-support vector classification with kernels (LIBSVM -s 1), one-vs-one for k > 2",
        nu_svc_params().spec(), {Task::classification}, {.decision_function = true, .sparse_input = true});
    info.refine = with_platt_probabilities;
    return info;
}

}  // namespace kestrel
