#include <doctest/doctest.h>

#include "kernel_methods_test_util.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/kernel_methods/kernel_perceptron.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_kernel_methods_kernel_perceptron_test {

using namespace kestrel;
using namespace kestrel::kernel_test;

namespace {

std::unique_ptr<KernelPerceptron> perceptron(const Params& given) {
    return make<KernelPerceptron>(kernel_perceptron_model_info(), given);
}

// XOR-like rings: class 1 inside radius 1, class 0 in the annulus 2..3. Separable by
// an RBF kernel, never by a line.
Dataset rings(Index n, std::uint64_t seed = 5) {
    Rng rng(seed);
    Dataset d;
    DenseMatrix X(n, 2);
    d.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        const bool inner = i % 2 == 0;
        const double r = inner ? rng.uniform(0.0, 1.0) : rng.uniform(2.0, 3.0);
        const double t = rng.uniform(0.0, 6.283185307179586);
        X(i, 0) = r * std::cos(t);
        X(i, 1) = r * std::sin(t);
        d.y[i] = inner ? 1.0 : 0.0;
    }
    d.X = Features(std::move(X));
    d.task = Task::classification;
    d.classes = {"out", "in"};
    return d;
}

double accuracy(const Estimator& m, const Dataset& d) {
    const Vector p = m.predict(d.X);
    double c = 0;
    for (Index i = 0; i < d.rows(); ++i) c += p[i] == d.y[i];
    return c / static_cast<double>(d.rows());
}

}  // namespace

TEST_SUITE("kernel_methods") {

TEST_CASE("kernel_perceptron: separates data that is separable in the kernel's feature space") {
    const Dataset d = rings(200);
    for (const bool averaged : {false, true}) {
        CAPTURE(averaged);
        std::vector<std::string> warnings;
        Context ctx;
        ctx.warn = [&](const std::string& w) { warnings.push_back(w); };
        auto m = perceptron({{"kernel", "rbf"}, {"gamma", 1.0}, {"averaged", averaged}});
        m->fit(d, ctx);
        CHECK(warnings.empty());  // an epoch without mistakes ended the fit
        if (!averaged) CHECK(accuracy(*m, d) == 1.0);
        else CHECK(accuracy(*m, d) > 0.97);
        CHECK(m->expansion().rows.rows() < d.rows());  // only the mistakes are kept
    }
    // The same rings with the linear kernel cannot be separated: it warns.
    std::vector<std::string> warnings;
    Context ctx;
    ctx.warn = [&](const std::string& w) { warnings.push_back(w); };
    perceptron({{"kernel", "linear"}, {"max_iter", 5}})->fit(d, ctx);
    CHECK(warnings.size() == 1);
}

TEST_CASE("kernel_perceptron: by hand, two points") {
    // x = (0), (2); y = -1, +1; linear kernel, no shuffle, eta = 1, with a bias.
    // Visit 1: f(0) = 0 -> mistake, alpha_0 y_0 = -1, b = -1: f(x) = -1.
    // Visit 2: f(2) = -1 -> mistake, coef of x=2 is +1, b = 0: f(x) = 2x.
    // Epoch 2: f(0) = 0 -> mistake again (y f <= 0): coef(0) = -2, b = -1: f(x) = 2x - 1.
    //          f(2) = 3 > 0. Epoch 3: f(0) = -1, f(2) = 3: no mistakes, stop.
    DenseMatrix X(2, 1);
    X << 0, 2;
    Dataset d;
    d.X = Features(X);
    d.y = Vector{{0.0, 1.0}};
    d.task = Task::classification;
    d.classes = {"neg", "pos"};
    auto m = perceptron({{"kernel", "linear"}, {"shuffle", false}});
    m->fit(d, Context{});
    const Matrix dec = m->decision_function(d.X);
    CHECK(dec(0, 0) == doctest::Approx(-1.0));
    CHECK(dec(1, 0) == doctest::Approx(3.0));
    CHECK(m->expansion().intercept[0] == -1.0);
}

TEST_CASE("kernel_perceptron: the budget bounds the support set") {
    const Dataset d = rings(200);
    auto m = perceptron({{"kernel", "rbf"}, {"gamma", 1.0}, {"budget", 25}, {"max_iter", 20}});
    m->fit(d, Context{});
    CHECK(m->expansion().rows.rows() <= 25);
    CHECK(accuracy(*m, d) > 0.8);
}

TEST_CASE("kernel_perceptron: bad input, save/load and thread counts") {
    CHECK_THROWS_AS(perceptron({{"eta", 0.0}}), ParamError);
    CHECK_THROWS_AS(perceptron({{"budget", -1}}), ParamError);
    const Dataset d = rings(120);
    for (const Params& p : {Params{{"averaged", true}}, Params{{"budget", 10}, {"max_iter", 3}}}) {
        CAPTURE(p.dump());
        auto a = perceptron(p), b = perceptron(p), c = perceptron(p);
        a->fit(d, threads(1, 8));
        b->fit(d, threads(2, 8));
        c->fit(d, threads(2, 9));
        CHECK(a->save_state().dump() == b->save_state().dump());
        CHECK(a->save_state().dump() != c->save_state().dump());
        const KernelExpansion e = KernelExpansion::from_json(a->save_state(), d.cols(), 1);
        CHECK(e.decision(d.X) == a->decision_function(d.X));
    }
}

}  // TEST_SUITE

}  // namespace unit_kernel_methods_kernel_perceptron_test
}  // namespace
