#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/optim/tron.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_optim_tron_test {

using namespace kestrel;

namespace {

// f(w) = ½ wᵀAw − bᵀw with A = [[4,1],[1,3]], b = (1,2): minimiser A⁻¹b = (1/11, 7/11).
class Quadratic : public Objective {
public:
    Index dimension() const override { return 2; }
    double value_gradient(const Vector& w, Vector& grad) override {
        grad = A() * w - b();
        return 0.5 * w.dot(A() * w) - b().dot(w);
    }
    bool has_hessian_vector() const override { return true; }
    void hessian_vector(const Vector& v, Vector& out) const override {
        out = A() * v;
        ++products;
    }
    mutable int products = 0;

private:
    static Eigen::Matrix2d A() {
        Eigen::Matrix2d a;
        a << 4, 1, 1, 3;
        return a;
    }
    static Eigen::Vector2d b() { return {1, 2}; }
};

// Rosenbrock with its exact Hessian: non-convex, so CG meets negative curvature on the way.
class Rosenbrock : public Objective {
public:
    Index dimension() const override { return 2; }
    double value_gradient(const Vector& w, Vector& grad) override {
        at_ = w;
        const double a = 1 - w[0], b = w[1] - w[0] * w[0];
        grad.resize(2);
        grad << -2 * a - 400 * w[0] * b, 200 * b;
        return a * a + 100 * b * b;
    }
    bool has_hessian_vector() const override { return true; }
    void hessian_vector(const Vector& v, Vector& out) const override {
        Eigen::Matrix2d H;
        H << 2 - 400 * (at_[1] - 3 * at_[0] * at_[0]), -400 * at_[0], -400 * at_[0], 200;
        out = H * v;
    }

private:
    Vector at_;
};

class NoHessian : public Objective {
public:
    Index dimension() const override { return 1; }
    double value_gradient(const Vector& w, Vector& grad) override {
        grad = w;
        return 0.5 * w.squaredNorm();
    }
};

}  // namespace

TEST_SUITE("optim") {
    TEST_CASE("tron: quadratic to its closed-form minimiser in one Newton step") {
        Quadratic f;
        TronOptions opts;
        opts.tol = 1e-12;
        opts.cg_tol = 1e-14;
        const SolverResult r = minimize_tron(f, Vector::Zero(2), opts);
        CHECK(r.converged);
        CHECK(r.message.empty());
        CHECK(r.w[0] == doctest::Approx(1.0 / 11.0).epsilon(1e-12));
        CHECK(r.w[1] == doctest::Approx(7.0 / 11.0).epsilon(1e-12));
        CHECK(r.initial_grad_norm == doctest::Approx(std::sqrt(5.0)));
        CHECK(r.iterations <= 2);  // the first step is clipped by the initial radius ‖g₀‖ at most once
        CHECK(f.products <= 6);    // CG in 2 dimensions: 2 products per Newton step
    }

    TEST_CASE("tron: Rosenbrock from (-1.2, 1) to (1, 1)") {
        Rosenbrock f;
        TronOptions opts;
        opts.tol = 1e-10;
        const SolverResult r = minimize_tron(f, Vector{{-1.2, 1.0}}, opts);
        CHECK(r.converged);
        CHECK(r.w[0] == doctest::Approx(1.0).epsilon(1e-7));
        CHECK(r.w[1] == doctest::Approx(1.0).epsilon(1e-7));
        CHECK(r.value < 1e-14);
    }

    TEST_CASE("tron: max_iter gives a usable, non-converged result with a message; no Hessian is refused") {
        Rosenbrock f;
        TronOptions opts;
        opts.max_iter = 2;
        opts.tol = 1e-12;
        const SolverResult r = minimize_tron(f, Vector{{-1.2, 1.0}}, opts);
        CHECK_FALSE(r.converged);
        CHECK(r.iterations == 2);
        CHECK(r.message.find("max_iter") != std::string::npos);
        CHECK(r.value < 24.2);  // f(-1.2, 1) = 24.2: it went downhill
        NoHessian g;
        CHECK_THROWS_AS(minimize_tron(g, Vector::Ones(1), TronOptions{}), InternalError);
    }

}  // TEST_SUITE

}  // namespace unit_optim_tron_test
}  // namespace
