#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/kernel_methods/spd_solve.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_kernel_methods_spd_solve_test {

using namespace kestrel;

namespace {

// A = B Bᵀ / d + shift I with B_ij = sin(0.37 i + 1.1 j) + cos(0.05 i j): SPD, smallest
// eigenvalue >= shift, and 700 rows span three 256-row tiles (so the panel solves and
// trailing updates run in parallel).
DenseMatrix spd(Index n, double shift) {
    const Index d = n / 2;
    Eigen::MatrixXd B(n, d);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < d; ++j)
            B(i, j) = std::sin(0.37 * static_cast<double>(i) + 1.1 * static_cast<double>(j)) +
                      std::cos(0.05 * static_cast<double>(i * j));
    DenseMatrix A = B * B.transpose() / static_cast<double>(d);
    A.diagonal().array() += shift;
    return A;
}

Vector rhs(Index n) {
    Vector b(n);
    for (Index i = 0; i < n; ++i) b[i] = std::cos(0.3 * static_cast<double>(i));
    return b;
}

}  // namespace

TEST_SUITE("kernel_methods") {

TEST_CASE("spd_solve: tiled Cholesky in double and single precision, bit-identical at 1 and 2 threads") {
    const DenseMatrix A = spd(700, 1.0);
    DenseMatrix L1 = A, L2 = A;
    REQUIRE(cholesky_in_place(L1, 1));
    REQUIRE(cholesky_in_place(L2, 2));
    CHECK(L1.triangularView<Eigen::Lower>().toDenseMatrix() == L2.triangularView<Eigen::Lower>().toDenseMatrix());
    const Eigen::MatrixXd L = L1.triangularView<Eigen::Lower>();
    CHECK((L * L.transpose() - Eigen::MatrixXd(A)).cwiseAbs().maxCoeff() < 1e-12 * A.cwiseAbs().maxCoeff());
    const Vector b = rhs(700);
    const Vector x = cholesky_solve(L1, b);
    CHECK((A * x - b).norm() < 1e-12 * b.norm());

    FloatMatrix F1 = lower_to_float(A, 1), F2 = lower_to_float(A, 2);
    CHECK(F1 == F2);
    CHECK(F1(3, 5) == 0.0f);  // the strict upper triangle is zero
    REQUIRE(cholesky_in_place(F1, 1));
    REQUIRE(cholesky_in_place(F2, 2));
    CHECK(F1 == F2);
    const Eigen::MatrixXd Lf = F1.cast<double>().triangularView<Eigen::Lower>();
    // Single precision: a backward error of a few float epsilons (6e-8) per entry.
    CHECK((Lf * Lf.transpose() - Eigen::MatrixXd(A)).cwiseAbs().maxCoeff() < 1e-5 * A.cwiseAbs().maxCoeff());
    const Vector xf = cholesky_solve_float(F1, b);
    CHECK((xf - x).norm() < 1e-4 * x.norm());
    CHECK((xf - x).norm() > 0);  // it is a single-precision solve
}

TEST_CASE("spd_solve: a matrix that is not positive definite is refused in either precision") {
    DenseMatrix A = spd(300, 1.0);
    A(290, 290) = -1.0;  // a negative pivot in the second tile
    DenseMatrix D = A;
    CHECK_FALSE(cholesky_in_place(D, 2));
    FloatMatrix F = lower_to_float(A, 2);
    CHECK_FALSE(cholesky_in_place(F, 2));
}

TEST_CASE("spd_solve: CG preconditioned by the single-precision factor reaches a double residual of 1e-12") {
    const DenseMatrix A = spd(700, 1e-3);  // condition number ~1e5
    const Vector b = rhs(700);
    FloatMatrix F = lower_to_float(A, 2);
    REQUIRE(cholesky_in_place(F, 2));
    auto apply = [&](const Vector& x) { return Vector(parallel_multiply(A, x, 2)); };
    auto precondition = [&](const Vector& r) { return cholesky_solve_float(F, r); };
    const Vector x0 = cholesky_solve_float(F, b);
    const CgResult r = preconditioned_cg(apply, precondition, b, x0, 1e-12, 30, 3);
    CHECK(r.converged);
    CHECK(r.iterations <= 10);
    CHECK(r.relative_residual <= 1e-12);
    CHECK((A * r.x - b).norm() <= 1e-12 * b.norm());
    DenseMatrix L = A;
    REQUIRE(cholesky_in_place(L, 2));
    const Vector exact = cholesky_solve(L, b);
    CHECK((r.x - exact).norm() < 1e-9 * exact.norm());

    // A useless preconditioner (the identity) on the same system stalls or runs out of
    // iterations: not converged, and the residual it reports is the true one.
    const CgResult poor = preconditioned_cg(apply, [](const Vector& v) { return v; }, b, Vector(), 1e-12, 8, 3);
    CHECK_FALSE(poor.converged);
    CHECK(poor.iterations <= 8);
    CHECK(poor.relative_residual == doctest::Approx((A * poor.x - b).norm() / b.norm()).epsilon(1e-6));
    CHECK(poor.relative_residual > 1e-12);
}

}  // TEST_SUITE

}  // namespace unit_kernel_methods_spd_solve_test
}  // namespace
