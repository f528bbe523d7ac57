#include "kestrel/linear/ridge.hpp"

#include <Eigen/Cholesky>

#include "kestrel/core/error.hpp"
#include "kestrel/linear/linear_state.hpp"

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
    DenseMatrix Xs = p.X.dense_ref();
    if (p.centered) Xs.rowwise() -= p.x_mean.transpose();
    return p.sqrt_s.asDiagonal() * Xs;
}

Vector primal_dense(const RidgeProblem& p) {
    const DenseMatrix Xs = scaled_centered(p);
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(Xs.cols(), Xs.cols());
    A.selfadjointView<Eigen::Lower>().rankUpdate(Xs.transpose());
    A.diagonal().array() += p.alpha;
    return solve_lower(A, Xs.transpose() * p.sqrt_s.cwiseProduct(p.yc));
}

Vector dual_dense(const RidgeProblem& p) {
    const DenseMatrix Xs = scaled_centered(p);
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(Xs.rows(), Xs.rows());
    K.selfadjointView<Eigen::Lower>().rankUpdate(Xs);
    K.diagonal().array() += p.alpha;
    const Vector a = solve_lower(K, p.sqrt_s.cwiseProduct(p.yc));
    return Xs.transpose() * a;
}

// Σ s_i x_i x_iᵀ - S x̄x̄ᵀ from the non-zeros only (lower triangle): X is never densified.
Vector primal_sparse(const RidgeProblem& p) {
    SparseMatrix X = p.X.sparse_ref();
    X.makeCompressed();
    const Index d = X.cols();
    const int* outer = X.outerIndexPtr();
    const int* inner = X.innerIndexPtr();
    const double* val = X.valuePtr();
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(d, d);
    for (Index i = 0; i < X.rows(); ++i) {
        for (int a = outer[i]; a < outer[i + 1]; ++a) {
            const double sa = p.s[i] * val[a];
            for (int b = outer[i]; b <= a; ++b) {
                const int hi = std::max(inner[a], inner[b]), lo = std::min(inner[a], inner[b]);
                A(hi, lo) += sa * val[b];
            }
        }
    }
    if (p.centered) A.noalias() -= p.s.sum() * (p.x_mean * p.x_mean.transpose());
    A.diagonal().array() += p.alpha;
    // Σ s_i x̄ yc_i = 0, so Xᵀ(s∘yc) is already the centred right-hand side.
    return solve_lower(A, X.transpose() * p.s.cwiseProduct(p.yc));
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

}  // namespace

void RidgeRegression::do_fit(const Dataset& data, const Context& /*ctx*/) {
    if (data.task != Task::regression)
        throw UsageError("ridge: learns regression only (for classification use logistic)");
    const Params& prm = params();
    const bool centered = get_bool(prm, "fit_intercept");
    const std::string solver = get_string(prm, "solver");
    const Index n = data.rows(), d = data.cols();

    RidgeProblem p{data.X,
                   data.has_weights() ? data.weights : Vector::Ones(n),
                   {},
                   Vector::Zero(d),
                   data.y,
                   centered,
                   get_real(prm, "alpha")};
    p.sqrt_s = p.s.cwiseSqrt();
    const double total = p.s.sum();
    if (!(total > 0)) throw DataError("ridge: the sample weights sum to zero");
    double y_mean = 0;
    if (centered) {
        p.x_mean = data.X.transpose_multiply(p.s) / total;
        y_mean = p.s.dot(data.y) / total;
        p.yc.array() -= y_mean;
    }

    const bool dual = solver == "dual" || (solver == "auto" && d > n);
    if (data.X.is_sparse())
        coef_ = dual ? dual_sparse(p) : primal_sparse(p);
    else
        coef_ = dual ? dual_dense(p) : primal_dense(p);
    intercept_ = centered ? y_mean - p.x_mean.dot(coef_) : 0.0;
    require_finite(coef_.transpose(), Vector::Constant(1, intercept_), "ridge");
}

Vector RidgeRegression::do_predict(const Features& X) const {
    Vector out = X.multiply(coef_);
    out.array() += intercept_;
    return out;
}

Json RidgeRegression::do_save_state() const {
    return Json{{"coef", vector_to_json(coef_)}, {"intercept", intercept_}};
}

void RidgeRegression::do_load_state(const Json& state) {
    if (!state.is_object() || !state.contains("coef") || !state.contains("intercept"))
        throw std::runtime_error("ridge state needs \"coef\" and \"intercept\"");
    Vector coef = vector_from_json(state.at("coef"), "ridge coef", n_features() > 0 ? n_features() : -1);
    const Vector intercept = vector_from_json(Json::array({state.at("intercept")}), "ridge intercept", 1);
    coef_ = std::move(coef);
    intercept_ = intercept[0];
}

ModelInfo ridge_model_info() {
    ModelInfo info;
    info.name = "ridge";
    info.summary = "ridge regression (L2-penalised least squares), closed form, primal or dual";
    info.spec = ParamSpec{
        real_param("alpha", 1.0, "weight of the penalty alpha*||w||² (0 = ordinary least squares)")
            .range(0.0, std::nullopt)
            .like("scikit-learn Ridge(alpha=...)"),
        bool_param("fit_intercept", true, "learn an unpenalised intercept (centres X and y)")
            .like("scikit-learn Ridge(fit_intercept=...)"),
        choice_param("solver", "auto", {"auto", "cholesky", "dual"},
                     "cholesky: d x d normal equations; dual: n x n Gram system; auto: dual when d > n")
            .like("scikit-learn Ridge(solver='cholesky')"),
    };
    info.tasks = {Task::regression};
    info.factory = [] { return std::make_unique<RidgeRegression>(); };
    return info;
}

}  // namespace kestrel
