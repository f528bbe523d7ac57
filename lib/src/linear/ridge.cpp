#include "kestrel/linear/ridge.hpp"

#include <Eigen/Cholesky>
#include <Eigen/SVD>
#include <algorithm>
#include <limits>
#include <vector>

#include "kestrel/common/coef_json.hpp"
#include "kestrel/common/row_blocks.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/optim/centred_gram.hpp"
#include "kestrel/optim/ridge_sgd.hpp"

namespace kestrel {
namespace {

// The weighted least-squares problem after centering: minimise
// Σ s_i (yc_i - wᵀ(x_i - x̄))² + alpha ||w||², with x̄ = 0 when there is no intercept.
struct RidgeProblem {
    const Features& X;
    Vector s, sqrt_s;  // sample weights and their square roots
    Vector x_mean;     // weighted column means (zeros without intercept)
    Vector yc;         // centred targets
    bool centered;
    double alpha;
};

Vector solve_lower(const Eigen::MatrixXd& A, const Vector& rhs) {
    // LDLT rather than LLT: alpha = 0 with collinear columns leaves A only
    // semi-definite, and Eigen's LDLT then solves with the pseudo-inverse of D.
    const Eigen::LDLT<Eigen::MatrixXd, Eigen::Lower> ldlt(A);
    if (ldlt.info() != Eigen::Success) throw DataError("ridge: the normal equations could not be factorised");
    return ldlt.solve(rhs);
}

// sqrt(s) · (X - 1 x̄ᵀ), materialised: the dense paths centre explicitly, which
// avoids the cancellation of XᵀX - n x̄x̄ᵀ when the means are large.
DenseMatrix scaled_centered(const RidgeProblem& p) {
    DenseMatrix Xs(p.X.dense_ref());
    if (p.centered) Xs.rowwise() -= p.x_mean.transpose();
    return p.sqrt_s.asDiagonal() * Xs;
}

// The d x d system X̃ᵀSX̃ + alpha I, X̃ᵀS yc (dense: rows centred in blocks; sparse: from
// the non-zeros), summed over the ranks when the rows are sharded.
Vector primal(const RidgeProblem& p, const WeightedMoments& m, const Context& ctx) {
    NormalEquations ne =
        centred_normal_equations(p.X, p.s, p.yc, m, p.centered, ctx.rows_sharded, ctx.resolved_threads());
    ne.A.diagonal().array() += p.alpha;
    return solve_lower(ne.A, ne.b);
}

Vector dual_dense(const RidgeProblem& p) {
    const DenseMatrix Xs = scaled_centered(p);
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(Xs.rows(), Xs.rows());
    K.selfadjointView<Eigen::Lower>().rankUpdate(Xs);
    K.diagonal().array() += p.alpha;
    const Vector a = solve_lower(K, p.sqrt_s.cwiseProduct(p.yc));
    return Xs.transpose() * a;
}

// scikit-learn's _solve_svd: with √S X_c = U Σ Vᵀ (thin), w = V diag(σ/(σ² + α)) Uᵀ √S y_c.
// Singular values under ε·max(n, d)·σ_max count as zero (numpy lstsq's rcond), so a
// rank-deficient design at alpha = 0 gets the minimum-norm solution.
Vector svd_solve(const RidgeProblem& p) {
    const Index n = p.X.rows(), d = p.X.cols();
    if (p.X.is_sparse())
        check_memory(
            static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(d) * sizeof(double), 0,
            "ridge solver=svd on sparse data (densified, " + std::to_string(n) + " x " + std::to_string(d) + ")");
    Eigen::MatrixXd A = p.X.is_sparse() ? Eigen::MatrixXd(p.X.sparse_ref()) : Eigen::MatrixXd(p.X.dense_ref());
    if (p.centered) A.rowwise() -= p.x_mean.transpose();
    A.array().colwise() *= p.sqrt_s.array();
    const Eigen::BDCSVD<Eigen::MatrixXd> svd(A, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Vector& sigma = svd.singularValues();
    const double cutoff =
        sigma.size() ? std::numeric_limits<double>::epsilon() * static_cast<double>(std::max(n, d)) * sigma[0] : 0;
    const Vector shrink = sigma.unaryExpr([&](double v) { return v > cutoff ? v / (v * v + p.alpha) : 0.0; });
    return svd.matrixV() * shrink.cwiseProduct(svd.matrixU().transpose() * p.sqrt_s.cwiseProduct(p.yc));
}

// Gram of the centred, weighted rows: (G - m1ᵀ - 1mᵀ + x̄ᵀx̄) ∘ sqrt(s)sqrt(s)ᵀ with
// G = XXᵀ and m = X x̄, so X is never densified.
Vector dual_sparse(const RidgeProblem& p) {
    const SparseMatrix& X = p.X.sparse_ref();
    Eigen::MatrixXd K = X * X.transpose();
    if (p.centered) {
        const Vector m = X * p.x_mean;
        K.colwise() -= m;
        K.rowwise() -= m.transpose();
        K.array() += p.x_mean.squaredNorm();
    }
    K.array() *= (p.sqrt_s * p.sqrt_s.transpose()).array();
    K.diagonal().array() += p.alpha;
    const Vector beta = p.sqrt_s.cwiseProduct(solve_lower(K, p.sqrt_s.cwiseProduct(p.yc)));
    Vector w = X.transpose() * beta;
    if (p.centered) w -= beta.sum() * p.x_mean;
    return w;
}

Vector sgd_solve(const RidgeProblem& p, const RidgeParams& prm, const Context& ctx) {
    RidgeSgdOptions o;
    o.max_iter = static_cast<int>(prm.max_iter);
    o.tol = prm.tol;
    o.eta0 = prm.eta0.word.empty() ? prm.eta0.value : 0.0;
    o.average = prm.average;
    o.seed = ctx.seed;
    const RidgeSgdResult r = ridge_sgd(p.X, p.s, p.yc, p.x_mean, p.alpha, o);
    if (!r.converged)
        ctx.warning("ridge: sgd did not converge in max_iter=" + std::to_string(o.max_iter) +
                    " epochs; the model is usable but not optimal (raise max_iter, or use solver=cholesky)");
    return r.w;
}

// Rows read as a stream (docs/large-data.md): the weighted moments in one pass, then the
// d x d normal equations on the whole data's means in a second, each summed over the
// blocks as the sharded fit sums them over the ranks. Returns the weights and sets the
// means the intercept needs.
Vector streamed_primal(const RowBlocks& blocks, const Dataset& data, const RidgeParams& prm, WeightedMoments& m,
                       const Context& ctx) {
    const Index n = data.rows(), d = data.cols();
    const Vector s = data.has_weights() ? data.weights : Vector::Ones(n);
    Vector sums = Vector::Zero(d + 2);
    blocks.for_each([&](const Features& X, Index first) {
        const auto sb = s.segment(first, X.rows());
        sums[0] += sb.sum();
        if (!prm.fit_intercept) return;
        sums.segment(1, d) += X.transpose_multiply(Vector(sb));
        sums[d + 1] += sb.dot(data.y.segment(first, X.rows()));
    });
    m.total = sums[0];
    m.x_mean = Vector::Zero(d);
    if (!(m.total > 0)) throw DataError("ridge: the sample weights sum to zero");
    if (prm.fit_intercept) {
        m.x_mean = sums.segment(1, d) / m.total;
        m.y_mean = sums[d + 1] / m.total;
    }
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(d, d);
    Vector b = Vector::Zero(d);
    blocks.for_each([&](const Features& X, Index first) {
        const Vector sb = s.segment(first, X.rows());
        const Vector yc = data.y.segment(first, X.rows()).array() - m.y_mean;
        // A sparse block's Gram is corrected by (its weight) x̄x̄ᵀ: the blocks' corrections sum
        // to the whole data's S x̄x̄ᵀ.
        WeightedMoments part = m;
        part.total = sb.sum();
        const NormalEquations ne =
            centred_normal_equations(X, sb, yc, part, prm.fit_intercept, false, ctx.resolved_threads());
        A += ne.A;
        b += ne.b;
    });
    A.diagonal().array() += prm.alpha;
    return solve_lower(A, b);
}

}  // namespace

void RidgeRegression::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::regression)
        throw UsageError("ridge: learns regression only (for classification use logistic)");
    const RidgeParams& prm = p_;
    const bool centered = prm.fit_intercept;
    const std::string& solver = prm.solver;
    const Index n = data.rows(), d = data.cols();
    if (const RowBlocks* blocks = streamed_rows_of(data)) {
        WeightedMoments m;
        const Vector coef = streamed_primal(*blocks, data, prm, m, ctx);
        keep(coef, centered ? m.y_mean - m.x_mean.dot(coef) : 0.0);
        return;
    }

    RidgeProblem p{data.X,
                   data.has_weights() ? data.weights : Vector::Ones(n),
                   {},
                   Vector::Zero(d),
                   data.y,
                   centered,
                   prm.alpha};
    p.sqrt_s = p.s.cwiseSqrt();
    const WeightedMoments m = weighted_moments(data.X, p.s, data.y, centered, ctx.rows_sharded);
    if (!(m.total > 0)) throw DataError("ridge: the sample weights sum to zero");
    const double y_mean = m.y_mean;
    p.x_mean = m.x_mean;
    if (centered) p.yc.array() -= y_mean;

    // On sharded rows only the d x d system sums over ranks (refine allows auto and cholesky).
    const bool dual = !ctx.rows_sharded && (solver == "dual" || (solver == "auto" && d > n));
    Vector coef;
    if (solver == "svd")
        coef = svd_solve(p);
    else if (solver == "sgd")
        coef = sgd_solve(p, prm, ctx);
    else if (dual)
        coef = data.X.is_sparse() ? dual_sparse(p) : dual_dense(p);
    else
        coef = primal(p, m, ctx);
    keep(coef, centered ? y_mean - p.x_mean.dot(coef) : 0.0);
}

void RidgeRegression::on_params(const Params& resolved) {
    p_ = ridge_params().read(resolved);
}

const ParamBinding<RidgeParams>& ridge_params() {
    using P = RidgeParams;
    static const ParamBinding<P> binding = [] {
        return ParamBinding<P>{
            bind(&P::alpha, real_param("alpha", 1.0, "weight of the penalty alpha*||w||² (0 = ordinary least squares)")
                                .range(0.0, std::nullopt)
                                .like("scikit-learn Ridge(alpha=...)")),
            fit_intercept_param("learn an unpenalised intercept (centres X and y)",
                                "scikit-learn Ridge(fit_intercept=...)"),
            bind(&P::solver, choice_param("solver", "auto", {"auto", "cholesky", "dual", "svd", "sgd"},
                                          "cholesky: d x d normal equations; dual: n x n Gram system; auto: dual "
                                          "when d > n; svd: SVD of X; sgd: stochastic gradient descent")
                                 .like("scikit-learn Ridge(solver='cholesky'|'svd'); sgd: "
                                       "SGDRegressor(penalty='l2')")),
            max_iter_param(1000, "sgd: maximum number of epochs (passes over the rows)",
                           "scikit-learn SGDRegressor(max_iter=...)"),
            tol_param(1e-4, "sgd: stop after 5 epochs that lower the objective by less than tol times it",
                      "scikit-learn SGDRegressor(tol=...) (relative here)"),
            bind(&P::eta0,
                 real_param("eta0", 0.0, "sgd: initial step; auto = 1 / (largest per-row curvature + alpha/S)")
                     .range(0.0, std::nullopt)
                     .open_below()
                     .also({"auto"})
                     .defaults_to("auto")
                     .like("scikit-learn SGDRegressor(eta0=...)")),
            bind(&P::average, bool_param("average", true, "sgd: return the average of the iterates (averaged SGD)")
                                  .like("scikit-learn SGDRegressor(average=True)")),
        };
    }();
    return binding;
}

ModelInfo ridge_model_info() {
    ModelInfo info = model_info_of<RidgeRegression>(
        "ridge", "ridge regression (L2-penalised least squares): cholesky, dual, svd or sgd", ridge_params().spec(),
        {Task::regression}, {.sparse_input = true, .sample_weights = true});
    // Rows spread over ranks: the d x d normal equations, X'X and X'y summed over the ranks.
    info.refine = [](const Capabilities& declared, const Params& resolved) {
        Capabilities c = declared;
        const std::string solver = ridge_params().read(resolved).solver;
        c.sharded_rows = c.streamed_rows = solver == "auto" || solver == "cholesky";
        return c;
    };
    info.search_space = ridge_search_space();
    return info;
}

SearchSpace ridge_search_space() {
    // scikit-learn RidgeCV-style alphas, log-spaced over 1e-4..1e4.
    // The portfolio: scikit-learn RidgeCV's default alphas (0.1, 1, 10; 1 is the default),
    // then 100 for the noisiest tables.
    return {.axes = {"alpha=loguniform(0.0001,10000)", "scale=standard"},
            .portfolio = {"alpha=10", "alpha=0.1", "alpha=100"},
            .cost = 1};
}

}  // namespace kestrel
