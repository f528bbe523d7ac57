#include <doctest/doctest.h>

#include "kestrel/core/error.hpp"
#include "kestrel/linear/ridge.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_ridge_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

std::unique_ptr<RidgeRegression> ridge(const Params& given = Params::object()) {
    return make<RidgeRegression>(ridge_model_info(), given);
}

Dataset tiny(DenseMatrix X, Vector y) {
    Dataset d;
    d.X = Features(std::move(X));
    d.y = std::move(y);
    d.task = Task::regression;
    return d;
}

// Coefficients followed by the intercept, for one comparison.
Vector fitted(const RidgeRegression& r) {
    Vector out(r.coef().size() + 1);
    out << r.coef(), r.intercept();
    return out;
}

Vector fit_with(const Dataset& d, const Params& given) {
    auto r = ridge(given);
    r->fit(d, Context{});
    return fitted(*r);
}

}  // namespace

TEST_SUITE("linear") {

TEST_CASE("ridge: one feature, by hand") {
    // x = (0, 1, 2), y = (1, 3, 2), alpha = 1. Centred: x̄ = 1, ȳ = 2,
    // Σ(x-x̄)(y-ȳ) = 1, Σ(x-x̄)² = 2, so w = 1/(2+1) = 1/3 and b = 2 - 1/3 = 5/3.
    DenseMatrix X(3, 1);
    X << 0, 1, 2;
    const Dataset d = tiny(X, Vector{{1.0, 3.0, 2.0}});
    for (const std::string solver : {"cholesky", "dual", "svd"}) {
        CAPTURE(solver);
        const Vector v = fit_with(d, {{"solver", solver}});
        CHECK(v[0] == doctest::Approx(1.0 / 3.0).epsilon(1e-14));
        CHECK(v[1] == doctest::Approx(5.0 / 3.0).epsilon(1e-14));
        // No intercept: w = Σxy / (Σx² + 1) = 7 / 6.
        const Vector u = fit_with(d, {{"solver", solver}, {"fit_intercept", false}});
        CHECK(u[0] == doctest::Approx(7.0 / 6.0).epsilon(1e-14));
        CHECK(u[1] == 0.0);
    }
}

TEST_CASE("ridge: two features without intercept, by hand, dense and sparse, primal and dual") {
    // XᵀX + I = [[3,1],[1,3]], Xᵀy = (5, 6): w = (1/8)[[3,-1],[-1,3]](5,6) = (9/8, 13/8).
    DenseMatrix X(3, 2);
    X << 1, 0, 0, 1, 1, 1;
    const Dataset dense = tiny(X, Vector{{1.0, 2.0, 4.0}});
    for (const Dataset& d : {dense, with_sparse_features(dense)}) {
        for (const std::string solver : {"auto", "cholesky", "dual", "svd"}) {
            CAPTURE(solver);
            const Vector v = fit_with(d, {{"solver", solver}, {"fit_intercept", false}});
            CHECK(v[0] == doctest::Approx(9.0 / 8.0).epsilon(1e-14));
            CHECK(v[1] == doctest::Approx(13.0 / 8.0).epsilon(1e-14));
        }
    }
}

TEST_CASE("ridge: agrees with scikit-learn on diabetes") {
    // scikit-learn 1.2.1 (Debian python3-sklearn), X, y = diabetes/train.csv:
    //   Ridge(alpha=1.0).fit(X, y).coef_, .intercept_   (tests/unit/linear/make_references.py)
    const Vector coef{{0.1426951101809243, -22.80861461335683, 5.905419981590324, 1.1986798621009291,
                       -1.0790083454224848, 0.6266246550829655, 0.37747380255157614, 9.770131686558186,
                       60.79394665504732, 0.21396887391087052}};
    const double intercept = -319.81247103842156;
    for (const Dataset& d : {diabetes(), with_sparse_features(diabetes())}) {
        for (const std::string solver : {"cholesky", "dual", "svd"}) {
            CAPTURE(solver);
            CAPTURE(d.X.is_sparse());
            const Vector v = fit_with(d, {{"alpha", 1.0}, {"solver", solver}});
            CHECK(relative_error(v.head(10), coef) < 1e-6);
            CHECK(v[10] == doctest::Approx(intercept).epsilon(1e-6));
        }
    }
}

TEST_CASE("ridge: sample weights agree with scikit-learn (weighted centring)") {
    // scikit-learn 1.2.1: w = 1 + (arange(n) % 3);
    //   Ridge(alpha=10.0).fit(X, y, sample_weight=w) on diabetes/train.csv
    const Vector coef{{0.24898231977423224, -20.475665456567228, 5.991211910864912, 1.1842692280801563,
                       -0.6521775329440158, 0.281152440056188, -0.3954758721152288, 6.162389389067251,
                       48.29982875717163, 0.20749098346579567}};
    const double intercept = -258.7372303784112;
    Dataset d = diabetes();
    d.weights = Vector(d.rows());
    for (Index i = 0; i < d.rows(); ++i) d.weights[i] = 1.0 + static_cast<double>(i % 3);
    for (const Dataset& di : {d, with_sparse_features(d)}) {
        for (const std::string solver : {"cholesky", "dual", "svd"}) {
            CAPTURE(solver);
            const Vector v = fit_with(di, {{"alpha", 10.0}, {"solver", solver}});
            CHECK(relative_error(v.head(10), coef) < 1e-6);
            CHECK(v[10] == doctest::Approx(intercept).epsilon(1e-6));
        }
    }
}

TEST_CASE("ridge: dense and sparse input give the same model") {
    Dataset d = diabetes();
    d.weights = Vector::LinSpaced(d.rows(), 0.5, 2.0);
    for (const std::string solver : {"cholesky", "dual", "svd"}) {
        for (bool intercept : {true, false}) {
            CAPTURE(solver);
            CAPTURE(intercept);
            const Params p{{"alpha", 0.1}, {"solver", solver}, {"fit_intercept", intercept}};
            // 1e-8: with n = 353 > d = 10 the dual's n x n system has rank 10 + alpha I, a
            // condition number near 1e9, which magnifies the different summation orders.
            CHECK(relative_error(fit_with(with_sparse_features(d), p), fit_with(d, p)) < 1e-8);
        }
    }
}

TEST_CASE("ridge: coefficients that overflow are an error, never a model") {
    DenseMatrix X(3, 1);
    X << -1e300, 0, 1e300;
    const Dataset d = tiny(X, Vector{{-1e300, 0.0, 1e300}});
    auto r = ridge({{"alpha", 1.0}});
    CHECK_THROWS_WITH_AS(r->fit(d, Context{}), doctest::Contains("non-finite"), Error);
    CHECK_FALSE(r->fitted());
}

TEST_CASE("ridge: primal equals dual when d > n, and auto picks the dual") {
    // 8 rows, 10 features: the d x d system is still regular thanks to alpha.
    const Dataset wide = take_rows(diabetes(), {0, 1, 2, 3, 4, 5, 6, 7});
    for (const Dataset& d : {wide, with_sparse_features(wide)}) {
        const Vector primal = fit_with(d, {{"alpha", 0.5}, {"solver", "cholesky"}});
        const Vector dual = fit_with(d, {{"alpha", 0.5}, {"solver", "dual"}});
        const Vector automatic = fit_with(d, {{"alpha", 0.5}});
        CHECK(relative_error(dual, primal) < 1e-9);
        CHECK(automatic == dual);  // bit for bit: the same path
    }
}

TEST_CASE("ridge: a sample weight of 2 equals duplicating the row") {
    const Dataset base = take_rows(diabetes(), {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    Dataset weighted = base;
    weighted.weights = Vector::Ones(base.rows());
    weighted.weights[3] = 2.0;
    weighted.weights[7] = 2.0;
    const Dataset duplicated = take_rows(diabetes(), {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 3, 7});
    for (const std::string solver : {"cholesky", "dual", "svd"}) {
        CAPTURE(solver);
        const Params p{{"alpha", 2.0}, {"solver", solver}};
        CHECK(relative_error(fit_with(weighted, p), fit_with(duplicated, p)) < 1e-9);
        CHECK(relative_error(fit_with(with_sparse_features(weighted), p), fit_with(duplicated, p)) < 1e-9);
    }
}

TEST_CASE("ridge: save_state -> load_state gives bit-identical predictions") {
    auto r = ridge({{"alpha", 0.3}});
    r->fit(diabetes(), Context{});
    const Json state = Json::parse(r->save_state().dump());  // through text, as in a model file
    CHECK(state.at("coef").size() == 10);
    auto loaded = ridge({{"alpha", 0.3}});
    loaded->load_state(state);
    const Vector a = r->predict(diabetes().X), b = loaded->predict(diabetes().X);
    CHECK(a == b);
    CHECK(loaded->predict(with_sparse_features(diabetes()).X).isApprox(a, 1e-12));
}

TEST_CASE("ridge: load_state rejects bad state") {
    auto r = ridge();
    r->fit(diabetes(), Context{});
    const Json good = r->save_state();
    auto fresh = ridge();
    Json j = good;
    j["coef"].erase(0);
    CHECK_THROWS_AS(fresh->load_state(j), std::runtime_error);
    j = good;
    j["coef"][2] = "x";
    CHECK_THROWS_AS(fresh->load_state(j), std::runtime_error);
    j = good;
    j.erase("intercept");
    CHECK_THROWS_AS(fresh->load_state(j), std::runtime_error);
    j = good;
    j["intercept"] = Json::array({1.0});
    CHECK_THROWS_AS(fresh->load_state(j), std::runtime_error);
    CHECK_NOTHROW(fresh->load_state(good));
}

TEST_CASE("ridge: parameters are validated and classification is refused") {
    const ModelInfo info = ridge_model_info();
    CHECK(info.name == "ridge");
    CHECK(info.tasks == std::vector<Task>{Task::regression});
    CHECK_THROWS_AS(info.spec.resolve({{"alpha", -1.0}}, "ridge"), ParamError);
    CHECK_THROWS_AS(info.spec.resolve({{"solver", "lsqr"}}, "ridge"), ParamError);
    const Params defaults = info.spec.resolve(Params::object(), "ridge");
    CHECK(get_real(defaults, "alpha") == 1.0);
    CHECK(get_bool(defaults, "fit_intercept"));
    CHECK(get_string(defaults, "solver") == "auto");
    auto r = ridge();
    CHECK_THROWS_AS(r->fit(iris(), Context{}), UsageError);
}

}  // TEST_SUITE

}  // namespace unit_linear_ridge_test
}  // namespace
