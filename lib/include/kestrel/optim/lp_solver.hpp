#pragma once
// A linear program and its simplex solution, on top of COIN-OR CLP (kept out of the
// public headers): min cᵀx s.t. row_lower <= A x <= row_upper, col_lower <= x <= col_upper,
// A given column-wise. Infinite bounds are ±infinity.
#include <string>
#include <vector>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

struct LinearProgram {
    Index rows = 0;
    Index cols = 0;
    // A in compressed-column form: column j holds entries col_start[j] .. col_start[j+1]-1.
    std::vector<int> col_start{0};
    std::vector<int> row_index;
    std::vector<double> value;
    std::vector<double> cost, col_lower, col_upper;  // one per column
    std::vector<double> row_lower, row_upper;        // one per row
};

enum class LpAlgorithm { dual_simplex, primal_simplex };

struct LpOptions {
    LpAlgorithm algorithm = LpAlgorithm::dual_simplex;
    long long max_iter = 1000000;  // simplex iterations
    std::string owner = "lp";      // the model, named in messages
};

struct LpSolution {
    Vector x;          // the columns' values
    Vector row_duals;  // ∂(optimal cost)/∂(row bound), CLP's sign convention for minimisation
    double objective = 0;
    long long iterations = 0;
    bool optimal = false;  // false: stopped at max_iter; x and row_duals are the last basis' values
    std::string message;   // why it is not optimal
};

// Solves `lp` silently (CLP's own logging is off). An infeasible or unbounded problem,
// or one CLP abandons on numerical trouble, is a DataError naming opts.owner; reaching
// max_iter is not an error: the result says optimal = false and the caller warns.
LpSolution solve_lp(const LinearProgram& lp, const LpOptions& opts);

}  // namespace kestrel
