#include "kestrel/optim/l1_linear_lp.hpp"

#include <climits>
#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/optim/lp_solver.hpp"

namespace kestrel {
namespace {

// Appends row i's non-zeros to the LP's column i in ascending feature order. Dense and
// sparse rows give the same column (exact zeros skipped), hence the same solution.
void append_row(const Features& X, Index i, double s, LinearProgram& lp) {
    if (X.is_sparse()) {
        for (SparseMatrix::InnerIterator it(X.sparse_ref(), i); it; ++it)
            if (it.value() != 0) {
                lp.row_index.push_back(static_cast<int>(it.index()));
                lp.value.push_back(s * it.value());
            }
    } else {
        const DenseView D = X.dense_ref();
        for (Index j = 0; j < D.cols(); ++j)
            if (D(i, j) != 0) {
                lp.row_index.push_back(static_cast<int>(j));
                lp.value.push_back(s * D(i, j));
            }
    }
}

}  // namespace

L1LinearFit solve_l1_linear_lp(const L1LinearLp& p, long long max_iter, const std::string& owner) {
    const Index n = p.X.rows(), d = p.X.cols();
    if (p.gain.size() != n || p.lower.size() != n || p.upper.size() != n || (p.sign.size() != 0 && p.sign.size() != n))
        throw InternalError("solve_l1_linear_lp: vectors of the wrong length");
    if (n >= INT_MAX || d >= INT_MAX) throw DataError(owner + ": too many samples or features for the LP solver");

    // The duals scale with the costs: solving with gains of largest magnitude 1 keeps
    // CLP's absolute tolerances meaningful whatever the units of y.
    const double g_scale = p.gain.size() > 0 && p.gain.cwiseAbs().maxCoeff() > 0 ? p.gain.cwiseAbs().maxCoeff() : 1.0;
    if (!std::isfinite(g_scale)) throw DataError(owner + ": the targets are not finite");

    LinearProgram lp;
    lp.rows = d + (p.intercept ? 1 : 0);
    lp.cols = n;
    lp.col_start.reserve(static_cast<std::size_t>(n) + 1);
    lp.cost.resize(static_cast<std::size_t>(n));
    lp.col_lower.assign(p.lower.data(), p.lower.data() + n);
    lp.col_upper.assign(p.upper.data(), p.upper.data() + n);
    const SparseMatrix* sp = p.X.is_sparse() ? &p.X.sparse_ref() : nullptr;
    const std::size_t nnz_guess = static_cast<std::size_t>(sp ? sp->nonZeros() : n * d) + static_cast<std::size_t>(n);
    lp.row_index.reserve(nnz_guess);
    lp.value.reserve(nnz_guess);
    for (Index i = 0; i < n; ++i) {
        const double s = p.sign.size() ? p.sign[i] : 1.0;
        append_row(p.X, i, s, lp);
        if (p.intercept) {
            lp.row_index.push_back(static_cast<int>(d));
            lp.value.push_back(s);
        }
        if (lp.value.size() >= static_cast<std::size_t>(INT_MAX))
            throw DataError(owner + ": too many non-zeros for the LP solver");
        lp.col_start.push_back(static_cast<int>(lp.value.size()));
        lp.cost[static_cast<std::size_t>(i)] = -p.gain[i] / g_scale;  // CLP minimises
    }
    lp.row_lower.assign(static_cast<std::size_t>(lp.rows), -p.lambda);
    lp.row_upper.assign(static_cast<std::size_t>(lp.rows), p.lambda);
    if (p.intercept) lp.row_lower.back() = lp.row_upper.back() = 0.0;

    LpOptions opts;
    opts.max_iter = max_iter;
    opts.owner = owner;
    const LpSolution sol = solve_lp(lp, opts);

    L1LinearFit fit;
    // + 0.0 turns the -0 of a zero dual into 0 (a cleaner model file).
    fit.w = (-g_scale * sol.row_duals.head(d)).array() + 0.0;
    fit.b = p.intercept ? -g_scale * sol.row_duals[d] + 0.0 : 0.0;
    fit.objective = -g_scale * sol.objective;
    fit.iterations = sol.iterations;
    fit.optimal = sol.optimal;
    fit.message = sol.message;
    return fit;
}

}  // namespace kestrel
