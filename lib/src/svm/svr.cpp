// epsilon-SVR, nu-SVR and one-class SVM on the shared SMO solver.
#include "kestrel/svm/svr.hpp"

#include <algorithm>
#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/svm/platt.hpp"

namespace kestrel {

namespace {

Vector row_costs(const Dataset& data, double C) {
    if (data.has_weights()) return C * data.weights;
    return Vector::Constant(data.rows(), C);
}

// Rows with a zero upper bound cannot move; they are left out of the problem.
std::vector<Index> positive_rows(const Vector& cost) {
    std::vector<Index> rows;
    for (Index i = 0; i < cost.size(); ++i)
        if (cost[i] > 0) rows.push_back(i);
    return rows;
}

// The 2l-variable dual of the SVR models over the rows of positive cost: variables k < l
// are α (y = +1), k >= l are α* (y = -1), both bounded by the row's cost. The model fills
// in the linear term p and, where it does not start at 0, alpha.
struct SvrDual {
    std::vector<Index> rows;  // the rows in the problem, in order
    Index l = 0;              // their count
    SmoProblem pb;
};

SvrDual svr_dual(const Dataset& data, double C, const std::string& model) {
    const Vector cost = row_costs(data, C);
    SvrDual d;
    d.rows = positive_rows(cost);
    d.l = static_cast<Index>(d.rows.size());
    if (d.l == 0) throw DataError(model + ": every row has weight 0");
    const Index l = d.l;
    d.pb.p.resize(2 * l);
    d.pb.y.resize(static_cast<std::size_t>(2 * l));
    d.pb.upper.resize(2 * l);
    d.pb.alpha = Vector::Zero(2 * l);
    for (Index i = 0; i < l; ++i) {
        d.pb.y[static_cast<std::size_t>(i)] = 1;
        d.pb.y[static_cast<std::size_t>(i + l)] = -1;
        d.pb.upper[i] = d.pb.upper[i + l] = cost[d.rows[static_cast<std::size_t>(i)]];
    }
    return d;
}

// Each row's coefficient α - α* in the solved dual `r` (0 for a row left out), over `n` rows.
Vector svr_coefficients(const SvrDual& d, const SmoResult& r, Index n) {
    Vector coef = Vector::Zero(n);
    for (Index i = 0; i < d.l; ++i) coef[d.rows[static_cast<std::size_t>(i)]] = r.alpha[i] - r.alpha[i + d.l];
    return coef;
}

SmoResult solve_svr(const Dataset& data, const std::vector<Index>& rows, const Kernel& kernel, SmoProblem& pb,
                    const SvmParams& p, const Context& ctx, bool nu) {
    const SvmSolverSettings s = solver_settings(p, ctx);
    SvrQ Q(KernelRows(data.X, rows), kernel, s.cache_mb, s.threads);
    return nu ? solve_smo_nu(Q, pb, s.smo, ctx) : solve_smo(Q, pb, s.smo, ctx);
}

}  // namespace

void KernelSvmRegressor::set_solution(const Dataset& data, KernelSpec spec, const Vector& coef, double rho) {
    SvmModel m;
    m.kernel_spec = std::move(spec);
    std::vector<double> kept;
    for (Index i = 0; i < coef.size(); ++i) {
        if (coef[i] == 0) continue;
        m.support.push_back(i);
        kept.push_back(coef[i]);
    }
    m.sv_coef = Eigen::Map<const Eigen::MatrixXd>(kept.data(), 1, static_cast<Index>(kept.size()));
    m.rho = Vector::Constant(1, rho);
    m.support_vectors = data.X.rows_subset(m.support);
    m.prepare();
    model_ = std::move(m);
}

void KernelSvmRegressor::fit_laplace_scale(const Dataset& data, const Context& ctx) {
    if (!p_.probability) return;
    // LIBSVM's svm_svr_probability: residuals of 5-fold cross-validated predictions,
    // folds shuffled from stream "plat" of the seed (as svc's probability folds).
    const Index n = data.rows();
    const std::vector<int> fold = probability_folds(n, derive_seed(derive_seed(ctx.seed, 0x706c6174), 0));
    const int k = static_cast<int>(std::min<Index>(5, n));
    Params sub_params = params();
    sub_params["probability"] = false;
    Context sub_ctx = ctx;
    sub_ctx.progress = nullptr;
    std::vector<double> residual(static_cast<std::size_t>(n), 0.0);
    for (int f = 0; f < k; ++f) {
        std::vector<Index> train, test;
        for (Index i = 0; i < n; ++i) (fold[static_cast<std::size_t>(i)] == f ? test : train).push_back(i);
        if (test.empty() || train.empty()) continue;
        std::unique_ptr<Estimator> est = clone_unfitted(sub_params);
        est->fit(data.subset(train), sub_ctx);
        const Vector pred = est->predict(data.X.rows_subset(test));
        for (std::size_t r = 0; r < test.size(); ++r)
            residual[static_cast<std::size_t>(test[r])] = data.y[test[r]] - pred[static_cast<Index>(r)];
    }
    model_.prob_a = Vector::Constant(1, laplace_scale(residual));
}

Vector KernelSvmRegressor::do_predict(const Features& X) const { return model_.single_decision(X); }

Matrix KernelSvmRegressor::do_decision_function(const Features& X) const { return model_.single_decision(X); }

void KernelSvmRegressor::do_load_state(const Json& state) { model_ = SvmModel::from_json(state, n_features(), 0); }

void Svr::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::regression) throw UsageError("svr: learns regression only (for classification use svc)");
    const SvmParams& p = p_;
    const double eps_tube = p.epsilon;
    SvrDual d = svr_dual(data, p.C, "svr");
    // scale_target: solve for (y - mean) / sd, then fold the scaling into the solution
    // (coefficients times sd, rho times sd minus the mean), so the model predicts y as an
    // ordinary SVR model does and its file is unchanged in form. Equivalent to C and
    // epsilon multiplied by sd on the raw target. Unweighted moments over every row, as
    // scikit-learn's StandardScaler in a TransformedTargetRegressor; sd 0 counts as 1.
    double y_mean = 0, y_sd = 1;
    if (p.scale_target) {
        y_mean = data.y.mean();
        const double sd = std::sqrt((data.y.array() - y_mean).square().mean());
        if (sd > 0 && std::isfinite(sd)) y_sd = sd;
    }
    KernelSpec spec = kernel_from_params(p, data.X, ctx);
    const Kernel kernel(spec);
    const Index l = d.l;
    for (Index i = 0; i < l; ++i) {
        const double yi =
            (data.y[d.rows[static_cast<std::size_t>(i)]] - y_mean) / y_sd;  // exact y without scale_target
        d.pb.p[i] = eps_tube - yi;
        d.pb.p[i + l] = eps_tube + yi;
    }
    const SmoResult r = solve_svr(data, d.rows, kernel, d.pb, p, ctx, false);
    set_solution(data, std::move(spec), svr_coefficients(d, r, data.rows()) * y_sd, r.rho * y_sd - y_mean);
    fit_laplace_scale(data, ctx);
}

void NuSvr::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::regression) throw UsageError("nu_svr: learns regression only (for classification use nu_svc)");
    const SvmParams& p = p_;
    const double nu = p.nu;
    SvrDual d = svr_dual(data, p.C, "nu_svr");
    KernelSpec spec = kernel_from_params(p, data.X, ctx);
    const Kernel kernel(spec);
    // A feasible start for Σ(α+α*) = C·nu·l: pairs filled in row order.
    const Index l = d.l;
    double left = p.C * nu * static_cast<double>(l) / 2;
    for (Index i = 0; i < l; ++i) {
        const double a = std::min(left, d.pb.upper[i]);
        left -= a;
        const double yi = data.y[d.rows[static_cast<std::size_t>(i)]];
        d.pb.alpha[i] = d.pb.alpha[i + l] = a;
        d.pb.p[i] = -yi;
        d.pb.p[i + l] = yi;
    }
    const SmoResult r = solve_svr(data, d.rows, kernel, d.pb, p, ctx, true);
    set_solution(data, std::move(spec), svr_coefficients(d, r, data.rows()), r.rho);
    fit_laplace_scale(data, ctx);
}

void OneClassSvm::do_fit(const Dataset& data, const Context& ctx) {
    const SvmParams& p = p_;
    const double nu = p.nu;
    const Index l = data.rows();
    KernelSpec spec = kernel_from_params(p, data.X, ctx);
    const Kernel kernel(spec);
    SmoProblem pb;
    pb.p = Vector::Zero(l);
    pb.y.assign(static_cast<std::size_t>(l), 1);
    pb.upper = Vector::Ones(l);
    pb.alpha = Vector::Zero(l);
    // Feasible start for eᵀα = nu·l: the first floor(nu·l) rows at 1, the next at the rest.
    const double total = nu * static_cast<double>(l);
    const auto full = static_cast<Index>(total);
    for (Index i = 0; i < std::min(full, l); ++i) pb.alpha[i] = 1;
    if (full < l) pb.alpha[full] = total - static_cast<double>(full);
    const SvmSolverSettings s = solver_settings(p, ctx);
    KernelQ Q(KernelRows(data.X), kernel, pb.y, s.cache_mb, s.threads);
    const SmoResult r = solve_smo(Q, pb, s.smo, ctx);
    set_solution(data, std::move(spec), r.alpha, r.rho);
}

Vector OneClassSvm::do_predict(const Features& X) const {
    const Vector d = model_.single_decision(X);
    return (d.array() > 0).select(Vector::Ones(d.size()), -Vector::Ones(d.size()));
}

const ParamBinding<SvmParams>& svr_params() {
    static const ParamBinding<SvmParams> binding = svm_binding({
        bind(&SvmParams::C, real_param("C", 1.0, "cost of errors beyond the epsilon tube")
                                .range(0.0, std::nullopt)
                                .open_below()
                                .like("LIBSVM -c")),
        bind(&SvmParams::epsilon,
             real_param("epsilon", 0.1, "half-width of the insensitive tube").range(0.0, std::nullopt).like("LIBSVM -p")),
        bind(&SvmParams::scale_target,
             bool_param("scale_target", false,
                        "fit on the target standardized to mean 0 and sd 1 (C and epsilon then in units of the "
                        "target's sd); predictions are in the target's units")
                 .like("scikit-learn TransformedTargetRegressor(SVR(), transformer=StandardScaler())")),
        probability_param(),
    });
    return binding;
}

const ParamBinding<SvmParams>& nu_svr_params() {
    static const ParamBinding<SvmParams> binding = svm_binding({
        bind(&SvmParams::C, real_param("C", 1.0, "cost of errors beyond the tube")
                                .range(0.0, std::nullopt)
                                .open_below()
                                .like("LIBSVM -c")),
        bind(&SvmParams::nu, real_param("nu", 0.5, "upper bound on the fraction of errors, lower bound on the "
                                                   "fraction of support vectors")
                                 .range(0.0, 1.0)
                                 .open_below()
                                 .like("LIBSVM -n")),
        probability_param(),
    });
    return binding;
}

const ParamBinding<SvmParams>& one_class_params() {
    static const ParamBinding<SvmParams> binding = svm_binding({
        bind(&SvmParams::nu, real_param("nu", 0.5, "upper bound on the fraction of training outliers, lower bound "
                                                   "on the fraction of support vectors")
                                 .range(0.0, 1.0)
                                 .open_below()
                                 .like("LIBSVM -n")),
    });
    return binding;
}

ModelInfo svr_model_info() {
    ModelInfo info = model_info_of<Svr>("svr", "epsilon-support vector regression with kernels (LIBSVM -s 3)",
                                        svr_params().spec(), {Task::regression},
                                        {.decision_function = true, .sparse_input = true, .sample_weights = true});
    info.search_space = svr_search_space();
    return info;
}

SearchSpace svr_search_space() {
    // epsilon log-uniform around LIBSVM's default 0.1, on the standardized target, so that
    // the ranges mean the same on prices as on z-scores.
    return kernel_svm_search_space({"epsilon=loguniform(0.001,1)", "scale=standard", "scale_target=1"});
}

ModelInfo nu_svr_model_info() {
    return model_info_of<NuSvr>("nu_svr",
                                "nu-support vector regression with kernels (LIBSVM -s 4): the tube width is learned",
                                nu_svr_params().spec(), {Task::regression},
                                {.decision_function = true, .sparse_input = true, .sample_weights = true});
}

ModelInfo one_class_model_info() {
    ModelInfo info = model_info_of<OneClassSvm>(
        "one_class", "one-class SVM (LIBSVM -s 2): +1 inside the estimated support, -1 outside; labels ignored",
        one_class_params().spec(), {Task::regression}, {.decision_function = true, .sparse_input = true});
    info.uses_labels = false;
    return info;
}

}  // namespace kestrel
