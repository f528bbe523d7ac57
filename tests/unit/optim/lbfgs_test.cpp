#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/optim/lbfgs.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_optim_lbfgs_test {

using namespace kestrel;

namespace {

// f(w) = ½ wᵀAw - bᵀw with A = [[4,1],[1,3]], b = (1,2): minimiser A⁻¹b = (1/11, 7/11).
class Quadratic : public Objective {
public:
    Index dimension() const override { return 2; }
    double value_gradient(const Vector& w, Vector& grad) override {
        Eigen::Matrix2d A;
        A << 4, 1, 1, 3;
        const Eigen::Vector2d b(1, 2);
        grad = A * w - b;
        return 0.5 * w.dot(A * w) - b.dot(w);
    }
};

class Rosenbrock : public Objective {
public:
    Index dimension() const override { return 2; }
    double value_gradient(const Vector& w, Vector& grad) override {
        const double a = 1 - w[0], b = w[1] - w[0] * w[0];
        grad.resize(2);
        grad << -2 * a - 400 * w[0] * b, 200 * b;
        return a * a + 100 * b * b;
    }
};

// Claims an uphill gradient: no step along -grad decreases f, so the line search fails.
class Liar : public Objective {
public:
    Index dimension() const override { return 1; }
    double value_gradient(const Vector& w, Vector& grad) override {
        grad = -w;
        return w.squaredNorm();
    }
};

}  // namespace

TEST_SUITE("optim") {

TEST_CASE("lbfgs: quadratic to its closed-form minimiser") {
    Quadratic f;
    SolverOptions opts;
    opts.tol = 1e-12;
    const SolverResult r = minimize_lbfgs(f, Vector::Zero(2), opts);
    CHECK(r.converged);
    CHECK(r.message.empty());
    CHECK(r.w[0] == doctest::Approx(1.0 / 11.0).epsilon(1e-10));
    CHECK(r.w[1] == doctest::Approx(7.0 / 11.0).epsilon(1e-10));
    CHECK(r.initial_grad_norm == doctest::Approx(std::sqrt(5.0)));
    CHECK(r.grad_norm <= 1e-12 * std::sqrt(5.0));
}

TEST_CASE("lbfgs: Rosenbrock from (-1.2, 1)") {
    Rosenbrock f;
    SolverOptions opts;
    opts.tol = 1e-10;
    const SolverResult r = minimize_lbfgs(f, Vector{{-1.2, 1.0}}, opts);
    CHECK(r.converged);
    CHECK(r.w[0] == doctest::Approx(1.0).epsilon(1e-8));
    CHECK(r.w[1] == doctest::Approx(1.0).epsilon(1e-8));
    CHECK(r.iterations > 10);
}

TEST_CASE("lbfgs: max_iter reached is reported, with the best point so far") {
    Rosenbrock f;
    SolverOptions opts;
    opts.max_iter = 3;
    Vector g;
    const Vector w0{{-1.2, 1.0}};
    const double f0 = f.value_gradient(w0, g);
    const SolverResult r = minimize_lbfgs(f, w0, opts);
    CHECK_FALSE(r.converged);
    CHECK(r.iterations == 3);
    CHECK(r.message.find("max_iter=3") != std::string::npos);
    CHECK(r.value < f0);
    CHECK(r.value == f.value_gradient(r.w, g));
}

TEST_CASE("lbfgs: a start at the optimum returns at once") {
    Quadratic f;
    const SolverResult r = minimize_lbfgs(f, Vector{{1.0 / 11.0, 7.0 / 11.0}}, SolverOptions{});
    CHECK(r.converged);
    CHECK(r.w == Vector{{1.0 / 11.0, 7.0 / 11.0}});
}

TEST_CASE("lbfgs: a failed line search away from the optimum is not convergence") {
    Liar f;
    const SolverResult r = minimize_lbfgs(f, Vector{{2.0}}, SolverOptions{});
    CHECK_FALSE(r.converged);
    CHECK(r.message.find("line search") != std::string::npos);
    CHECK(r.w == Vector{{2.0}});  // the best point seen is the start
    CHECK(r.value == 4.0);
}

}  // TEST_SUITE

}  // namespace unit_optim_lbfgs_test
}  // namespace
