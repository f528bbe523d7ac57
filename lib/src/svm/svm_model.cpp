// Shared SVM state: evaluation of the decision functions and the JSON layout.
#include "kestrel/svm/svm_model.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/core/json_read.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/io/features_json.hpp"
#include "kestrel/multiclass/multiclass_wrapper.hpp"
#include "kestrel/svm/platt.hpp"

namespace kestrel {

namespace {

constexpr Index kPredictRows = 128;  // rows of X per task at prediction (bounds memory)
// Below this many kernel multiply-adds (rows x SVs x features, ~20 ms on one core) a
// prediction runs on one thread: after a parallel region libgomp's idle worker spins
// for milliseconds, and on a small file (digits: 360 rows x 526 SVs x 64 features,
// 12M) that cost 6 ms of wall time against the 2 ms a second core saves.
constexpr double kParallelPredictWork = 1 << 26;

}  // namespace

void SvmModel::prepare() {
    kernel = Kernel(kernel_spec);
    sv_rows = KernelRows(support_vectors);
}

void SvmModel::kernel_to_sv(const Features& X, Index lo, Index hi, DenseMatrix& K) const {
    std::vector<Index> rows(static_cast<std::size_t>(hi - lo));
    for (Index i = lo; i < hi; ++i) rows[static_cast<std::size_t>(i - lo)] = i;
    const KernelRows xr = (lo == 0 && hi == X.rows()) ? KernelRows(X) : KernelRows(X, rows);
    kernel.block(xr, sv_rows, 1, K);
}

template <class Fn>
void SvmModel::for_row_blocks(const Features& X, Fn&& fn) const {
    // All the work of a block (kernel block, products) inside one parallel loop: a
    // single fork-join per call, and the matrix products stay single-threaded.
    const Index n = X.rows();
    const Index blocks = (n + kPredictRows - 1) / kPredictRows;
    const double work = static_cast<double>(n) * static_cast<double>(sv_rows.size()) *
                        static_cast<double>(std::max<Index>(1, X.cols()));
    const int threads = work < kParallelPredictWork ? 1 : omp_get_max_threads();
#pragma omp parallel num_threads(threads) if (threads > 1 && blocks > 1)
    {
        // One block buffer per thread: a fresh one per block (megabytes with many
        // support vectors) cost more in page faults than the kernel's exponentials.
        DenseMatrix K;
#pragma omp for schedule(dynamic)
        for (Index blk = 0; blk < blocks; ++blk) {
            const Index lo = blk * kPredictRows, hi = std::min(n, lo + kPredictRows);
            kernel_to_sv(X, lo, hi, K);
            fn(lo, hi, static_cast<const DenseMatrix&>(K));
        }
    }
}

Eigen::MatrixXd SvmModel::pairwise_decision(const Features& X) const {
    const Index k = static_cast<Index>(n_sv.size());
    std::vector<Index> start(static_cast<std::size_t>(k) + 1, 0);
    for (Index c = 0; c < k; ++c)
        start[static_cast<std::size_t>(c) + 1] = start[static_cast<std::size_t>(c)] + n_sv[static_cast<std::size_t>(c)];
    Eigen::MatrixXd dec(X.rows(), k * (k - 1) / 2);
    for_row_blocks(X, [&](Index lo, Index hi, const DenseMatrix& K) {
        // part[s](x, r) = Σ_{sv in class s} sv_coef(r, sv) K(x, sv): one matrix product
        // per class instead of one matrix-vector product per pair and side.
        std::vector<Eigen::MatrixXd> part(static_cast<std::size_t>(k));
        for (Index c = 0; c < k; ++c) {
            const Index c0 = start[static_cast<std::size_t>(c)], nc = n_sv[static_cast<std::size_t>(c)];
            part[static_cast<std::size_t>(c)].noalias() = K.middleCols(c0, nc) * sv_coef.middleCols(c0, nc).transpose();
        }
        Index p = 0;
        for (Index s = 0; s < k; ++s)
            for (Index t = s + 1; t < k; ++t, ++p)
                dec.col(p).segment(lo, hi - lo) = part[static_cast<std::size_t>(s)].col(t - 1) +
                                                   part[static_cast<std::size_t>(t)].col(s) -
                                                   Vector::Constant(hi - lo, rho[p]);
    });
    return dec;
}

Vector SvmModel::single_decision(const Features& X) const {
    Vector v(X.rows());
    for_row_blocks(X, [&](Index lo, Index hi, const DenseMatrix& K) {
        v.segment(lo, hi - lo) = Vector::Constant(hi - lo, -rho[0]);
        if (K.cols() > 0) v.segment(lo, hi - lo).noalias() += K * sv_coef.row(0).transpose();
    });
    return v;
}

Json SvmModel::to_json(JsonTextSlots* slots) const {
    Json coef = Json::array();
    // Element by element: with no support vectors (nu=1) a row's begin() is an
    // offset from a null pointer, which is undefined behaviour.
    for (Index r = 0; r < sv_coef.rows(); ++r) {
        std::vector<double> row(static_cast<std::size_t>(sv_coef.cols()));
        for (Index c = 0; c < sv_coef.cols(); ++c) row[static_cast<std::size_t>(c)] = sv_coef(r, c);
        coef.push_back(std::move(row));
    }
    Json j = {{"kernel", kernel_spec.to_json()},
              {"support_vectors", slots ? features_to_json(support_vectors, *slots) : features_to_json(support_vectors)},
              {"support", support},
              {"sv_coef", std::move(coef)},
              {"rho", std::vector<double>(rho.begin(), rho.end())}};
    if (!n_sv.empty()) j["n_sv"] = n_sv;
    if (has_probability()) {
        j["prob_a"] = std::vector<double>(prob_a.begin(), prob_a.end());
        if (prob_b.size() > 0) j["prob_b"] = std::vector<double>(prob_b.begin(), prob_b.end());
    }
    return j;
}

Json SvmModel::to_json() const { return to_json(nullptr); }
Json SvmModel::to_json(JsonTextSlots& slots) const { return to_json(&slots); }

SvmModel SvmModel::from_json(const Json& j, Index n_features, Index k) {
    SvmModel m;
    m.kernel_spec = KernelSpec::from_json(j.at("kernel"));
    if (!m.kernel_spec.resolved()) throw ModelStateError("kernel parameters are not resolved numbers");
    m.support_vectors = features_from_json(j.at("support_vectors"), n_features);
    if (m.kernel_spec.single() && m.kernel_spec.single()->kind == KernelKind::precomputed)
        check_precomputed_serials(m.support_vectors, "support vectors");
    const Index nsv = m.support_vectors.rows();
    m.support = json_integers<Index>(j.at("support"));
    if (static_cast<Index>(m.support.size()) != nsv) throw ModelStateError("support has the wrong length");
    const Json& coef = j.at("sv_coef");
    const Index rows = k > 0 ? k - 1 : 1;
    if (static_cast<Index>(coef.size()) != rows) throw ModelStateError("sv_coef has the wrong number of rows");
    m.sv_coef.resize(rows, nsv);
    for (Index r = 0; r < rows; ++r) {
        const auto v = coef[static_cast<std::size_t>(r)].get<std::vector<double>>();
        if (static_cast<Index>(v.size()) != nsv) throw ModelStateError("sv_coef row with the wrong length");
        for (Index c = 0; c < nsv; ++c) m.sv_coef(r, c) = v[static_cast<std::size_t>(c)];
    }
    const auto rho = j.at("rho").get<std::vector<double>>();
    // Bounded first: k(k-1)/2 overflows for a crafted class count.
    if (k > 1000000) throw ModelStateError("class count out of range");
    const Index n_rho = k > 0 ? k * (k - 1) / 2 : 1;
    if (static_cast<Index>(rho.size()) != n_rho) throw ModelStateError("rho has the wrong length");
    m.rho = Eigen::Map<const Vector>(rho.data(), n_rho);
    if (k > 0) {
        m.n_sv = json_integers<Index>(j.at("n_sv"));
        Index total = 0;
        for (Index c : m.n_sv) {
            if (c < 0 || c > nsv - total) throw ModelStateError("n_sv does not match the support vectors");
            total += c;
        }
        if (static_cast<Index>(m.n_sv.size()) != k || total != nsv)
            throw ModelStateError("n_sv does not match the support vectors");
    }
    if (j.contains("prob_a")) {
        const auto a = j.at("prob_a").get<std::vector<double>>();
        if (static_cast<Index>(a.size()) != n_rho) throw ModelStateError("prob_a has the wrong length");
        m.prob_a = Eigen::Map<const Vector>(a.data(), n_rho);
        if (k > 0) {
            const auto b = j.at("prob_b").get<std::vector<double>>();
            if (static_cast<Index>(b.size()) != n_rho) throw ModelStateError("prob_b has the wrong length");
            m.prob_b = Eigen::Map<const Vector>(b.data(), n_rho);
        }
    }
    m.prepare();
    return m;
}

Eigen::MatrixXd SvmModel::probabilities(const Eigen::MatrixXd& pairwise, Index k) const {
    if (!has_probability() || prob_b.size() != pairwise.cols())
        throw InternalError("svm probabilities asked of a model fitted without probability=1");
    // LIBSVM's min_prob: no pair is ever certain, so the coupling stays well posed.
    constexpr double kMinProb = 1e-7;
    Eigen::MatrixXd out(pairwise.rows(), k);
    Eigen::MatrixXd r = Eigen::MatrixXd::Zero(k, k);
    for (Index row = 0; row < pairwise.rows(); ++row) {
        Index q = 0;
        for (Index s = 0; s < k; ++s)
            for (Index t = s + 1; t < k; ++t, ++q) {
                const double p = std::clamp(sigmoid_probability(pairwise(row, q), prob_a[q], prob_b[q]), kMinProb,
                                            1 - kMinProb);
                r(s, t) = p;
                r(t, s) = 1 - p;
            }
        if (k == 2) {
            out(row, 0) = r(0, 1);
            out(row, 1) = r(1, 0);
        } else {
            out.row(row) = pairwise_coupling(r).transpose();
        }
    }
    return out;
}

SearchSpace kernel_svm_search_space(std::vector<std::string> more_axes) {
    // LIBSVM grid.py's ranges (-log2c -5,15 and -log2g 3,-15), drawn log-uniformly. The
    // kernel matrix grows with n²: over 20000 rows one fit outlasts any sensible budget.
    std::vector<std::string> axes = {"C=loguniform(0.03125,32768)", "gamma=loguniform(0.000030517578125,8)"};
    axes.insert(axes.end(), more_axes.begin(), more_axes.end());
    return {.axes = std::move(axes),
            // The portfolio: one and two decades above LIBSVM's default C=1 at its default
            // gamma, less regularized corners of the guide's grid (Hsu, Chang and Lin).
            .portfolio = {"C=10", "C=100"},
            .max_rows = 20000,
            .too_large = "kernel SVM: time and kernel cache grow with n^2; more than 20000 rows",
            .cost = 4};
}

SvmSolverSettings solver_settings(const SvmParams& p, const Context& ctx) {
    SvmSolverSettings s;
    s.smo.eps = p.eps;
    s.smo.shrinking = p.shrinking;
    s.smo.max_iter = p.max_iter;
    s.cache_mb = p.cache_mb;
    s.threads = std::max(1, ctx.resolved_threads());
    return s;
}

ParamBinding<SvmParams> svm_binding(std::vector<Bound<SvmParams>> own) {
    ParamBinding<SvmParams> b;
    b.add(std::move(own));
    b.add(kernel_param_bindings("rbf"));
    b.add(bind(&SvmParams::eps, real_param("eps", 1e-3, "stopping tolerance on the maximal KKT violation")
                                    .range(0.0, std::nullopt)
                                    .open_below()
                                    .like("LIBSVM -e")));
    b.add(bind(&SvmParams::cache_mb, real_param("cache_mb", 200.0, "kernel column cache size in MB")
                                         .range(0.0, std::nullopt)
                                         .open_below()
                                         .like("LIBSVM -m")));
    b.add(bind(&SvmParams::shrinking, bool_param("shrinking", true, "use the shrinking heuristics").like("LIBSVM -h")));
    b.add(bind(&SvmParams::max_iter, int_param("max_iter", 0, "maximum SMO iterations; 0 = max(10^7, 100 n) as LIBSVM")
                                         .range(0.0, std::nullopt)
                                         .like("scikit-learn SVC(max_iter=...)")));
    return b;
}

Bound<SvmParams> probability_param() {
    return bind(&SvmParams::probability, bool_param("probability", false,
                      "fit probability estimates: Platt's sigmoid per pair on internal 5-fold CV decision values, pairwise "
                      "coupling for k > 2; regression: the Laplace scale of cross-validated residuals")
        .like("LIBSVM -b 1"));
}

Vector ovo_vote(const Eigen::MatrixXd& pairwise, Index k) {
    Vector out(pairwise.rows());
    std::vector<int> votes(static_cast<std::size_t>(k));
    for (Index r = 0; r < pairwise.rows(); ++r) {
        std::fill(votes.begin(), votes.end(), 0);
        Index p = 0;
        for (Index s = 0; s < k; ++s)
            for (Index t = s + 1; t < k; ++t, ++p) ++votes[static_cast<std::size_t>(pairwise(r, p) > 0 ? s : t)];
        Index best = 0;
        for (Index c = 1; c < k; ++c)
            if (votes[static_cast<std::size_t>(c)] > votes[static_cast<std::size_t>(best)]) best = c;
        out[r] = static_cast<double>(best);
    }
    return out;
}

}  // namespace kestrel
