#include <doctest/doctest.h>

#include "kernel_methods_test_util.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/kernel_methods/kernel_ridge.hpp"
#include "kestrel/linear/ridge.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_kernel_methods_kernel_ridge_test {

using namespace kestrel;
using namespace kestrel::kernel_test;

namespace {

std::unique_ptr<KernelRidge> krr(const Params& given) { return make<KernelRidge>(kernel_ridge_model_info(), given); }

Vector fit_predict(const Dataset& d, const Params& given, const Features& Q, const Context& ctx = Context{}) {
    auto m = krr(given);
    m->fit(d, ctx);
    return m->predict(Q);
}

Dataset with_weights(Dataset d) {
    d.weights.resize(d.rows());
    for (Index i = 0; i < d.rows(); ++i) d.weights[i] = 1.0 + static_cast<double>(i % 3);
    return d;
}

}  // namespace

TEST_SUITE("kernel_methods") {

TEST_CASE("kernel_ridge: the linear kernel equals ridge (same alpha), with and without intercept and weights") {
    const Dataset& base = linear_test::diabetes();
    for (bool weighted : {false, true}) {
        const Dataset d = weighted ? with_weights(base) : base;
        for (bool intercept : {true, false}) {
            CAPTURE(weighted);
            CAPTURE(intercept);
            auto r = linear_test::make<RidgeRegression>(ridge_model_info(),
                                                        {{"alpha", 0.7}, {"fit_intercept", intercept}});
            r->fit(d, Context{});
            const Vector expect = r->predict(d.X);
            for (const std::string solver : {"cholesky", "cg"}) {
                CAPTURE(solver);
                // diabetes is unscaled (features up to ~300): the linear Gram matrix is badly
                // conditioned, so cg gets room to converge.
                const Vector got = fit_predict(d,
                                               {{"kernel", "linear"},
                                                {"alpha", 0.7},
                                                {"fit_intercept", intercept},
                                                {"solver", solver},
                                                {"max_iter", 20000}},
                                               d.X);
                CHECK(linear_test::relative_error(got, expect) < 1e-8);
            }
        }
    }
}

TEST_CASE("kernel_ridge: matches scikit-learn KernelRidge (fit_intercept=0) on the formula fixture") {
    // make_references.py, scikit-learn 1.2.1.
    const Dataset d = formula_data();
    const Features Q = formula_queries();
    struct Case {
        Params p;
        Vector expect;
    };
    const Case cases[] = {
        {{{"kernel", "rbf"}, {"gamma", 0.3}, {"alpha", 0.5}},
         Vector{{-0.71362027646643633, -0.76834181279601743, 0.11295458511848466}}},
        {{{"kernel", "poly"}, {"gamma", 0.5}, {"degree", 2}, {"coef0", 1.0}, {"alpha", 0.1}},
         Vector{{-0.6960025021323899, -0.75046630696487782, 0.28845985723564915}}},
        {{{"kernel", "laplacian"}, {"gamma", 0.4}, {"alpha", 0.2}},
         Vector{{-0.7235988497834005, -0.64851710548156993, -0.10302814107318381}}},
    };
    for (const auto& c : cases) {
        Params p = c.p;
        p["fit_intercept"] = false;
        CAPTURE(p.dump());
        CHECK(linear_test::relative_error(fit_predict(d, p, Q), c.expect) < 1e-10);
    }
    // Sample weights 1 + i % 3 (KernelRidge.fit(sample_weight=...)).
    const Vector weighted = fit_predict(with_weights(d),
                                        {{"kernel", "rbf"}, {"gamma", 0.3}, {"alpha", 0.5}, {"fit_intercept", false}}, Q);
    CHECK(linear_test::relative_error(weighted, Vector{{-0.69200614233473257, -0.67649334413446738,
                                                        0.027736827020857335}}) < 1e-10);
}

TEST_CASE("kernel_ridge: Nystrom with every row as a landmark equals the exact solution") {
    const Dataset d = with_weights(linear_test::diabetes().subset(std::vector<Index>{
        0, 3, 5, 8, 13, 21, 34, 55, 89, 144, 1, 2, 4, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19, 20, 22, 23}));
    const Index n = d.rows();
    for (bool intercept : {true, false}) {
        for (const std::string how : {"uniform", "kmeans++"}) {
            CAPTURE(intercept);
            CAPTURE(how);
            const Params base{{"kernel", "rbf"}, {"gamma", 0.5}, {"alpha", 0.3}, {"fit_intercept", intercept}};
            Params ny = base;
            ny["nystrom"] = n;
            ny["landmarks"] = how;
            const Vector exact = fit_predict(d, base, linear_test::diabetes().X);
            const Vector approx = fit_predict(d, ny, linear_test::diabetes().X);
            CHECK(linear_test::relative_error(approx, exact) < 1e-7);
        }
    }
}

TEST_CASE("kernel_ridge: Nystrom with few landmarks approximates the exact fit") {
    const Dataset& d = linear_test::diabetes();
    const Params base{{"kernel", "rbf"}, {"gamma", "median"}, {"alpha", 1.0}};
    Params ny = base;
    ny["nystrom"] = 150;
    const Vector exact = fit_predict(d, base, d.X), approx = fit_predict(d, ny, d.X);
    const double scale = (d.y.array() - d.y.mean()).matrix().norm();
    CHECK((exact - approx).norm() / scale < 0.05);
}

TEST_CASE("kernel_ridge: bad input is refused clearly") {
    CHECK_THROWS_AS(krr({{"alpha", 0.0}}), ParamError);
    CHECK_THROWS_AS(krr({{"alpha", -1.0}}), ParamError);
    const Dataset d = formula_data();
    // Kernel specs are parsed at fit (they may need the data: gamma=median).
    CHECK_THROWS_AS(krr({{"kernel", "-0.5*rbf+linear"}})->fit(d, Context{}), ParamError);
    auto m = krr({{"nystrom", 21}});
    CHECK_THROWS_AS(m->fit(d, Context{}), ParamError);
    Dataset cls = d;
    cls.task = Task::classification;
    cls.classes = {"a", "b"};
    for (Index i = 0; i < cls.rows(); ++i) cls.y[i] = i % 2;
    CHECK_THROWS_AS(krr({})->fit(cls, Context{}), UsageError);
}

TEST_CASE("kernel_ridge: a numerically singular system gets a jitter and a warning, never NaN") {
    // Ten copies of two points, linear kernel, alpha at the bottom of double range:
    // K + alpha I is singular to working precision.
    DenseMatrix X(10, 2);
    Vector y(10);
    for (Index i = 0; i < 10; ++i) {
        X(i, 0) = i % 2 ? 1.0 : 2.0;
        X(i, 1) = i % 2 ? -1.0 : 3.0;
        y[i] = i % 2 ? 1.0 : 2.0;
    }
    Dataset d;
    d.X = Features(X);
    d.y = y;
    d.task = Task::regression;
    std::vector<std::string> warnings;
    Context ctx;
    ctx.warn = [&](const std::string& w) { warnings.push_back(w); };
    auto m = krr({{"kernel", "linear"}, {"alpha", 1e-300}, {"fit_intercept", false}});
    m->fit(d, ctx);
    const Vector p = m->predict(d.X);
    CHECK(p.allFinite());
    // The single-precision attempt gives up first, then double needs the jitter.
    REQUIRE(warnings.size() == 2);
    CHECK(warnings[0].find("double precision instead") != std::string::npos);
    CHECK(warnings[1].find("jitter") != std::string::npos);
    CHECK(linear_test::relative_error(p, y) < 1e-6);
}

TEST_CASE("kernel_ridge: save/load round trip and the same model at 1 and 2 threads") {
    const Dataset& d = linear_test::diabetes();
    for (const Params& p : {Params{{"gamma", "median"}}, Params{{"nystrom", 60}, {"landmarks", "kmeans++"}},
                           Params{{"solver", "cg"}, {"kernel", "0.5*rbf+0.5*poly(degree=2)"}}}) {
        CAPTURE(p.dump());
        auto a = krr(p), b = krr(p), c = krr(p);
        a->fit(d, threads(1, 9));
        b->fit(d, threads(2, 9));
        CHECK(a->save_state().dump() == b->save_state().dump());
        c->fit(d, threads(2, 10));
        if (p.contains("nystrom")) CHECK(a->save_state().dump() != c->save_state().dump());
        // The contract suite round-trips whole model files; here the state alone.
        const Json state = a->save_state();
        const KernelExpansion e = KernelExpansion::from_json(state, d.cols(), 1);
        CHECK(e.decision(d.X).col(0) == a->predict(d.X));
    }
}

TEST_CASE("kernel_ridge: the mixed-precision solve equals the double one to 1e-9, thread-independent") {
    // 700 rows: three 256-row tiles, so the factorisations run tiles in parallel.
    const Dataset d = formula_data(700, 3);
    const Features Q = formula_queries();
    for (bool intercept : {false, true}) {
        CAPTURE(intercept);
        const Params base{{"kernel", "rbf"}, {"gamma", 0.3}, {"alpha", 0.5}, {"fit_intercept", intercept}};
        Params dbl = base;
        dbl["precision"] = "double";
        std::vector<std::string> warnings;
        Context ctx = threads(2);
        ctx.warn = [&](const std::string& w) { warnings.push_back(w); };
        const Vector mixed = fit_predict(d, base, Q, ctx), exact = fit_predict(d, dbl, Q, ctx);
        CHECK(warnings.empty());  // the mixed path was taken, no fallback
        CHECK((mixed - exact).cwiseAbs().maxCoeff() < 1e-9);
        CHECK(fit_predict(d, base, Q, threads(1)) == mixed);
        CHECK(fit_predict(d, dbl, Q, threads(1)) == exact);
    }
}

TEST_CASE("kernel_ridge: an ill-conditioned system falls back to the double factorisation with a warning") {
    // RBF on 300 smooth points with alpha = 1e-9: cond(K + alpha I) ~ 1e11, beyond what a
    // single-precision factor (epsilon 6e-8) can represent, within double's reach.
    const Dataset d = formula_data(300, 3);
    const Features Q = formula_queries();
    const Params base{{"kernel", "rbf"}, {"gamma", 0.1}, {"alpha", 1e-9}, {"fit_intercept", false}};
    Params dbl = base;
    dbl["precision"] = "double";
    std::vector<std::string> warnings;
    Context ctx;
    ctx.warn = [&](const std::string& w) { warnings.push_back(w); };
    const Vector fallback = fit_predict(d, base, Q, ctx);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("double precision instead") != std::string::npos);
    // The fallback is the double path on the same matrix: bit-identical, no jitter.
    warnings.clear();
    CHECK(fit_predict(d, dbl, Q, ctx) == fallback);
    CHECK(warnings.empty());
    CHECK(fallback.allFinite());
}

}  // TEST_SUITE

}  // namespace unit_kernel_methods_kernel_ridge_test
}  // namespace
