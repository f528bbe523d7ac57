#include "kestrel/optim/lp_solver.hpp"

#include <ClpSimplex.hpp>
#include <CoinFinite.hpp>
#include <algorithm>
#include <climits>
#include <cmath>

#include "kestrel/core/error.hpp"

namespace kestrel {
namespace {

// CLP reads any bound beyond COIN_DBL_MAX as infinite; ±infinity itself would leak
// into its arithmetic.
std::vector<double> clp_bounds(const std::vector<double>& b) {
    std::vector<double> out(b);
    for (double& v : out) v = std::clamp(v, -COIN_DBL_MAX, COIN_DBL_MAX);
    return out;
}

void check_shape(const LinearProgram& lp) {
    const auto cols = static_cast<std::size_t>(lp.cols), rows = static_cast<std::size_t>(lp.rows);
    if (lp.col_start.size() != cols + 1 || lp.cost.size() != cols || lp.col_lower.size() != cols ||
        lp.col_upper.size() != cols || lp.row_lower.size() != rows || lp.row_upper.size() != rows ||
        lp.row_index.size() != lp.value.size() || static_cast<std::size_t>(lp.col_start.back()) != lp.value.size())
        throw InternalError("solve_lp: inconsistent linear program");
    if (lp.rows > INT_MAX || lp.cols > INT_MAX) throw InternalError("solve_lp: the linear program is too large");
}

}  // namespace

LpSolution solve_lp(const LinearProgram& lp, const LpOptions& opts) {
    check_shape(lp);
    ClpSimplex model;
    // CLP reports through its message handler; at level 0 it prints nothing.
    model.setLogLevel(0);
    const std::vector<double> cl = clp_bounds(lp.col_lower), cu = clp_bounds(lp.col_upper);
    const std::vector<double> rl = clp_bounds(lp.row_lower), ru = clp_bounds(lp.row_upper);
    const std::vector<CoinBigIndex> start(lp.col_start.begin(), lp.col_start.end());
    model.loadProblem(static_cast<int>(lp.cols), static_cast<int>(lp.rows), start.data(), lp.row_index.data(),
                      lp.value.data(), cl.data(), cu.data(), lp.cost.data(), rl.data(), ru.data());
    model.setMaximumIterations(static_cast<int>(std::min<long long>(opts.max_iter, INT_MAX)));
    if (opts.algorithm == LpAlgorithm::dual_simplex)
        model.dual();
    else
        model.primal();

    LpSolution out;
    out.iterations = model.numberIterations();
    const int status = model.status();
    switch (status) {
        case 0:
            out.optimal = true;
            break;
        case 1:
            throw DataError(opts.owner + ": the linear program is infeasible (numerical trouble: scale the features)");
        case 2:
            throw DataError(opts.owner + ": the linear program is unbounded (numerical trouble: scale the features)");
        case 3:
            out.message = "the simplex method reached max_iter=" + std::to_string(opts.max_iter) + " iterations";
            break;
        default:
            throw DataError(opts.owner +
                            ": the LP solver gave up on numerical difficulties (scale the features or the target)");
    }
    out.x = Eigen::Map<const Vector>(model.primalColumnSolution(), lp.cols);
    out.row_duals = Eigen::Map<const Vector>(model.dualRowSolution(), lp.rows);
    out.objective = model.objectiveValue();
    if (!out.x.allFinite() || !out.row_duals.allFinite() || !std::isfinite(out.objective))
        throw DataError(opts.owner + ": the LP solver produced non-finite values (scale the features or the target)");
    return out;
}

}  // namespace kestrel
