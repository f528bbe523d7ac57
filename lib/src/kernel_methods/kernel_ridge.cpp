// Kernel ridge regression. With the intercept the problem is solved on the
// weighted-centred kernel (the feature map minus its weighted mean, exactly as ridge
// centres X), which makes the linear kernel reproduce `ridge` to rounding:
//     K_c = (I - 1wᵀ) K (I - w1ᵀ),  w = s / Σs,
//     (S^½ K_c S^½ + alpha I) v = S^½ (y - ȳ),  a = S^½ v,
//     f(x) = Σ_i a_i k(x_i, x) + b,  b = ȳ - aᵀ K w   (Σ a_i = 0 makes the rest vanish).
#include "kestrel/kernel_methods/kernel_ridge.hpp"

#include "gram_limit.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/kernel_methods/nystrom.hpp"
#include "kestrel/kernel_methods/spd_solve.hpp"
#include "kestrel/kernels/kernel_params.hpp"

namespace kestrel {

namespace {

constexpr Index kNystromChunk = 2048;  // training rows per kernel block in the Nyström pass
constexpr Index kUpdateTile = 64;      // columns of the m x m accumulator per task

Vector sample_weights(const Dataset& data) {
    return data.has_weights() ? data.weights : Vector::Ones(data.rows());
}

// Mixed precision: conjugate gradient in double on M, preconditioned by M's Cholesky
// factor in single precision (half the memory traffic, twice the SIMD width of the
// double factorisation), to a double residual of kRefineTol. The iteration budget is
// small: a system the float factor cannot precondition that well is left to double.
constexpr double kRefineTol = 1e-12;
constexpr int kRefineMaxIter = 30;
constexpr int kRefineStall = 3;  // iterations in a row without halving the residual

bool solve_mixed(const DenseMatrix& M, const Vector& rhs, int threads, const Context& ctx, Vector& v) {
    std::ostringstream why;
    {
        FloatMatrix F = lower_to_float(M, threads);
        if (cholesky_in_place(F, threads)) {
            const CgResult r = preconditioned_cg(
                [&](const Vector& x) { return Vector(parallel_multiply(M, x, threads)); },
                [&](const Vector& b) { return cholesky_solve_float(F, b); }, rhs, cholesky_solve_float(F, rhs), kRefineTol,
                kRefineMaxIter, kRefineStall);
            if (r.converged) {
                v = r.x;
                return true;
            }
            why << "refining its single-precision factorisation stopped at relative residual " << r.relative_residual
                << " after " << r.iterations << " iterations (goal " << kRefineTol << ")";
        } else {
            why << "it is not positive definite in single precision";
        }
    }
    ctx.warning("kernel_ridge: the regularised kernel matrix is ill-conditioned: " + why.str() +
                "; factorising in double precision instead (precision=double skips the attempt; a larger alpha "
                "avoids it)");
    return false;
}

}  // namespace

void KernelRidge::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::regression)
        throw UsageError("kernel_ridge: learns regression only (for classification use kernel_logistic)");
    const KernelSpec spec = kernel_from_params(p_, data.X, ctx);
    if (p_.nystrom > 0) fit_nystrom(data, ctx, spec);
    else fit_exact(data, ctx, spec);
    require_finite(model_.coef, model_.intercept, "kernel_ridge");
}

void KernelRidge::fit_exact(const Dataset& data, const Context& ctx, const KernelSpec& spec) {
    const KernelRidgeParams& p = p_;
    const double alpha = p.alpha;
    const bool intercept = p.fit_intercept;
    const int threads = std::max(1, ctx.resolved_threads());
    const Index n = data.rows();
    require_exact_gram_fits("kernel_ridge", n);
    const Vector s = sample_weights(data);
    const double total = s.sum();
    const Vector w = s / total;
    const Vector sq = s.cwiseSqrt();
    const double ybar = intercept ? w.dot(data.y) : 0.0;
    const KernelRows rows(data.X);
    const Kernel kernel(spec);
    Vector kw = Vector::Zero(n);

    // M = S^½ K_c S^½ + (alpha + jitter) I, built in place in the Gram matrix.
    auto system = [&](double jitter) {
        DenseMatrix M = kernel.gram(rows, threads);
        double c = 0;
        if (intercept) {
            kw = parallel_multiply(M, w, threads);
            c = w.dot(kw);
        }
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
        for (Index i = 0; i < n; ++i) {
            auto row = M.row(i);
            if (intercept) row.array() += c - kw[i] - kw.transpose().array();
            row.array() *= sq[i] * sq.transpose().array();
            row[i] += alpha + jitter;
        }
        return M;
    };
    const Vector rhs = sq.cwiseProduct((data.y.array() - ybar).matrix());
    Vector v;
    if (p.solver == "cg") {
        const DenseMatrix M = system(0.0);
        const int max_iter =
            p.max_iter > 0 ? static_cast<int>(p.max_iter) : static_cast<int>(std::max<Index>(n, 100));
        const CgResult r = conjugate_gradient([&](const Vector& x) { return Vector(parallel_multiply(M, x, threads)); },
                                              M.diagonal(), rhs, p.tol, max_iter);
        if (!r.converged) {
            std::ostringstream msg;
            msg << "kernel_ridge: conjugate gradient stopped after " << r.iterations
                << " iterations at relative residual " << r.relative_residual << " (tol " << p.tol
                << "); raise max_iter or use solver=cholesky";
            ctx.warning(msg.str());
        }
        v = r.x;
    } else {
        DenseMatrix M = system(0.0);
        const bool solved = p.precision == "mixed" && solve_mixed(M, rhs, threads, ctx, v);
        double jitter = 0;
        if (!solved && !cholesky_in_place(M, threads)) {
            // Only rounding can make K + alpha I indefinite (alpha > 0): grow a jitter
            // relative to the diagonal until the factorisation goes through.
            const DenseMatrix M0 = system(0.0);
            const double scale = std::max(M0.diagonal().mean(), alpha);
            bool ok = false;
            for (jitter = 1e-12 * scale; jitter <= 1e-2 * scale && !ok; jitter *= 100) {
                M = system(jitter);
                ok = cholesky_in_place(M, threads);
                if (ok) break;
            }
            if (!ok) throw DataError("kernel_ridge: the kernel matrix is not positive semi-definite (is the kernel "
                                     "a valid one? sigmoid kernels are not)");
            std::ostringstream msg;
            msg << "kernel_ridge: the regularised kernel matrix is numerically singular; added a jitter of " << jitter
                << " to its diagonal (raise alpha to avoid this)";
            ctx.warning(msg.str());
        }
        if (!solved) v = cholesky_solve(M, rhs);
    }
    model_ = KernelExpansion{};
    model_.kernel_spec = spec;
    model_.rows = data.X;
    Vector a = sq.cwiseProduct(v);
    // Σ a_i = 0 in exact arithmetic, which is what lets the prediction use the raw kernel.
    // Rounding leaves a residue that the raw kernel multiplies by its (possibly huge,
    // uncentred) scale; projecting it out, a - (Σa) w, is the exact centred predictor.
    if (intercept) a -= a.sum() * w;
    model_.coef = a;
    model_.intercept = Vector::Constant(1, intercept ? ybar - a.dot(kw) : 0.0);
    model_.drop_zero_rows();
    model_.prepare();
}

// Landmark space: with k_i = k_m(x_i), accumulate A = Σ s_i (k_i - c)(k_i - c)ᵀ around a
// shift c (the first row's k_i, which tames the cancellation of centring), then solve
// (Tᵀ A_c T + alpha I) u = Tᵀ h in the Nyström feature space and map back, β = T u.
void KernelRidge::fit_nystrom(const Dataset& data, const Context& ctx, const KernelSpec& spec) {
    const KernelRidgeParams& p = p_;
    const double alpha = p.alpha;
    const bool intercept = p.fit_intercept;
    const int threads = std::max(1, ctx.resolved_threads());
    const Index n = data.rows();
    const Kernel kernel(spec);
    // Stream "nyst": landmarks never share a stream with the median heuristic's sample.
    const auto landmarks =
        choose_landmarks(data.X, kernel, static_cast<Index>(p.nystrom), landmark_sampling_from_string(p.landmarks),
                         derive_seed(ctx.seed, 0x6e797374),
                         threads);
    const NystromBasis basis = nystrom_basis(data.X, kernel, landmarks, threads);
    const Index m = basis.rows.size();

    const Vector s = sample_weights(data);
    const double total = s.sum();
    const double ybar = intercept ? s.dot(data.y) / total : 0.0;
    Vector shift = Vector::Zero(m), g = Vector::Zero(m), h = Vector::Zero(m);
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(m, m);  // lower triangle used
    const Index tiles = (m + kUpdateTile - 1) / kUpdateTile;
    for (Index lo = 0; lo < n; lo += kNystromChunk) {
        const Index hi = std::min(n, lo + kNystromChunk), c = hi - lo;
        std::vector<Index> idx(static_cast<std::size_t>(c));
        for (Index i = lo; i < hi; ++i) idx[static_cast<std::size_t>(i - lo)] = i;
        const DenseMatrix K = kernel.block(KernelRows(data.X, idx), basis.rows, threads);
        if (lo == 0 && intercept) shift = K.row(0).transpose();
        const Vector sq = s.segment(lo, c).cwiseSqrt();
        Eigen::MatrixXd D = (K.rowwise() - shift.transpose());
        D = sq.asDiagonal() * D;
        g.noalias() += D.transpose() * sq;
        h.noalias() += D.transpose() * sq.cwiseProduct((data.y.segment(lo, c).array() - ybar).matrix());
#pragma omp parallel for num_threads(threads) schedule(dynamic) if (threads > 1 && tiles > 1)
        for (Index t = 0; t < tiles; ++t) {
            const Index c0 = t * kUpdateTile, w = std::min(kUpdateTile, m - c0);
            A.block(c0, c0, m - c0, w).noalias() += D.rightCols(m - c0).transpose() * D.middleCols(c0, w);
        }
    }
    const Vector delta = g / total;
    if (intercept) A.noalias() -= total * delta * delta.transpose();
    A = A.selfadjointView<Eigen::Lower>();
    const Eigen::MatrixXd& T = basis.T;
    Eigen::MatrixXd G = T.transpose() * A * T;
    G = 0.5 * (G + G.transpose());
    G.diagonal().array() += alpha;
    Eigen::LLT<Eigen::MatrixXd> llt(G);
    if (llt.info() != Eigen::Success)
        throw DataError("kernel_ridge: the Nyström system is not positive definite (is the kernel a valid one?)");
    const Vector beta = T * llt.solve(T.transpose() * h);

    model_ = KernelExpansion{};
    model_.kernel_spec = spec;
    model_.rows = basis.landmarks;
    model_.coef = beta;
    model_.intercept = Vector::Constant(1, intercept ? ybar - (shift + delta).dot(beta) : 0.0);
    model_.prepare();
}

Vector KernelRidge::do_predict(const Features& X) const { return model_.decision(X).col(0); }

Json KernelRidge::do_save_state() const { return model_.to_json(); }

void KernelRidge::do_load_state(const Json& state) { model_ = KernelExpansion::from_json(state, n_features(), 1); }

const ParamBinding<KernelRidgeParams>& kernel_ridge_params() {
    using P = KernelRidgeParams;
    static const ParamBinding<P> binding = [] {
        ParamBinding<P> b{
            bind(&P::alpha, real_param("alpha", 1.0, "weight of the penalty alpha*||f||² in the RKHS (alpha = n*lambda)")
                                .range(0.0, std::nullopt)
                                .open_below()
                                .like("scikit-learn KernelRidge(alpha=...)")),
            fit_intercept_param("learn an unpenalised intercept (centres the kernel and y); 0 = scikit-learn",
                                "none (scikit-learn KernelRidge has no intercept: fit_intercept=0)"),
            bind(&P::solver, choice_param("solver", "cholesky", {"cholesky", "cg"},
                                          "cholesky (tiled, parallel) or cg (conjugate gradient on the Gram matrix)")
                                 .like("scikit-learn KernelRidge: Cholesky (scipy.linalg.solve assume_a='pos')")),
            bind(&P::precision,
                 choice_param("precision", "mixed", {"mixed", "double"},
                              "cholesky: mixed = factor in single precision, refine in double to ||b - Mx|| <= 1e-12 "
                              "||b|| (double when that fails); double = factor in double")
                     .like("scikit-learn KernelRidge: double (LAPACK dpotrf)")),
            tol_param(1e-10, "cg: stop at relative residual ||r||/||b|| <= tol", "", true),
            max_iter_param(0, "cg: maximum iterations; 0 = max(n, 100)", "", 0.0),
        };
        b.add(nystrom_param_bindings("use a Nyström approximation with this many landmarks (0 = exact)",
                                       "scikit-learn Nystroem(n_components=m) + Ridge"));
        b.add(kernel_param_bindings("rbf"));
        return b;
    }();
    return binding;
}

ModelInfo kernel_ridge_model_info() {
    return model_info_of<KernelRidge>(
        "kernel_ridge", "kernel ridge regression (scikit-learn KernelRidge) with intercept; Cholesky, CG or Nyström",
        kernel_ridge_params().spec(), {Task::regression}, {.sparse_input = true, .sample_weights = true});
}

}  // namespace kestrel
