#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/optim/lp_solver.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_optim_lp_solver_test {

using namespace kestrel;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// max 3x + 2y s.t. x + y <= 4, x + 3y <= 9, 0 <= x <= 3, y >= 0: optimum at (3, 1), value 11,
// x at its bound and y basic; the row duals of min -3x - 2y solve -2 = π₁ + 3π₂ with π₂ = 0
// (x + 3y = 6 is slack): π = (-2, 0).
LinearProgram textbook() {
    LinearProgram lp;
    lp.rows = 2;
    lp.cols = 2;
    lp.col_start = {0, 2, 4};
    lp.row_index = {0, 1, 0, 1};
    lp.value = {1, 1, 1, 3};
    lp.cost = {-3, -2};
    lp.col_lower = {0, 0};
    lp.col_upper = {3, inf};
    lp.row_lower = {-inf, -inf};
    lp.row_upper = {4, 9};
    return lp;
}

}  // namespace

TEST_SUITE("optim") {

TEST_CASE("solve_lp: a hand-solved LP, by dual and by primal simplex") {
    for (LpAlgorithm a : {LpAlgorithm::dual_simplex, LpAlgorithm::primal_simplex}) {
        LpOptions opts;
        opts.algorithm = a;
        const LpSolution s = solve_lp(textbook(), opts);
        CHECK(s.optimal);
        CHECK(s.objective == doctest::Approx(-11.0).epsilon(1e-12));
        CHECK(s.x[0] == doctest::Approx(3.0).epsilon(1e-12));
        CHECK(s.x[1] == doctest::Approx(1.0).epsilon(1e-12));
        CHECK(s.row_duals[0] == doctest::Approx(-2.0).epsilon(1e-12));
        CHECK(std::abs(s.row_duals[1]) < 1e-12);
    }
}

TEST_CASE("solve_lp: infeasible and unbounded problems are DataErrors naming the owner") {
    LinearProgram infeasible = textbook();
    infeasible.row_lower[0] = 5;  // x + y >= 5 and x + y <= 4
    LpOptions opts;
    opts.owner = "quantile";
    CHECK_THROWS_WITH_AS(solve_lp(infeasible, opts), doctest::Contains("quantile: the linear program is infeasible"),
                         DataError);
    LinearProgram unbounded = textbook();
    unbounded.row_upper = {inf, inf};
    unbounded.col_upper = {inf, inf};
    CHECK_THROWS_WITH_AS(solve_lp(unbounded, opts), doctest::Contains("quantile: the linear program is unbounded"),
                         DataError);
}

TEST_CASE("solve_lp: the iteration limit gives a finite, non-optimal result with a message") {
    LinearProgram lp = textbook();
    LpOptions opts;
    opts.max_iter = 1;
    opts.algorithm = LpAlgorithm::primal_simplex;
    const LpSolution s = solve_lp(lp, opts);
    CHECK_FALSE(s.optimal);
    CHECK(s.message.find("max_iter=1") != std::string::npos);
    CHECK(s.x.allFinite());
}

TEST_CASE("solve_lp: an inconsistent program is an internal error") {
    LinearProgram lp = textbook();
    lp.cost.pop_back();
    CHECK_THROWS_AS(solve_lp(lp, LpOptions{}), InternalError);
}

}  // TEST_SUITE

}  // namespace unit_optim_lp_solver_test
}  // namespace
