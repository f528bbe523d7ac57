// ridge's solvers (cholesky, dual, svd, sgd) minimise one objective.
#include <doctest/doctest.h>

#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/linear/least_squares.hpp"
#include "kestrel/linear/ridge.hpp"
#include "linear_test_util.hpp"
#include "model_fixtures.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_ridge_solvers_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

Eigen::MatrixXd fit_with(const Dataset& d, const Params& given, const Context& ctx = Context{}) {
    auto r = make<RidgeRegression>(ridge_model_info(), given);
    r->fit(d, ctx);
    Eigen::MatrixXd out(1, r->coef().size() + 1);
    out << r->coef().transpose(), r->intercept();
    return out;
}

// Σ s_i (y_i − wᵀx_i − b)² + α‖w‖² at a fitted (w, b).
double ridge_objective(const Dataset& d, const Eigen::MatrixXd& wb, double alpha) {
    const Index k = wb.cols() - 1;
    const Vector w = wb.leftCols(k).transpose();
    Vector r = d.y - d.X.multiply(w);
    r.array() -= wb(0, k);
    const Vector s = d.has_weights() ? d.weights : Vector::Ones(d.rows());
    return s.dot(r.cwiseProduct(r)) + alpha * w.squaredNorm();
}

}  // namespace

TEST_SUITE("linear") {

TEST_CASE("ridge: cholesky, dual and svd agree to 1e-8, dense and sparse, weighted, with and without intercept") {
    // alpha >= 0.1: below it the dual's n x n system (rank 10 + alpha I) has a condition
    // number past 1e10 on these unscaled columns, and rounding alone moves it by more.
    Dataset d = diabetes();
    d.weights = Vector::LinSpaced(d.rows(), 0.5, 2.0);
    for (const double alpha : {0.1, 1.0, 100.0}) {
        for (const bool intercept : {true, false}) {
            for (const Dataset& di : {d, with_sparse_features(d)}) {
                CAPTURE(alpha);
                CAPTURE(intercept);
                CAPTURE(di.X.is_sparse());
                const Params base{{"alpha", alpha}, {"fit_intercept", intercept}};
                Params p = base;
                p["solver"] = "svd";
                const Eigen::MatrixXd svd = fit_with(di, p);
                for (const char* solver : {"cholesky", "dual"}) {
                    CAPTURE(std::string(solver));
                    p["solver"] = solver;
                    CHECK(relative_error(fit_with(di, p), svd) < 1e-8);
                }
            }
        }
    }
}

TEST_CASE("ridge: with more features than rows every solver agrees, even at a tiny alpha") {
    const Dataset d = take_rows(diabetes_scaled(), {0, 1, 2, 3, 4, 5, 6});  // 7 rows, 10 features
    for (const double alpha : {1e-6, 1.0}) {
        CAPTURE(alpha);
        const Eigen::MatrixXd svd = fit_with(d, {{"alpha", alpha}, {"solver", "svd"}});
        CHECK(relative_error(fit_with(d, {{"alpha", alpha}, {"solver", "dual"}}), svd) < 1e-8);
        CHECK(relative_error(fit_with(d, {{"alpha", alpha}, {"solver", "cholesky"}}), svd) < 1e-8);
        CHECK(relative_error(fit_with(with_sparse_features(d), {{"alpha", alpha}, {"solver", "svd"}}), svd) < 1e-12);
    }
}

TEST_CASE("ridge: svd at alpha=0 is the minimum-norm least-squares solution of a rank-deficient design") {
    // diabetes with column 3 repeated and a zero column: rank 10 of 12. The normal
    // equations are singular; svd drops the null space and returns what least_squares'
    // svd (numpy lstsq / scikit-learn LinearRegression, tested there) returns.
    const Dataset& d = diabetes();
    Dataset r = d;
    DenseMatrix X(d.rows(), 12);
    X << d.X.to_dense(), d.X.to_dense().col(2), DenseMatrix::Zero(d.rows(), 1);
    r.X = Features(X);
    auto ls = make<LeastSquares>(least_squares_model_info(), {{"solver", "svd"}});
    ls->fit(r, Context{});
    Eigen::MatrixXd expected(1, 13);
    expected << ls->coef().transpose(), ls->intercept();
    const Eigen::MatrixXd svd = fit_with(r, {{"alpha", 0.0}, {"solver", "svd"}});
    CHECK(relative_error(svd, expected) < 1e-9);
    CHECK(svd(0, 2) == doctest::Approx(svd(0, 10)).epsilon(1e-9));  // the repeated column, split in halves
    CHECK(svd(0, 11) == 0.0);
    // With alpha > 0 the problem is regular again and every solver agrees.
    CHECK(relative_error(fit_with(r, {{"alpha", 0.5}, {"solver", "cholesky"}}),
                         fit_with(r, {{"alpha", 0.5}, {"solver", "svd"}})) < 1e-8);
}

TEST_CASE("ridge: sgd reaches the closed-form solution to a loose tolerance") {
    // Well-conditioned data: the coefficients themselves; diabetes (correlated columns):
    // the objective, which is what a stochastic method pins down.
    const Dataset d = test::linear_regression(400, 5, 0.5);
    const Eigen::MatrixXd exact = fit_with(d, {{"alpha", 1.0}, {"solver", "cholesky"}});
    std::string warned;
    Context ctx;
    ctx.warn = [&](const std::string& m) { warned = m; };
    const Eigen::MatrixXd sgd = fit_with(d, {{"alpha", 1.0}, {"solver", "sgd"}, {"tol", 1e-6}}, ctx);
    CAPTURE(warned);
    CHECK(warned.empty());
    CHECK(relative_error(sgd, exact) < 2e-3);
    CHECK(ridge_objective(d, sgd, 1.0) <= ridge_objective(d, exact, 1.0) * (1 + 1e-5));

    const Dataset& s = diabetes_scaled();
    const double best = ridge_objective(s, fit_with(s, {{"alpha", 1.0}}), 1.0);
    const Eigen::MatrixXd sd = fit_with(s, {{"alpha", 1.0}, {"solver", "sgd"}});
    CHECK(ridge_objective(s, sd, 1.0) <= best * (1 + 1e-3));
    // Sparse rows take the same steps (only the order of sums in F may differ).
    CHECK(relative_error(fit_with(with_sparse_features(s), {{"alpha", 1.0}, {"solver", "sgd"}}), sd) < 1e-9);
}

TEST_CASE("ridge: sgd is seeded, warns when it runs out of epochs, and refuses a diverging step") {
    const Dataset d = test::linear_regression(200, 4, 0.5);
    Context a, b;
    a.seed = 3;
    b.seed = 3;
    b.threads = 2;
    const Params p{{"solver", "sgd"}, {"max_iter", 20}};
    CHECK(fit_with(d, p, a) == fit_with(d, p, b));
    b.seed = 4;
    const Eigen::MatrixXd other = fit_with(d, p, b);
    CHECK(other != fit_with(d, p, a));
    CHECK(relative_error(other, fit_with(d, p, a)) < 1e-2);

    std::string warned;
    Context ctx;
    ctx.warn = [&](const std::string& m) { warned = m; };
    const Eigen::MatrixXd one = fit_with(d, {{"solver", "sgd"}, {"max_iter", 1}, {"tol", 0.0}}, ctx);
    CHECK(warned.find("max_iter=1") != std::string::npos);
    CHECK(one.allFinite());
    CHECK_THROWS_AS(fit_with(d, {{"solver", "sgd"}, {"eta0", 1e3}}), ParamError);
    CHECK_THROWS_AS(make<RidgeRegression>(ridge_model_info(), {{"eta0", -1.0}}), ParamError);
    CHECK_THROWS_AS(make<RidgeRegression>(ridge_model_info(), {{"solver", "lsqr"}}), ParamError);
    // Without an intercept too.
    const Eigen::MatrixXd exact = fit_with(d, {{"fit_intercept", false}});
    CHECK(relative_error(fit_with(d, {{"fit_intercept", false}, {"solver", "sgd"}, {"tol", 1e-6}}), exact) < 5e-3);
}

TEST_CASE("ridge: the blocked cholesky Gram gives the same model at any thread count") {
    // Over 8 blocks of 1024 rows, so the Gram is summed from several parts.
    const Dataset d = test::linear_regression(9000, 6);
    Context one, two;
    one.threads = 1;
    two.threads = 2;
    const Eigen::MatrixXd a = fit_with(d, {{"solver", "cholesky"}}, one);
    CHECK(a == fit_with(d, {{"solver", "cholesky"}}, two));
    CHECK(relative_error(a, fit_with(d, {{"solver", "svd"}})) < 1e-10);
}

}  // TEST_SUITE

}  // namespace unit_linear_ridge_solvers_test
}  // namespace
