#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/optim/logistic_objective.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_logistic_objective_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

// 7 rows x 3 features of fixed, unremarkable values (no randomness needed).
DenseMatrix small_X() {
    DenseMatrix X(7, 3);
    for (Index i = 0; i < 7; ++i)
        for (Index j = 0; j < 3; ++j) X(i, j) = std::sin(1.3 * static_cast<double>(i) + 0.7 * static_cast<double>(j) + 0.2);
    X(2, 1) = 0.0;  // a structural zero for the sparse copy
    return X;
}

Vector cost_vector() { return Vector{{0.5, 1.0, 2.0, 0.0, 1.5, 0.7, 3.0}}; }

Vector point(Index n, double scale) {
    Vector w(n);
    for (Index j = 0; j < n; ++j) w[j] = scale * std::cos(0.9 * static_cast<double>(j) + 0.4);
    return w;
}

void check_gradient_and_hessian(Objective& f, const Vector& w) {
    Vector g;
    f.value_gradient(w, g);
    REQUIRE(g.size() == f.dimension());
    const Vector fd = central_difference_gradient(f, w);
    CHECK(relative_error(g, fd) < 1e-7);

    // value() alone agrees with value_gradient and leaves the Hessian's point where it was.
    Vector hv_before, hv_after;
    const Vector v0 = point(f.dimension(), 0.3);
    Vector g2;
    const double at_2w = f.value_gradient(2 * w, g2);
    f.value_gradient(w, g2);
    f.hessian_vector(v0, hv_before);
    CHECK(f.value(2 * w) == doctest::Approx(at_2w).epsilon(1e-15));
    f.hessian_vector(v0, hv_after);
    CHECK(hv_after == hv_before);

    // H v against the central difference of the gradient along v.
    const Vector v = point(f.dimension(), 0.8).reverse();
    const double h = 1e-6;
    Vector gp, gm, hv;
    f.value_gradient(w + h * v, gp);
    f.value_gradient(w - h * v, gm);
    f.value_gradient(w, g);  // the Hessian is taken at the last point evaluated
    f.hessian_vector(v, hv);
    CHECK(relative_error(hv, (gp - gm) / (2 * h)) < 1e-6);
}

}  // namespace

TEST_SUITE("linear") {

TEST_CASE("logistic objective: stable log(1+e^t) and sigmoid at the extremes") {
    CHECK(log1p_exp(800.0) == 800.0);
    CHECK(log1p_exp(-800.0) == 0.0);
    CHECK(log1p_exp(0.0) == doctest::Approx(std::log(2.0)).epsilon(1e-15));
    CHECK(log1p_exp(-40.0) == doctest::Approx(std::exp(-40.0)).epsilon(1e-15));
    CHECK(sigmoid(-800.0) == 0.0);
    CHECK(sigmoid(800.0) == 1.0);
    CHECK(sigmoid(-40.0) == doctest::Approx(std::exp(-40.0)).epsilon(1e-15));
}

TEST_CASE("logistic objective: the one-exp loss terms are log1p_exp(-t) and sigmoid(-t) bit for bit") {
    for (double t : {-800.0, -40.0, -3.5, -1e-300, -0.0, 0.0, 1e-300, 0.25, 2.0, 37.0, 800.0}) {
        CAPTURE(t);
        const LogisticLossTerms terms = logistic_loss_terms(t);
        CHECK(terms.loss == log1p_exp(-t));
        CHECK(terms.p_wrong == sigmoid(-t));
    }
}

// Rows over several of the sums' blocks (2048 rows each), the last one partial.
DenseMatrix tall_X(Index n, Index d) {
    DenseMatrix X(n, d);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < d; ++j)
            X(i, j) = std::sin(0.37 * static_cast<double>(i * (j + 1)) + 0.11 * static_cast<double>(j));
    return X;
}

TEST_CASE("logistic objective: dense sums have the same bits on 1, 2 and 3 threads") {
    const Index n = 5000, d = 6;
    const Features X(tall_X(n, d));
    Vector y(n), cost(n);
    for (Index i = 0; i < n; ++i) {
        y[i] = std::cos(1.7 * static_cast<double>(i)) > 0 ? 1.0 : -1.0;
        cost[i] = 0.5 + 0.25 * static_cast<double>(i % 3);
    }
    const Vector w = point(d + 1, 0.6), v = point(d + 1, 1.1).reverse();
    Vector g1, hv1;
    BinaryLogisticObjective one(X, y, cost, true, 1);
    const double f1 = one.value_gradient(w, g1);
    one.hessian_vector(v, hv1);
    for (int threads : {2, 3}) {
        CAPTURE(threads);
        BinaryLogisticObjective f(X, y, cost, true, threads);
        Vector g, hv;
        CHECK(f.value_gradient(w, g) == f1);
        CHECK(g == g1);
        f.hessian_vector(v, hv);
        CHECK(hv == hv1);
        CHECK(f.value(w) == one.value(w));
    }
    // The sparse path (Eigen's products, another order of additions) agrees to rounding.
    const Features sparse_X(SparseMatrix(tall_X(n, d).sparseView()));
    BinaryLogisticObjective sparse(sparse_X, y, cost, true);
    Vector gs, hvs;
    CHECK(sparse.value_gradient(w, gs) == doctest::Approx(f1).epsilon(1e-13));
    CHECK(relative_error(gs, g1) < 1e-12);
    sparse.hessian_vector(v, hvs);
    CHECK(relative_error(hvs, hv1) < 1e-12);
    check_gradient_and_hessian(one, w);
}

TEST_CASE("logistic objective: binary value at w = 0 is log 2 times the summed costs") {
    const Features X(small_X());
    const Vector y{{1, -1, 1, 1, -1, -1, 1}};
    BinaryLogisticObjective f(X, y, cost_vector(), true);
    Vector g;
    CHECK(f.value_gradient(Vector::Zero(4), g) == doctest::Approx(std::log(2.0) * cost_vector().sum()));
    // ∂f/∂b at 0 = Σ cost_i · (-y_i / 2)
    CHECK(g[3] == doctest::Approx(-0.5 * cost_vector().dot(y)));
}

TEST_CASE("logistic objective: binary gradient and Hessian-vector match central differences") {
    const Vector y{{1, -1, 1, 1, -1, -1, 1}};
    const Features dense(small_X());
    const Features sparse(SparseMatrix(small_X().sparseView()));
    for (bool intercept : {true, false}) {
        CAPTURE(intercept);
        BinaryLogisticObjective f(dense, y, cost_vector(), intercept);
        const Vector w = point(f.dimension(), 1.7);
        check_gradient_and_hessian(f, w);

        BinaryLogisticObjective fs(sparse, y, cost_vector(), intercept);
        Vector g, gs;
        CHECK(fs.value_gradient(w, gs) == doctest::Approx(f.value_gradient(w, g)).epsilon(1e-14));
        CHECK(relative_error(gs, g) < 1e-14);
    }
}

TEST_CASE("logistic objective: multinomial gradient and Hessian-vector match central differences") {
    const Vector y{{0, 2, 1, 1, 0, 2, 2}};
    const Features dense(small_X());
    const Features sparse(SparseMatrix(small_X().sparseView()));
    for (bool intercept : {true, false}) {
        CAPTURE(intercept);
        MultinomialLogisticObjective f(dense, y, 3, cost_vector(), intercept);
        CHECK(f.dimension() == (intercept ? 12 : 9));
        const Vector w = point(f.dimension(), 1.3);
        check_gradient_and_hessian(f, w);

        MultinomialLogisticObjective fs(sparse, y, 3, cost_vector(), intercept);
        Vector g, gs;
        CHECK(fs.value_gradient(w, gs) == doctest::Approx(f.value_gradient(w, g)).epsilon(1e-14));
        CHECK(relative_error(gs, g) < 1e-14);
    }
}

TEST_CASE("logistic objective: multinomial with 2 classes equals binary with doubled margins") {
    // softmax over (z0, z1) is the sigmoid of z1 - z0: with W = (-w/2, w/2), b = (-b/2, b/2)
    // the loss terms agree, and the penalty ½(|w/2|² + |w/2|²) is ¼|w|².
    const Features X(small_X());
    const Vector y01{{1, 0, 1, 1, 0, 0, 1}};
    const Vector ypm = 2 * y01.array() - 1;
    const Vector w = point(4, 0.9);
    Vector v(8);
    v << -0.5 * w.head(3), 0.5 * w.head(3), -0.5 * w[3], 0.5 * w[3];
    BinaryLogisticObjective fb(X, ypm, cost_vector(), true);
    MultinomialLogisticObjective fm(X, y01, 2, cost_vector(), true);
    Vector g;
    const double binary_loss = fb.value_gradient(w, g) - 0.5 * w.head(3).squaredNorm();
    const double multi_loss = fm.value_gradient(v, g) - 0.25 * w.head(3).squaredNorm();
    CHECK(multi_loss == doctest::Approx(binary_loss).epsilon(1e-13));
}

TEST_CASE("logistic objective: huge margins stay finite") {
    DenseMatrix X(2, 1);
    X << 1e6, -1e6;
    const Features F(X);
    BinaryLogisticObjective f(F, Vector{{-1.0, -1.0}}, Vector::Ones(2), true);
    Vector g;
    const double v = f.value_gradient(Vector{{1.0, 0.0}}, g);
    CHECK(v == doctest::Approx(0.5 + 1e6));  // one row is wrong by 1e6, the other right
    CHECK(g.allFinite());
    MultinomialLogisticObjective m(F, Vector{{0.0, 0.0}}, 2, Vector::Ones(2), false);
    CHECK(std::isfinite(m.value_gradient(Vector{{0.0, 1.0}}, g)));
    CHECK(g.allFinite());
}

}  // TEST_SUITE

}  // namespace unit_linear_logistic_objective_test
}  // namespace
