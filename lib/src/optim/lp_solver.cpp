#include "kestrel/optim/lp_solver.hpp"

#include <Clp_C_Interface.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <memory>

#include "kestrel/core/error.hpp"
#include "kestrel/core/shared_library.hpp"

namespace kestrel {
namespace {

// CLP through its C interface, loaded on first use (core/shared_library.hpp says why).
struct Clp {
    decltype(&::Clp_newModel) new_model;
    decltype(&::Clp_deleteModel) delete_model;
    decltype(&::Clp_setLogLevel) set_log_level;
    decltype(&::Clp_loadProblem) load_problem;
    decltype(&::Clp_setMaximumIterations) set_maximum_iterations;
    decltype(&::Clp_dual) dual;
    decltype(&::Clp_primal) primal;
    decltype(&::Clp_numberIterations) number_iterations;
    decltype(&::Clp_status) status;
    decltype(&::Clp_primalColumnSolution) primal_column_solution;
    decltype(&::Clp_dualRowSolution) dual_row_solution;
    decltype(&::Clp_objectiveValue) objective_value;
};

Clp load_clp() {
    const SharedLibrary lib("libClp.so.1", "the LP solver (lad, quantile, lp_svm)", "coinor-libclp1");
    Clp c{};
    lib.bind(c.new_model, "Clp_newModel");
    lib.bind(c.delete_model, "Clp_deleteModel");
    lib.bind(c.set_log_level, "Clp_setLogLevel");
    lib.bind(c.load_problem, "Clp_loadProblem");
    lib.bind(c.set_maximum_iterations, "Clp_setMaximumIterations");
    lib.bind(c.dual, "Clp_dual");
    lib.bind(c.primal, "Clp_primal");
    lib.bind(c.number_iterations, "Clp_numberIterations");
    lib.bind(c.status, "Clp_status");
    lib.bind(c.primal_column_solution, "Clp_primalColumnSolution");
    lib.bind(c.dual_row_solution, "Clp_dualRowSolution");
    lib.bind(c.objective_value, "Clp_objectiveValue");
    return c;
}

const Clp& clp() {
    static const Clp loaded = load_clp();
    return loaded;
}

// CLP reads any bound beyond COIN_DBL_MAX (= DBL_MAX) as infinite; ±infinity itself
// would leak into its arithmetic.
std::vector<double> clp_bounds(const std::vector<double>& b) {
    constexpr double kMax = std::numeric_limits<double>::max();
    std::vector<double> out(b);
    for (double& v : out) v = std::clamp(v, -kMax, kMax);
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
    const Clp& api = clp();
    const std::unique_ptr<Clp_Simplex, decltype(api.delete_model)> owned(api.new_model(), api.delete_model);
    Clp_Simplex* model = owned.get();
    // CLP reports through its message handler; at level 0 it prints nothing.
    api.set_log_level(model, 0);
    const std::vector<double> cl = clp_bounds(lp.col_lower), cu = clp_bounds(lp.col_upper);
    const std::vector<double> rl = clp_bounds(lp.row_lower), ru = clp_bounds(lp.row_upper);
    const std::vector<CoinBigIndex> start(lp.col_start.begin(), lp.col_start.end());
    api.load_problem(model, static_cast<int>(lp.cols), static_cast<int>(lp.rows), start.data(), lp.row_index.data(),
                     lp.value.data(), cl.data(), cu.data(), lp.cost.data(), rl.data(), ru.data());
    api.set_maximum_iterations(model, static_cast<int>(std::min<long long>(opts.max_iter, INT_MAX)));
    if (opts.algorithm == LpAlgorithm::dual_simplex)
        api.dual(model, 0);
    else
        api.primal(model, 0);

    LpSolution out;
    out.iterations = api.number_iterations(model);
    const int status = api.status(model);
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
    out.x = Eigen::Map<const Vector>(api.primal_column_solution(model), lp.cols);
    out.row_duals = Eigen::Map<const Vector>(api.dual_row_solution(model), lp.rows);
    out.objective = api.objective_value(model);
    if (!out.x.allFinite() || !out.row_duals.allFinite() || !std::isfinite(out.objective))
        throw DataError(opts.owner + ": the LP solver produced non-finite values (scale the features or the target)");
    return out;
}

}  // namespace kestrel
