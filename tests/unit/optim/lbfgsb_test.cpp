#include <doctest/doctest.h>

#include <limits>

#include "kestrel/optim/lbfgsb.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_optim_lbfgsb_test {

using namespace kestrel;

namespace {

// f(x) = Σ_j c_j (x_j - t_j)², an ill-conditioned bowl whose centre lies outside the box.
class Bowl : public Objective {
public:
    Index dimension() const override { return 3; }
    double value_gradient(const Vector& x, Vector& grad) override {
        const Vector c{{1.0, 100.0, 0.01}}, t{{2.0, -1.0, 5.0}};
        grad = 2 * c.cwiseProduct(x - t);
        return c.dot((x - t).cwiseAbs2());
    }
};

}  // namespace

TEST_SUITE("optim") {

TEST_CASE("minimize_lbfgsb: the box-constrained minimum of a quadratic, bounds active and inactive") {
    Bowl f;
    const double inf = std::numeric_limits<double>::infinity();
    const Vector lower{{-inf, 0.0, -inf}}, upper{{1.0, inf, inf}};
    BoundedSolverOptions opts;
    opts.tol = 1e-10;
    const SolverResult r = minimize_lbfgsb(f, Vector::Zero(3), lower, upper, opts);
    CHECK(r.converged);
    CHECK(r.w[0] == doctest::Approx(1.0).epsilon(1e-12));  // upper bound active
    CHECK(std::abs(r.w[1]) < 1e-12);                       // lower bound active
    CHECK(r.w[2] == doctest::Approx(5.0).epsilon(1e-8));   // free
    Vector g;
    f.value_gradient(r.w, g);
    CHECK(projected_gradient_norm(r.w, g, lower, upper) <= 1e-8);
}

TEST_CASE("minimize_lbfgsb: max_iter stops it unconverged, at a point no worse than the start") {
    Bowl f;
    const double inf = std::numeric_limits<double>::infinity();
    BoundedSolverOptions opts;
    opts.tol = 1e-12;
    opts.max_iter = 1;
    const SolverResult r =
        minimize_lbfgsb(f, Vector::Zero(3), Vector::Constant(3, -inf), Vector::Constant(3, inf), opts);
    CHECK_FALSE(r.converged);
    CHECK(r.message.find("max_iter=1") != std::string::npos);
    Vector g;
    CHECK(r.value <= f.value_gradient(Vector::Zero(3), g));
}

}  // TEST_SUITE

}  // namespace unit_optim_lbfgsb_test
}  // namespace
