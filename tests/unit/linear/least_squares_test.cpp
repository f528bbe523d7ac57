#include <doctest/doctest.h>

#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/linear/least_squares.hpp"
#include "linear_test_util.hpp"
#include "model_fixtures.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_least_squares_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

std::unique_ptr<LeastSquares> fit(const Dataset& d, const Params& given, const Context& ctx = Context{}) {
    auto m = make<LeastSquares>(least_squares_model_info(), given);
    m->fit(d, ctx);
    return m;
}

Eigen::MatrixXd fitted(const LeastSquares& m) {
    Eigen::MatrixXd out(1, m.coef().size() + 1);
    out << m.coef().transpose(), m.intercept();
    return out;
}

// diabetes with column 3 repeated and an all-zero column appended: rank 10 of 12.
Dataset rank_deficient() {
    const Dataset& d = diabetes();
    Dataset r = d;
    DenseMatrix X(d.rows(), 12);
    X << d.X.to_dense(), d.X.to_dense().col(2), DenseMatrix::Zero(d.rows(), 1);
    r.X = Features(X);
    r.feature_names.clear();
    return r;
}


}  // namespace

TEST_SUITE("linear") {

TEST_CASE("least_squares: qr and svd agree with scikit-learn on diabetes, dense and sparse") {
    // scikit-learn 1.2.1 (Debian python3-sklearn), X, y = diabetes/train.csv,
    // LinearRegression().fit(X, y).coef_, .intercept_ (make_least_squares_references.py).
    Eigen::MatrixXd expected(1, 11);
    expected << 0.13768781500241636, -23.064467722825018, 5.8463626514903, 1.197092518325353, -1.2816847398758906,
        0.8111520257425777, 0.6016531873240558, 10.15953916545557, 67.10896239682863, 0.20159906669848215,
        -341.3782363335049;
    for (const Dataset& d : {diabetes(), with_sparse_features(diabetes())}) {
        for (const char* solver : {"qr", "svd"}) {
            CAPTURE(d.X.is_sparse());
            CAPTURE(solver);
            const auto m = fit(d, {{"solver", solver}});
            CHECK(relative_error(fitted(*m), expected) < 1e-9);
            CHECK(m->rank() == 10);
        }
        // The d x d normal equations (the solver that fits on shards): the same solution.
        CAPTURE(d.X.is_sparse());
        CHECK(relative_error(fitted(*fit(d, {{"solver", "cholesky"}})), expected) < 1e-9);
        Dataset weighted = d;
        weighted.weights = Vector::LinSpaced(d.rows(), 0.5, 2.0);
        CHECK(relative_error(fitted(*fit(weighted, {{"solver", "cholesky"}})),
                             fitted(*fit(weighted, {{"solver", "qr"}}))) < 1e-9);
        CHECK(relative_error(fitted(*fit(weighted, {{"solver", "cholesky"}, {"fit_intercept", false}})),
                             fitted(*fit(weighted, {{"solver", "qr"}, {"fit_intercept", false}}))) < 1e-9);
    }
}

TEST_CASE("least_squares: svd and qr give the minimum-norm solution on a rank-deficient design") {
    // Same source, LinearRegression().fit([X, X[:, 2], 0], y): scipy's gelsd is SVD-based,
    // the minimum-norm solution: the duplicated coefficient 5.846… split in two halves.
    Eigen::MatrixXd expected(1, 13);
    expected << 0.13768781500240163, -23.064467722824915, 2.923181325745147, 1.1970925183253627, -1.2816847398758906,
        0.8111520257425795, 0.6016531873240579, 10.15953916545564, 67.1089623968286, 0.2015990666984795,
        2.9231813257451478, 0.0, -341.37823633350536;
    const Dataset r = rank_deficient();
    std::string warned;
    Context ctx;
    ctx.warn = [&](const std::string& m) { warned = m; };
    const auto svd = fit(r, {{"solver", "svd"}}, ctx);
    CHECK(svd->rank() == 10);
    CHECK(warned.empty());
    CHECK(relative_error(fitted(*svd), expected) < 1e-9);
    CHECK(svd->coef()[2] == doctest::Approx(svd->coef()[10]).epsilon(1e-10));
    // qr (complete orthogonal decomposition) gives the same minimum-norm solution, and
    // says that the design is rank-deficient.
    const auto qr = fit(r, {{"solver", "qr"}}, ctx);
    CHECK(qr->rank() == 10);
    CHECK(warned.find("rank 10") != std::string::npos);
    CHECK(relative_error(fitted(*qr), expected) < 1e-9);
}

TEST_CASE("least_squares: gradient descent reaches the qr solution with each step rule") {
    // A well-conditioned design (independent normal columns), so that plain gradient
    // descent converges in a test's time; diabetes' correlated columns need ~10⁵ steps.
    const Dataset d = test::linear_regression(200, 5);
    const Eigen::MatrixXd exact = fitted(*fit(d, {{"solver", "qr"}}));
    for (const Dataset& data : {d, with_sparse_features(d)}) {
        for (const char* step : {"fixed", "bold", "linesearch"}) {
            CAPTURE(std::string(step));
            CAPTURE(data.X.is_sparse());
            std::string warned;
            Context ctx;
            ctx.warn = [&](const std::string& m) { warned = m; };
            const auto m = fit(data, {{"solver", "gd"}, {"step", step}, {"tol", 1e-12}}, ctx);
            CAPTURE(warned);
            CHECK(warned.empty());
            CHECK(relative_error(fitted(*m), exact) < 1e-8);
            CHECK(m->iterations() > 0);
        }
    }
    // From w = 0, gradient descent stays in the row space of X: on a rank-deficient design
    // (column 0 twice) it converges to the minimum-norm solution, as svd.
    Dataset r = d;
    DenseMatrix X(d.rows(), 6);
    X << d.X.to_dense(), d.X.to_dense().col(0);
    r.X = Features(X);
    const auto svd = fit(r, {{"solver", "svd"}});
    CHECK(svd->rank() == 5);
    CHECK(svd->coef()[0] == doctest::Approx(svd->coef()[5]).epsilon(1e-12));
    CHECK(svd->coef()[0] == doctest::Approx(exact(0, 0) / 2).epsilon(1e-10));
    const auto gd = fit(r, {{"solver", "gd"}, {"tol", 1e-12}});
    CHECK(relative_error(fitted(*gd), fitted(*svd)) < 1e-7);
}

TEST_CASE("least_squares: a fixed step that is too large diverges with a clear error") {
    CHECK_THROWS_AS(fit(diabetes_scaled(), {{"solver", "gd"}, {"step", "fixed"}, {"learning_rate", 100.0}}), ParamError);
    // Too few iterations: a warning and a usable model.
    std::string warned;
    Context ctx;
    ctx.warn = [&](const std::string& m) { warned = m; };
    const auto m = fit(diabetes_scaled(), {{"solver", "gd"}, {"max_iter", 3}}, ctx);
    CHECK(warned.find("max_iter") != std::string::npos);
    CHECK(m->predict(diabetes_scaled().X).allFinite());
}

TEST_CASE("least_squares: weights, no intercept, and bad parameters") {
    const Dataset& d = diabetes();
    Dataset w = d;
    w.weights = Vector::Ones(d.rows());
    std::vector<Index> rows;
    for (Index i = 0; i < d.rows(); ++i) {
        rows.push_back(i);
        if (i % 4 == 0) {
            rows.push_back(i);
            w.weights[i] = 2;
        }
    }
    CHECK(relative_error(fitted(*fit(w, {})), fitted(*fit(take_rows(d, rows), {}))) < 1e-9);
    CHECK(fit(d, {{"fit_intercept", false}})->intercept() == 0.0);
    CHECK_THROWS_AS(make<LeastSquares>(least_squares_model_info(), {{"solver", "lsqr"}}), ParamError);
    CHECK_THROWS_AS(make<LeastSquares>(least_squares_model_info(), {{"step", "adam"}}), ParamError);
    CHECK_THROWS_AS(make<LeastSquares>(least_squares_model_info(), {{"learning_rate", -1.0}}), ParamError);
    CHECK_THROWS_AS(fit(breast_cancer(), {}), UsageError);
}

TEST_CASE("least_squares: cholesky refuses a Gram that cannot fit in memory before forming it") {
    // Two sparse rows 300,000 columns wide: the 300,000² Gram would take 720 GB.
    SparseMatrix X(2, 300000);
    X.insert(0, 7) = 1.0;
    X.insert(1, 299999) = 2.0;
    Dataset d;
    d.X = Features(X);
    d.y = Vector::Ones(2);
    d.task = Task::regression;
    CHECK_THROWS_WITH_AS(fit(d, {{"solver", "cholesky"}}),
                         doctest::Contains("the 300000 x 300000 normal equations needs about"), DataError);
}

}  // TEST_SUITE

}  // namespace unit_linear_least_squares_test
}  // namespace
