// C-SVC with LIBSVM's one-vs-one multiclass.
#include "kestrel/svm/svc.hpp"

#include <exception>
#include <mutex>

#include "kestrel/common/class_weight.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {

BinarySvcSolution solve_binary_svc(const KernelRows& rows, const Kernel& kernel, const std::vector<std::int8_t>& y,
                                   const Vector& upper, const SvmSolverSettings& settings, const Context& ctx,
                                   bool squared_hinge) {
    const Index l = rows.size();
    SmoProblem pb;
    pb.p = Vector::Constant(l, -1.0);
    pb.y = y;
    pb.alpha = Vector::Zero(l);
    std::vector<double> shift;
    if (squared_hinge) {
        // L2-SVM: Q + diag(1/C_i) and no upper bound. A finite stand-in for +inf keeps
        // the solver's C_i - C_j comparisons meaningful (inf - inf would be NaN).
        shift.resize(static_cast<std::size_t>(l));
        for (Index i = 0; i < l; ++i) shift[static_cast<std::size_t>(i)] = 1.0 / upper[i];
        pb.upper = Vector::Constant(l, 1e300);
    } else {
        pb.upper = upper;
    }
    KernelQ Q(rows, kernel, y, settings.cache_mb, settings.threads, std::move(shift));
    BinarySvcSolution sol;
    sol.smo = solve_smo(Q, pb, settings.smo, ctx);
    sol.rho = sol.smo.rho;
    sol.coef.resize(l);
    for (Index i = 0; i < l; ++i) sol.coef[i] = y[static_cast<std::size_t>(i)] * sol.smo.alpha[i];
    return sol;
}

namespace {

struct PairResult {
    Vector coef;  // aligned with rows of class s then rows of class t
    double rho = 0;
    SigmoidFit sigmoid;  // probability=1
    std::vector<std::string> warnings;
};

// LIBSVM's layout of the pairs' solutions (without the kernel and the support vectors'
// rows): a row is a support vector if any pair gave it a non-zero coefficient; support
// vectors are grouped by class in file order.
SvmModel one_vs_one_svm_model(const std::vector<std::vector<Index>>& by_class,
                              const std::vector<std::pair<Index, Index>>& pairs, const std::vector<PairResult>& results,
                              Index n, bool probability) {
    const auto k = static_cast<Index>(by_class.size());
    const auto n_pairs = static_cast<Index>(pairs.size());
    std::vector<char> nonzero(static_cast<std::size_t>(n), 0);
    for (Index q = 0; q < n_pairs; ++q) {
        const auto [s, t] = pairs[static_cast<std::size_t>(q)];
        const auto& rs = by_class[static_cast<std::size_t>(s)];
        const auto& rt = by_class[static_cast<std::size_t>(t)];
        const Vector& c = results[static_cast<std::size_t>(q)].coef;
        for (std::size_t r = 0; r < rs.size(); ++r)
            if (c[static_cast<Index>(r)] != 0) nonzero[static_cast<std::size_t>(rs[r])] = 1;
        for (std::size_t r = 0; r < rt.size(); ++r)
            if (c[static_cast<Index>(rs.size() + r)] != 0) nonzero[static_cast<std::size_t>(rt[r])] = 1;
    }
    SvmModel m;
    m.n_sv.assign(static_cast<std::size_t>(k), 0);
    std::vector<Index> sv_pos(static_cast<std::size_t>(n), -1);
    for (Index c = 0; c < k; ++c) {
        for (Index row : by_class[static_cast<std::size_t>(c)]) {
            if (!nonzero[static_cast<std::size_t>(row)]) continue;
            sv_pos[static_cast<std::size_t>(row)] = static_cast<Index>(m.support.size());
            m.support.push_back(row);
            ++m.n_sv[static_cast<std::size_t>(c)];
        }
    }
    const auto nsv = static_cast<Index>(m.support.size());
    m.sv_coef = Eigen::MatrixXd::Zero(k - 1, nsv);
    m.rho.resize(n_pairs);
    for (Index q = 0; q < n_pairs; ++q) {
        const auto [s, t] = pairs[static_cast<std::size_t>(q)];
        const auto& rs = by_class[static_cast<std::size_t>(s)];
        const auto& rt = by_class[static_cast<std::size_t>(t)];
        const Vector& c = results[static_cast<std::size_t>(q)].coef;
        // Coefficients of class s's rows live in row t-1, those of class t's rows in row s.
        for (std::size_t r = 0; r < rs.size(); ++r) {
            const Index pos = sv_pos[static_cast<std::size_t>(rs[r])];
            if (pos >= 0) m.sv_coef(t - 1, pos) = c[static_cast<Index>(r)];
        }
        for (std::size_t r = 0; r < rt.size(); ++r) {
            const Index pos = sv_pos[static_cast<std::size_t>(rt[r])];
            if (pos >= 0) m.sv_coef(s, pos) = c[static_cast<Index>(rs.size() + r)];
        }
        m.rho[q] = results[static_cast<std::size_t>(q)].rho;
    }
    if (probability) {
        m.prob_a.resize(n_pairs);
        m.prob_b.resize(n_pairs);
        for (Index q = 0; q < n_pairs; ++q) {
            m.prob_a[q] = results[static_cast<std::size_t>(q)].sigmoid.a;
            m.prob_b[q] = results[static_cast<std::size_t>(q)].sigmoid.b;
        }
    }
    return m;
}

}  // namespace

void Svc::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::classification)
        throw UsageError(name() + ": learns classification only (for regression use svr)");
    const SvmParams& p = p_;
    const Index k = data.n_classes();
    const Index n = data.rows();
    const Vector cost = sample_upper_bounds(data);
    KernelSpec spec = kernel_from_params(p, data.X, ctx);
    const Kernel kernel(spec);
    const SvmSolverSettings settings = solver_settings(p, ctx);
    const bool probability = has_predict_proba();
    // Stream "plat": the probability folds never share a stream with the kernel's sample.
    const std::uint64_t platt_seed = derive_seed(ctx.seed, 0x706c6174);

    // Rows of each class in file order; rows with zero cost can never be support vectors.
    std::vector<std::vector<Index>> by_class(static_cast<std::size_t>(k));
    for (Index i = 0; i < n; ++i)
        if (cost[i] > 0) by_class[static_cast<std::size_t>(data.y[i])].push_back(i);

    std::vector<std::pair<Index, Index>> pairs;
    for (Index s = 0; s < k; ++s)
        for (Index t = s + 1; t < k; ++t) pairs.emplace_back(s, t);
    const auto n_pairs = static_cast<Index>(pairs.size());
    std::vector<PairResult> results(static_cast<std::size_t>(n_pairs));

    // Several pairs: one pair per thread (each with its share of the cache);
    // one pair: its kernel columns use every thread. Either way each pair's
    // arithmetic is the same, so the model does not depend on the thread count.
    const bool across_pairs = n_pairs > 1 && settings.threads > 1;
    SvmSolverSettings pair_settings = settings;
    if (across_pairs) {
        pair_settings.threads = 1;
        pair_settings.cache_mb = settings.cache_mb / settings.threads;
    }
    std::exception_ptr failure;
    std::mutex failure_mutex;
    const auto fit_pair = [&](Index q) {
        try {
            const auto [s, t] = pairs[static_cast<std::size_t>(q)];
            const auto& rs = by_class[static_cast<std::size_t>(s)];
            const auto& rt = by_class[static_cast<std::size_t>(t)];
            PairResult& out = results[static_cast<std::size_t>(q)];
            if (rs.empty() || rt.empty()) {
                // A class without (weighted) rows in this fit: the pair always votes for the other.
                out.rho = rs.empty() ? 1.0 : -1.0;
                out.coef = Vector::Zero(static_cast<Index>(rs.size() + rt.size()));
                if (probability) {
                    // As LIBSVM's folds with one class: every held-out decision value is ±1.
                    const auto& present = rs.empty() ? rt : rs;
                    const std::vector<double> dec(present.size(), rs.empty() ? -1.0 : 1.0);
                    const std::vector<std::int8_t> lab(present.size(), rs.empty() ? std::int8_t{-1} : std::int8_t{1});
                    out.sigmoid = fit_sigmoid(dec, lab);
                }
                return;
            }
            std::vector<Index> rows(rs);
            rows.insert(rows.end(), rt.begin(), rt.end());
            std::vector<std::int8_t> y(rows.size(), -1);
            std::fill(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(rs.size()), std::int8_t{1});
            Vector upper(static_cast<Index>(rows.size()));
            for (std::size_t r = 0; r < rows.size(); ++r) upper[static_cast<Index>(r)] = cost[rows[r]];
            Context pair_ctx = ctx;
            pair_ctx.progress = nullptr;
            pair_ctx.warn = [this, &out, s = s, t = t, &data](const std::string& m) {
                out.warnings.push_back(name() + ": classes " + data.classes[static_cast<std::size_t>(s)] + " vs " +
                                       data.classes[static_cast<std::size_t>(t)] + ": " + m);
            };
            const KernelRows kr(data.X, rows);
            BinarySvcSolution sol = solve_pair(kr, kernel, y, upper, pair_settings, pair_ctx);
            out.coef = std::move(sol.coef);
            out.rho = sol.rho;
            if (probability)
                out.sigmoid = pair_sigmoid(data.X, rows, y, upper, kernel, pair_settings, pair_ctx,
                                           derive_seed(platt_seed, static_cast<std::uint64_t>(q)));
        } catch (...) {
            std::lock_guard<std::mutex> lock(failure_mutex);
            if (!failure) failure = std::current_exception();
        }
    };
    // Not one loop with `if (across_pairs)`: a parallel region, even one its if clause
    // makes inactive, turns every parallel loop inside it into a nested one, and libgomp
    // starts new threads for a nested team each time (~50 µs against ~1 µs from its
    // pool). A single pair's kernel columns and solver passes must run at top level.
    if (across_pairs) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(settings.threads)
        for (Index q = 0; q < n_pairs; ++q) fit_pair(q);
    } else {
        for (Index q = 0; q < n_pairs; ++q) fit_pair(q);
    }
    if (failure) std::rethrow_exception(failure);
    for (const auto& r : results)
        for (const auto& w : r.warnings) ctx.warning(w);

    SvmModel m = one_vs_one_svm_model(by_class, pairs, results, n, probability);
    m.kernel_spec = std::move(spec);
    m.support_vectors = data.X.rows_subset(m.support);
    m.prepare();
    model_ = std::move(m);
}

Vector Svc::sample_upper_bounds(const Dataset& data) const {
    return row_costs(data, p_.class_weight, p_.C);
}

BinarySvcSolution Svc::solve_pair(const KernelRows& rows, const Kernel& kernel, const std::vector<std::int8_t>& y,
                                  const Vector& upper, const SvmSolverSettings& settings, const Context& ctx) const {
    return solve_binary_svc(rows, kernel, y, upper, settings, ctx, p_.loss == "squared_hinge");
}

Eigen::MatrixXd Svc::pairwise_decision(const Features& X) const {
    if (!fitted()) throw InternalError("svc used before it was fitted");
    return model_.pairwise_decision(X);
}

Vector Svc::do_predict(const Features& X) const {
    return ovo_vote(model_.pairwise_decision(X), static_cast<Index>(model_.n_sv.size()));
}

Matrix Svc::do_decision_function(const Features& X) const {
    const Eigen::MatrixXd pw = model_.pairwise_decision(X);
    const auto k = static_cast<Index>(model_.n_sv.size());
    if (k == 2) return -pw;
    Matrix votes = Matrix::Zero(X.rows(), k), conf = Matrix::Zero(X.rows(), k);
    Index q = 0;
    for (Index s = 0; s < k; ++s) {
        for (Index t = s + 1; t < k; ++t, ++q) {
            for (Index r = 0; r < X.rows(); ++r) {
                votes(r, pw(r, q) > 0 ? s : t) += 1;
                conf(r, s) += pw(r, q);
                conf(r, t) -= pw(r, q);
            }
        }
    }
    return votes.array() + conf.array() / (3 * (conf.array().abs() + 1));
}

Matrix Svc::do_predict_proba(const Features& X) const {
    return model_.probabilities(model_.pairwise_decision(X), static_cast<Index>(model_.n_sv.size()));
}

Json Svc::do_save_state() const { return model_.to_json(); }

void Svc::do_load_state(const Json& state) {
    if (n_classes() < 2) throw ModelStateError("svc state needs at least two classes");
    model_ = SvmModel::from_json(state, n_features(), n_classes());
    if (has_predict_proba() != model_.has_probability())
        throw ModelStateError(has_predict_proba() ? "probability=1 but the state has no prob_a/prob_b"
                                                     : "the state has prob_a/prob_b but probability=0");
}

Capabilities with_platt_probabilities(const Capabilities& declared, const Params& resolved) {
    Capabilities c = declared;
    c.predict_proba = resolved.contains("probability") && resolved.at("probability").get<bool>();  // svc, nu_svc
    return c;
}

void Svc::on_params(const Params& resolved) {
    p_ = svc_params().read(resolved);
}

const ParamBinding<SvmParams>& svc_params() {
    static const ParamBinding<SvmParams> binding = svm_binding({
        bind(&SvmParams::C, real_param("C", 1.0, "cost of margin violations (upper bound of the dual variables)")
                                .range(0.0, std::nullopt)
                                .open_below()
                                .like("LIBSVM -c")),
        bind(&SvmParams::class_weight,
             text_param("class_weight", "",
                        "\"\" (all 1), \"balanced\" (n/(k*n_c)) or label:weight,...; multiplies C for that class")
                 .like("LIBSVM -wi; scikit-learn class_weight")),
        bind(&SvmParams::loss, choice_param("loss", "hinge", {"hinge", "squared_hinge"},
                                            "hinge (L1-SVM, LIBSVM's) or squared_hinge (L2-SVM: (C/2) sum of squared "
                                            "slacks, dual Q + I/C with no upper bound)")
                                   .like("LIBLINEAR -s 1/-s 3 (linear only); scikit-learn LinearSVC(loss=...)")),
        probability_param(),
    });
    return binding;
}

ModelInfo svc_model_info() {
    ModelInfo info = model_info_of<Svc>(
        "svc", "C-support vector classification with kernels (LIBSVM -s 0), one-vs-one for k > 2", svc_params().spec(),
        {Task::classification}, {.decision_function = true, .sparse_input = true, .sample_weights = true});
    info.refine = with_platt_probabilities;
    info.search_space = svc_search_space();
    return info;
}

SearchSpace svc_search_space() {
    return kernel_svm_search_space({"scale=standard"});
}

}  // namespace kestrel
