#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/linear/huber.hpp"
#include "kestrel/linear/huber_objective.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_huber_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

// y = 1 + 2 x0 - x1 + noise·N(0,1), x ~ N(0,1) (d >= 2). Built here rather than with
// tests/model_fixtures.hpp, whose feature names trip a GCC 12 false -Wstringop-overflow.
Dataset noisy_line(Index n, Index d, double noise) {
    Rng rng(11);
    Dataset ds;
    ds.task = Task::regression;
    DenseMatrix X(n, d);
    ds.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < d; ++j) X(i, j) = rng.normal();
        ds.y[i] = 1.0 + 2.0 * X(i, 0) - X(i, 1) + noise * rng.normal();
    }
    ds.X = X;
    return ds;
}

std::unique_ptr<HuberRegression> fit(const Dataset& d, const Params& given, const Context& ctx = Context{}) {
    auto m = make<HuberRegression>(huber_model_info(), given);
    m->fit(d, ctx);
    return m;
}

struct Reference {
    double epsilon, alpha;
    bool fit_intercept;
    double intercept, scale;
    std::vector<double> coef;
};

// Printed by tests/unit/linear/make_lp_references.py: scikit-learn 1.2.1's own objective
// (sklearn.linear_model._huber._huber_loss_and_gradient) minimised by scipy 1.10.1's
// L-BFGS-B with HuberRegressor's bounds, to the optimum (gtol 1e-11, ftol 0: projected
// gradient <= 2.2e-6) on diabetes/train.scaled.csv. HuberRegressor(tol=1e-10) itself
// stops earlier, on scipy's default ftol, within 5e-5 relative of these.
const Reference references[] = {
    {1.35, 1e-4, true, 195.74232415939005, 37.72500684606202,
     {1.90102128165098, -13.738471825315704, 70.35553481515588, 44.125489649462544, -116.45474300225563,
      67.61844711806484, 20.140647149682604, 39.591811507361086, 94.8058469033061, 4.478425192516465}},
    {1.1, 1.0, true, 158.83860713241606, 18.696009014479138,
     {4.578376183498881, -9.454114088859532, 36.319947265445045, 30.706158051238074, -1.2678247879320594,
      -4.40137869452507, -21.622207830020542, 17.21730283926304, 32.58372649366317, 14.57167427025185}},
    {2.0, 0.01, false, 0.0, 57.796325972543336,
     {7.17242087331199, -11.465645200463202, 52.36943219177448, 34.698939374914076, 256.1671633717123,
      -197.0545978227693, -278.19235168910143, -180.67418528163864, 3.782766234849921, 16.870443491452203}},
};

}  // namespace

TEST_SUITE("linear") {

TEST_CASE("huber: coefficients, intercept and scale agree with scikit-learn 1.2.1's HuberRegressor objective") {
    for (const Dataset* d : {&diabetes_scaled(), &diabetes_scaled_libsvm()}) {
        for (const Reference& ref : references) {
            CAPTURE(ref.epsilon);
            CAPTURE(ref.alpha);
            CAPTURE(d->X.is_sparse());
            const auto m = fit(*d, {{"epsilon", ref.epsilon},
                                    {"alpha", ref.alpha},
                                    {"fit_intercept", ref.fit_intercept},
                                    {"tol", 1e-8},
                                    {"max_iter", 10000}});
            const Eigen::Map<const Vector> expected(ref.coef.data(), 10);
            CHECK(relative_error(m->coef(), expected) < 1e-5);
            CHECK(m->intercept() == doctest::Approx(ref.intercept).epsilon(1e-5));
            CHECK(m->scale() == doctest::Approx(ref.scale).epsilon(1e-5));
        }
    }
}

TEST_CASE("huber: the default settings stop close to scikit-learn's optimum") {
    // HuberRegressor() defaults: epsilon 1.35, alpha 1e-4, max_iter 100, tol 1e-5.
    std::string warnings;
    Context ctx;
    ctx.warn = [&warnings](const std::string& w) { warnings += w; };
    const auto m = fit(diabetes_scaled(), Params::object(), ctx);
    const Eigen::Map<const Vector> expected(references[0].coef.data(), 10);
    CHECK(relative_error(m->coef(), expected) < 1e-4);
    CHECK(m->scale() == doctest::Approx(references[0].scale).epsilon(1e-4));
    CHECK(warnings.empty());
}

TEST_CASE("huber: a target in the hundred thousands fits as the same target in units (alpha = 0)") {
    // With α = 0 the objective is equivariant: y·k has the minimiser k·(w, b, σ). From σ = 1
    // on y·10⁵ the line search used to fail at its first steps (ames' sale prices); the fit
    // now works in units of y's spread and lands on the same point.
    const Dataset d = noisy_line(300, 4, 0.5);
    Dataset big = d;
    big.y *= 1e5;
    std::string warned;
    Context ctx;
    ctx.warn = [&](const std::string& m) { warned += m; };
    const Params p{{"alpha", 0.0}, {"tol", 1e-9}, {"max_iter", 1000}};
    const auto small_fit = fit(d, p, ctx);
    const auto big_fit = fit(big, p, ctx);
    CHECK(warned.empty());
    for (Index j = 0; j < 4; ++j) CHECK(big_fit->coef()[j] == doctest::Approx(1e5 * small_fit->coef()[j]).epsilon(1e-6));
    CHECK(big_fit->intercept() == doctest::Approx(1e5 * small_fit->intercept()).epsilon(1e-6));
    CHECK(big_fit->scale() == doctest::Approx(1e5 * small_fit->scale()).epsilon(1e-6));
}

TEST_CASE("huber: objective gradient matches central differences") {
    const Dataset d = noisy_line(40, 3, 2.0);
    Vector weights = Vector::LinSpaced(40, 0.5, 2.0);
    for (bool intercept : {true, false}) {
        CAPTURE(intercept);
        HuberObjective f(d.X, d.y, weights, 1.35, 0.3, intercept, 1);
        Vector theta = Vector::LinSpaced(f.dimension(), -0.4, 0.7);
        theta[f.dimension() - 1] = 0.9;  // σ
        Vector g;
        f.value_gradient(theta, g);
        CHECK(relative_error(g, central_difference_gradient(f, theta)) < 1e-6);
    }
}

TEST_CASE("huber: the gradient vanishes at the solution, with σ free") {
    const Dataset& d = diabetes_scaled();
    const auto m = fit(d, {{"epsilon", 1.2}, {"alpha", 0.1}, {"tol", 1e-9}, {"max_iter", 10000}});
    HuberObjective f(d.X, d.y, Vector(), 1.2, 0.1, true, 1);
    Vector theta(12);
    theta << m->coef(), m->intercept(), m->scale();
    Vector g;
    f.value_gradient(theta, g);
    // It stops when f no longer moves (10 machine epsilons relative): the gradient is then
    // ~1e-8 of its size at the start (~500 here).
    CHECK(g.cwiseAbs().maxCoeff() < 1e-4);
    CHECK(m->scale() > 1.0);
}

TEST_CASE("huber: outliers barely move the fit, unlike least squares") {
    Dataset d = noisy_line(200, 2, 0.1);
    for (Index i = 0; i < 200; i += 10) d.y[i] += 50.0;  // 10% gross outliers
    const auto m = fit(d, Params::object());
    CHECK(m->coef()[0] == doctest::Approx(2.0).epsilon(0.05));
    CHECK(m->coef()[1] == doctest::Approx(-1.0).epsilon(0.05));
    CHECK(m->intercept() == doctest::Approx(1.0).epsilon(0.1));
}

TEST_CASE("huber: dense and sparse give identical models; any thread count the same model") {
    const auto a = fit(diabetes_scaled(), {{"epsilon", 1.5}});
    const auto b = fit(diabetes_scaled_libsvm(), {{"epsilon", 1.5}});
    CHECK(a->coef() == b->coef());
    CHECK(a->intercept() == b->intercept());
    CHECK(a->scale() == b->scale());

    // More rows than one block of the parallel sum.
    const Dataset big = noisy_line(5000, 5, 1.0);
    const auto t1 = fit(big, Params::object(), test::threads(1));
    const auto t2 = fit(big, Params::object(), test::threads(2));
    CHECK(t1->coef() == t2->coef());
    CHECK(t1->scale() == t2->scale());
}

TEST_CASE("huber: save/load round trip gives identical predictions and keeps the scale") {
    ModelSpec spec;
    spec.model = "huber";
    const Model m = Model::train(spec, diabetes_scaled_libsvm(), Context{});
    const std::string saved = m.to_json().dump();
    const Model back = Model::from_json(Json::parse(saved), "mem");
    CHECK(back.to_json().dump() == saved);
    CHECK(m.predict(diabetes_scaled().X) == back.predict(diabetes_scaled().X));
    CHECK(saved.find("\"scale\"") != std::string::npos);
}

TEST_CASE("huber: max_iter reached is a warning with a usable model") {
    std::string warnings;
    Context ctx;
    ctx.warn = [&warnings](const std::string& w) { warnings += w; };
    const auto m = fit(diabetes_scaled(), {{"max_iter", 2}}, ctx);
    CHECK(warnings.find("max_iter=2") != std::string::npos);
    CHECK(m->predict(diabetes_scaled().X).allFinite());
}

TEST_CASE("huber: bad parameters are ParamErrors naming the parameter") {
    const auto rejects = [](const Params& p, const std::string& name) {
        try {
            make<HuberRegression>(huber_model_info(), p);
            FAIL("accepted " << p.dump());
        } catch (const ParamError& e) {
            CHECK(std::string(e.what()).find(name) != std::string::npos);
        }
    };
    rejects({{"epsilon", 0.9}}, "epsilon");  // scikit-learn: epsilon >= 1
    rejects({{"alpha", -1e-3}}, "alpha");
    rejects({{"max_iter", 0}}, "max_iter");
    rejects({{"tol", -1.0}}, "tol");
    rejects({{"delta", 0.9}}, "epsilon");  // the name for epsilon, checked as epsilon
    rejects({{"delta", 1.5}, {"epsilon", 1.5}}, "same parameter");
}

TEST_CASE("huber: delta is another name for epsilon") {
    const auto by_delta = fit(diabetes_scaled(), {{"delta", 1.6}});
    const auto by_epsilon = fit(diabetes_scaled(), {{"epsilon", 1.6}});
    CHECK(by_delta->params()["epsilon"].get<double>() == 1.6);
    CHECK_FALSE(by_delta->params().contains("delta"));
    CHECK((by_delta->predict(diabetes_scaled().X) - by_epsilon->predict(diabetes_scaled().X)).cwiseAbs().maxCoeff() == 0.0);
}

}  // TEST_SUITE

}  // namespace unit_linear_huber_test
}  // namespace
