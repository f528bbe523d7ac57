#include "kestrel/linear/least_squares.hpp"

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "kestrel/common/coef_json.hpp"
#include "kestrel/common/row_shards.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/optim/centred_gram.hpp"
#include "kestrel/optim/gradient_descent.hpp"
#include "kestrel/optim/tall_qr.hpp"

namespace kestrel {
namespace {

// f(w) = (1/(2S)) Σ s_i (yc_i − x̃_iᵀw)² with x̃_i = x_i − x̄ (x̄ = 0 without intercept),
// the centring applied implicitly so that sparse X stays sparse.
class LeastSquaresObjective : public Objective {
public:
    LeastSquaresObjective(const Features& X, const Vector& s, const Vector& yc, const Vector& x_mean)
        : X_(X), s_(s), yc_(yc), x_mean_(x_mean), S_(s.sum()) {}

    Index dimension() const override { return X_.cols(); }
    double value_gradient(const Vector& w, Vector& grad) override {
        const Vector r = residual(w);
        grad = -transpose_times(s_.cwiseProduct(r)) / S_;
        return 0.5 * s_.dot(r.cwiseProduct(r)) / S_;
    }
    double value(const Vector& w) override {
        const Vector r = residual(w);
        return 0.5 * s_.dot(r.cwiseProduct(r)) / S_;
    }
    bool has_hessian_vector() const override { return true; }
    void hessian_vector(const Vector& v, Vector& out) const override {
        out = transpose_times(s_.cwiseProduct(times(v))) / S_;
    }

private:
    Vector times(const Vector& w) const {
        Vector z = X_.multiply(w);
        z.array() -= x_mean_.dot(w);
        return z;
    }
    Vector transpose_times(const Vector& v) const { return X_.transpose_multiply(v) - v.sum() * x_mean_; }
    Vector residual(const Vector& w) const { return yc_ - times(w); }

    const Features& X_;
    const Vector &s_, &yc_, &x_mean_;
    double S_;
};

// The R factor of the rows of every rank from each rank's R (m x m): the ranks' factors
// stacked in rank order and factorised once more. A collective step.
Eigen::MatrixXd r_over_ranks(const Eigen::MatrixXd& mine) {
    ProcessGroup* group = process_group();
    if (group == nullptr) throw InternalError("least_squares: rows spread over ranks, but no process group");
    const Index m = mine.rows();
    std::vector<std::byte> bytes(static_cast<std::size_t>(m * m) * sizeof(double));
    std::memcpy(bytes.data(), mine.data(), bytes.size());
    const std::vector<std::vector<std::byte>> all = share_with_all(*group, bytes);
    const auto ranks = static_cast<Index>(all.size());
    Eigen::MatrixXd stack(ranks * m, m);
    for (Index r = 0; r < ranks; ++r) {
        Eigen::MatrixXd part(m, m);
        std::memcpy(part.data(), all[static_cast<std::size_t>(r)].data(), bytes.size());
        stack.middleRows(r * m, m) = part;
    }
    const RowBlockFill rows_of_stack = [&](Index first, Index count, Eigen::MatrixXd& block) {
        block = stack.middleRows(first, count);
    };
    return tall_skinny_r(ranks * m, m, rows_of_stack, 1);
}

// The minimum-norm minimiser of ‖Aw − b‖ by a complete orthogonal decomposition (column-
// pivoted QR, then the trailing rows of R rotated away: LAPACK's xGELSY), with rank
// decided as the pivoted QR decides it (pivots below threshold × the largest are 0). A
// basic solution instead (zeros for the columns left out) gives collinear designs huge
// coefficients that cancel on the training rows only: on ames one-hot encoded, R² 0.847 on
// the test split against −6·10²⁴ (an unseen category breaks the cancellation).
Vector minimum_norm_solve(const Eigen::Ref<const Eigen::MatrixXd>& A, const Eigen::Ref<const Eigen::VectorXd>& b,
                          double threshold, Index& rank) {
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
    cod.setThreshold(threshold);
    cod.compute(A);
    rank = cod.rank();
    return cod.solve(b);
}

StepRule step_rule(const std::string& s) {
    if (s == "bold") return StepRule::bold;
    if (s == "linesearch") return StepRule::linesearch;
    return StepRule::fixed;
}

}  // namespace

void LeastSquares::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::regression)
        throw UsageError("least_squares: learns regression only (for classification use logistic)");
    const LeastSquaresParams& p = p_;
    const bool centered = p.fit_intercept;
    const std::string& solver = p.solver;
    const Index n = data.rows(), d = data.cols();
    const Vector s = data.has_weights() ? data.weights : Vector::Ones(n);
    // Over every rank's rows when they are sharded (solver=cholesky and qr fit on shards).
    const WeightedMoments m = weighted_moments(data.X, s, data.y, centered, ctx.rows_sharded);
    if (!(m.total > 0)) throw DataError("least_squares: the sample weights sum to zero");
    const Vector& x_mean = m.x_mean;
    const double y_mean = m.y_mean;
    const Vector yc = data.y.array() - y_mean;
    iterations_ = 0;
    Vector coef;

    if (solver == "cholesky") {
        // The d x d normal equations X̃ᵀSX̃ w = X̃ᵀS yc, solved by LDLT (semi-definite A of a
        // rank-deficient design: Eigen's LDLT solves with the pseudo-inverse of D).
        const NormalEquations ne =
            centred_normal_equations(data.X, s, yc, m, centered, ctx.rows_sharded, ctx.resolved_threads());
        const Eigen::LDLT<Eigen::MatrixXd, Eigen::Lower> ldlt(ne.A);
        if (ldlt.info() != Eigen::Success)
            throw DataError("least_squares: the normal equations could not be factorised");
        coef = ldlt.solve(ne.b);
        rank_ = 0;
    } else if (solver == "gd") {
        LeastSquaresObjective f(data.X, s, yc, x_mean);
        SolverOptions opts;
        opts.tol = p.tol;
        opts.max_iter = static_cast<int>(p.max_iter);
        const RealOrWord& lr = p.learning_rate;
        const SolverResult r =
            minimize_gradient_descent(f, Vector::Zero(d), opts, step_rule(p.step), lr.word.empty() ? lr.value : 0.0);
        if (!std::isfinite(r.value) || !r.w.allFinite())
            throw ParamError("least_squares: gradient descent diverged: learning_rate=" +
                             (lr.word.empty() ? format_number(lr.value) : std::string("auto")) +
                             " is too large for step=" + p.step +
                             " (leave it at auto, or use step=bold or step=linesearch)");
        coef = r.w;
        iterations_ = r.iterations;
        rank_ = 0;
        if (!r.converged)
            ctx.warning("least_squares: " + r.message +
                        "; the model is usable but not optimal (raise max_iter, use step=linesearch, or scale the "
                        "features)");
    } else {
        // Rows of [√s ∘ (X − 1x̄ᵀ) | √s ∘ yc]: the weighted, centred design and target,
        // densified (qr and svd are dense factorisations; docs/models/least_squares.md).
        auto fill = [&](Index first, Index count, Eigen::MatrixXd& block) {
            block.resize(count, d + 1);
            if (data.X.is_sparse()) block.leftCols(d) = data.X.sparse_ref().middleRows(first, count);
            else block.leftCols(d) = data.X.dense_ref().middleRows(first, count);
            block.leftCols(d).rowwise() -= x_mean.transpose();
            block.col(d) = yc.segment(first, count);
            block.array().colwise() *= s.segment(first, count).cwiseSqrt().array();
        };
        // The whole data's row count on shards, so that every rank makes the same rank decisions.
        const Index rows = rows_over_ranks(ctx.rows_sharded, n).total;
        const double threshold = std::numeric_limits<double>::epsilon() * static_cast<double>(std::max(rows, d));
        if (solver == "qr" && (ctx.rows_sharded || n >= 4 * (d + 1))) {
            // Tall: R of [A | b] by a tall-skinny QR (both cores, level 3, A never held
            // whole), then the complete orthogonal decomposition of the small R, which sees
            // the same column norms and so makes the same rank decisions:
            // min ‖Aw − b‖ = min ‖R_A w − c‖, c the first d entries of R's last column, with
            // the same minimum-norm minimiser. On shards each rank's R is one block of that
            // tall-skinny QR: the R factors of every rank, stacked in rank order, are
            // factorised once more, the same on every rank (docs/distributed.md).
            Eigen::MatrixXd R = tall_skinny_r(n, d + 1, fill, ctx.resolved_threads());
            if (ctx.rows_sharded) R = r_over_ranks(R);
            coef = minimum_norm_solve(R.topLeftCorner(d, d), R.col(d).head(d), threshold, rank_);
        } else {
            Eigen::MatrixXd A;
            fill(0, n, A);
            if (solver == "svd") {
                Eigen::BDCSVD<Eigen::MatrixXd> svd(A.leftCols(d), Eigen::ComputeThinU | Eigen::ComputeThinV);
                // numpy.linalg.lstsq's rcond=None: singular values below eps·max(n, d)·σ_max are zero.
                svd.setThreshold(threshold);
                coef = svd.solve(A.col(d));
                rank_ = svd.rank();
            } else {
                coef = minimum_norm_solve(A.leftCols(d), A.col(d), threshold, rank_);
            }
        }
        if (solver == "qr" && rank_ < d)
            ctx.warning("least_squares: the design has rank " + std::to_string(rank_) + " < " + std::to_string(d) +
                        " features (collinear columns, such as a one-hot encoding's beside the intercept); the "
                        "minimum-norm solution is returned");
    }
    keep(coef, centered ? y_mean - x_mean.dot(coef) : 0.0);
}

void LeastSquares::on_params(const Params& resolved) {
    p_ = least_squares_params().read(resolved);
}

const ParamBinding<LeastSquaresParams>& least_squares_params() {
    using P = LeastSquaresParams;
    static const ParamBinding<P> binding = [] {
        return ParamBinding<P>{
            bind(&P::solver, choice_param("solver", "qr", {"qr", "svd", "gd", "cholesky"},
                                          "qr: complete orthogonal decomposition (the minimum-norm solution, LAPACK "
                                          "xGELSY); svd: the minimum-norm solution by SVD; gd: gradient descent; "
                                          "cholesky: d x d normal equations (qr and cholesky fit on rows sharded over "
                                          "MPI ranks)")
                                 .like("scikit-learn LinearRegression (scipy lstsq, SVD); numpy.linalg.lstsq; "
                                       "cholesky: scikit-learn Ridge(alpha=0, solver='cholesky')")),
            fit_intercept_param("learn an intercept (centres X and y)", "scikit-learn fit_intercept"),
            bind(&P::step, choice_param("step", "linesearch", {"fixed", "bold", "linesearch"},
                                        "gd step rule: fixed, bold driver, or backtracking line search")),
            bind(&P::learning_rate, real_param("learning_rate", 0.0,
                                               "gd: the (initial) step; auto = 1/L, L the largest eigenvalue of XᵀSX/S")
                                        .range(0.0, std::nullopt)
                                        .open_below()
                                        .also({"auto"})
                                        .defaults_to("auto")
                                        .like("scikit-learn SGDRegressor eta0 (constant schedule)")),
            tol_param(1e-8, "gd: stop when ||gradient|| <= tol * max(1, ||gradient at 0||)", "", true),
            max_iter_param(100000, "gd: maximum number of iterations", ""),
        };
    }();
    return binding;
}

ModelInfo least_squares_model_info() {
    ModelInfo info = model_info_of<LeastSquares>(
        "least_squares", "ordinary least squares by QR, SVD (minimum norm) or gradient descent",
        least_squares_params().spec(), {Task::regression}, {.sparse_input = true, .sample_weights = true});
    // Rows spread over ranks: the normal equations, whose X̃ᵀSX̃ and X̃ᵀSy sum over the
    // ranks, and qr, whose tall-skinny R combines the ranks' R factors; svd and gd would
    // need the rows.
    info.refine = [](const Capabilities& declared, const Params& resolved) {
        Capabilities c = declared;
        const std::string solver = least_squares_params().read(resolved).solver;
        c.sharded_rows = solver == "cholesky" || solver == "qr";
        return c;
    };
    info.search_space = least_squares_search_space();
    return info;
}

SearchSpace least_squares_search_space() {
    // Nothing to tune: a one-point space, so kestrel-auto fits it once as a baseline.
    return {.axes = {"fit_intercept=1"}, .cost = 1};
}

}  // namespace kestrel
