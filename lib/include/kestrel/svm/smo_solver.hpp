#pragma once
// Sequential minimal optimization for the SVM duals (Fan, Chen & Lin 2005; Chang &
// Lin, "LIBSVM: a library for support vector machines", 2011):
//
//     min_α ½ αᵀQα + pᵀα   subject to  yᵀα = Δ,  0 <= α_i <= C_i,  y_i = ±1,
//
// with second-order working-set selection, shrinking (with gradient reconstruction)
// and an LRU cache of Q's columns (in the QMatrix). The nu variant handles the two
// equality constraints Σ_{y=+1} α_i = Δ₊, Σ_{y=-1} α_i = Δ₋ of nu-SVC and nu-SVR.
#include <cstdint>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/svm/q_matrix.hpp"

namespace kestrel {

struct SmoProblem {
    Vector p;                   // linear term
    std::vector<std::int8_t> y; // ±1
    Vector upper;               // C_i > 0
    Vector alpha;               // a feasible starting point (its yᵀα fixes Δ)
};

struct SmoOptions {
    double eps = 1e-3;          // stopping tolerance on the maximal violating pair
    bool shrinking = true;
    long long max_iter = 0;     // 0 = max(10^7, 100 l), as LIBSVM
};

struct SmoResult {
    Vector alpha;               // in the problem's order
    double rho = 0;             // decision function is Σ y_i α_i K(x_i, x) - rho
    double r = 0;               // nu variant: the scale of the margin (LIBSVM's r)
    double objective = 0;
    long long iterations = 0;
    bool reached_max_iter = false;
    Vector gradient;            // ∇ = Qα + p at the solution, in the problem's order
};

// Solves the problem; Q must be size() == p.size(). A solver stopped by max_iter
// warns through ctx and still returns its current (feasible) point.
SmoResult solve_smo(QMatrix& Q, const SmoProblem& problem, const SmoOptions& options, const Context& ctx);
SmoResult solve_smo_nu(QMatrix& Q, const SmoProblem& problem, const SmoOptions& options, const Context& ctx);

}  // namespace kestrel
