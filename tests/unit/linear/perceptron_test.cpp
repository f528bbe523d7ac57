#include <doctest/doctest.h>

#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/linear/perceptron.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_perceptron_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

const Dataset& heart() {
    static const Dataset d = load("heart_scale/train.csv", Task::classification);
    return d;
}

std::unique_ptr<Perceptron> fit(const Dataset& d, const Params& given, const Context& ctx = Context{}) {
    auto m = make<Perceptron>(perceptron_model_info(), given);
    m->fit(d, ctx);
    return m;
}

Eigen::MatrixXd fitted(const Perceptron& m) {
    Eigen::MatrixXd out(1, m.coef().size() + 1);
    out << m.coef().transpose(), m.intercept();
    return out;
}

Dataset tiny(const DenseMatrix& X, std::vector<double> labels) {
    Dataset d;
    d.task = Task::classification;
    d.X = X;
    d.y = Eigen::Map<Vector>(labels.data(), static_cast<Index>(labels.size()));
    d.classes = {"neg", "pos"};
    return d;
}

}  // namespace

TEST_SUITE("linear") {

TEST_CASE("perceptron: hand-computed updates on a tiny problem") {
    // Rows in order, w = 0, b = 0, η = 1:
    //   (1, 0) pos: z = 0 → mistake, w = (1, 0),  b = 1
    //   (0, 1) neg: z = 1 → mistake, w = (1, -1), b = 0
    //   (2, 1) pos: z = 1 → fine
    //   (1, 2) neg: z = -1 → fine                          epoch 1 had mistakes
    //   epoch 2: z = 1, -1, 1, -1: no mistake → stop after 2 epochs.
    DenseMatrix X(4, 2);
    X << 1, 0, 0, 1, 2, 1, 1, 2;
    const Dataset d = tiny(X, {1, 0, 1, 0});
    const auto m = fit(d, {{"shuffle", false}});
    CHECK(m->coef() == Vector((Vector(2) << 1, -1).finished()));
    CHECK(m->intercept() == 0.0);
    CHECK(m->epochs() == 2);
    // Averaged: w after each of the 8 visits is (1,0,1), (1,-1,0) and then unchanged (6
    // more visits): Σ = (1,0,1) + 7·(1,-1,0) = (8,-7,1), over 8 visits.
    const auto a = fit(d, {{"shuffle", false}, {"averaged", true}});
    CHECK(a->coef()[0] == doctest::Approx(1.0));
    CHECK(a->coef()[1] == doctest::Approx(-7.0 / 8));
    CHECK(a->intercept() == doctest::Approx(1.0 / 8));
    // Without intercept: (1,0) z = 0 → w = (1,0); (0,1) z = 0 → w = (1,-1); then no mistakes.
    const auto n = fit(d, {{"shuffle", false}, {"fit_intercept", false}});
    CHECK(n->coef() == Vector((Vector(2) << 1, -1).finished()));
    CHECK(n->intercept() == 0.0);
}

TEST_CASE("perceptron: agrees with scikit-learn's Perceptron on heart_scale, dense and sparse") {
    // scikit-learn 1.2.1 (Debian python3-sklearn), X, y = heart_scale/train.csv, printed by
    // tests/unit/linear/make_perceptron_references.py:
    //   Perceptron(shuffle=False, tol=None, max_iter=3).fit(X, y).coef_, .intercept_
    //   Perceptron(shuffle=False, tol=None, max_iter=3, eta0=0.5, class_weight={1: 2.0}) ...
    Eigen::MatrixXd plain(1, 14), weighted(1, 14);
    plain << -1.2083355999999994, 2.0, 3.333337999999998, 2.5283133, 2.0730639000000006, 0.0, -1.0,
        -2.0305383699999995, 4.0, 1.4193566000000004, 2.0, 6.000002000000002, 0.0, 2.0;
    weighted << 0.39583100000000027, 3.0, 2.333335999999999, 3.7641586000000014, 1.7146157, 0.0, 0.0,
        -0.7938950349999996, 2.0, 1.6774200500000003, 1.0, 4.333332499999999, 1.25, 3.0;
    for (const Dataset& d : {heart(), with_sparse_features(heart())}) {
        CAPTURE(d.X.is_sparse());
        CHECK(relative_error(fitted(*fit(d, {{"shuffle", false}, {"max_iter", 3}})), plain) < 1e-12);
        CHECK(relative_error(fitted(*fit(d, {{"shuffle", false}, {"max_iter", 3}, {"eta", 0.5}, {"class_weight", "1:2"}})),
                             weighted) < 1e-12);
    }
}

TEST_CASE("perceptron: separable data are separated; non-separable data warn") {
    // Rows of heart_scale labelled by a fixed hyperplane are separable.
    Dataset d = heart();
    Vector w(13);
    w << 1, -2, 0.5, 1, 0, 0, 1, -1, 2, 1, 0, 1, -0.5;
    const Vector z = d.X.multiply(w);
    for (Index i = 0; i < d.rows(); ++i) d.y[i] = z[i] > 0.1 ? 1 : 0;
    std::string warned;
    Context ctx;
    ctx.warn = [&](const std::string& m) { warned = m; };
    const auto m = fit(d, {}, ctx);
    CHECK(warned.empty());
    CHECK(m->predict(d.X) == d.y);

    const auto n = fit(heart(), {{"max_iter", 20}, {"tol", "none"}}, ctx);
    CHECK(warned.find("not separated") != std::string::npos);
    CHECK(n->epochs() == 20);
}

TEST_CASE("perceptron: scikit-learn's stopping rule, tol and n_iter_no_change, by hand") {
    // One point twice, labelled both ways, no intercept, rows in order, w = 0:
    //   (1) pos: z = 0 → mistake, loss 0,  w = 1
    //   (1) neg: z = 1 → mistake, loss 1,  w = 0
    // Every epoch has loss L = 1 and ends at w = 0. With n = 2 rows and tol = 1e-3:
    //   epoch 1: 1 > ∞ − 0.002? no → count 0, best = 1
    //   epochs 2, 3, ...: 1 > 1 − 0.002 → count 1, 2, ...: stop when count = n_iter_no_change,
    // after 1 + n_iter_no_change epochs, without a warning (it converged by the rule).
    DenseMatrix X(2, 1);
    X << 1, 1;
    const Dataset d = tiny(X, {1, 0});
    const Params base{{"shuffle", false}, {"fit_intercept", false}, {"max_iter", 50}};
    auto with = [&](Params extra) {
        Params p = base;
        p.update(extra);
        return p;
    };
    std::string warned;
    Context ctx;
    ctx.warn = [&](const std::string& m) { warned = m; };
    CHECK(fit(d, base, ctx)->epochs() == 6);  // the defaults: tol 1e-3, n_iter_no_change 5
    CHECK(warned.empty());
    CHECK(fit(d, with({{"n_iter_no_change", 2}}), ctx)->epochs() == 3);
    CHECK(fit(d, with({{"n_iter_no_change", 1}}), ctx)->epochs() == 2);
    CHECK(warned.empty());
    // tol = 0: 1 > 1 − 0 is false, an equal loss counts as an improvement: never stops.
    CHECK(fit(d, with({{"tol", 0.0}}), ctx)->epochs() == 50);
    CHECK(warned.find("not separated") != std::string::npos);
    // tol = none: the old rule, every epoch up to max_iter.
    warned.clear();
    CHECK(fit(d, with({{"tol", "none"}}), ctx)->epochs() == 50);
    CHECK(warned.find("not separated") != std::string::npos);
    // An epoch without mistakes stops first: the separable set of the first test takes 2
    // epochs (losses 1, then 0) even with n_iter_no_change = 1.
    DenseMatrix S(4, 2);
    S << 1, 0, 0, 1, 2, 1, 1, 2;
    CHECK(fit(tiny(S, {1, 0, 1, 0}), {{"shuffle", false}, {"n_iter_no_change", 1}})->epochs() == 2);
}

TEST_CASE("perceptron: the stopping rule stops where scikit-learn's does on heart_scale") {
    // scikit-learn 1.2.1, tests/unit/linear/make_perceptron_references.py: its defaults
    // (tol=1e-3, n_iter_no_change=5) with the rows in file order, as kestrel's shuffle=0:
    //   Perceptron(shuffle=False).fit(X, y): n_iter_ = 9, and coef_, intercept_ below;
    //   Perceptron(shuffle=False, n_iter_no_change=2): n_iter_ = 6.
    Eigen::MatrixXd defaults(1, 14), patience2(1, 14);
    defaults << -1.6666744999999978, 3.0, 3.6666809999999965, 2.9622950000000006, 4.547958499999996, -1.0, 1.0,
        -3.458023420000003, 3.0, 1.0000059000000014, 1.0, 6.333340000000007, 0.5, 5.0;
    patience2 << -3.7916719999999993, 1.0, 3.000009999999996, 2.7358688, 3.753433500000001, 1.0, 0.0, -2.17557914,
        3.0, -0.41935079999999947, 1.0, 8.333336000000003, 1.5, 5.0;
    for (const Dataset& d : {heart(), with_sparse_features(heart())}) {
        CAPTURE(d.X.is_sparse());
        const auto m = fit(d, {{"shuffle", false}});
        CHECK(m->epochs() == 9);
        CHECK(relative_error(fitted(*m), defaults) < 1e-12);
        const auto q = fit(d, {{"shuffle", false}, {"n_iter_no_change", 2}});
        CHECK(q->epochs() == 6);
        CHECK(relative_error(fitted(*q), patience2) < 1e-12);
    }
}

TEST_CASE("perceptron: the shuffle follows the context's seed, never the thread count") {
    Context one, two, other;
    one.threads = 1;
    two.threads = 2;
    other.seed = 12345;
    const Params p{{"max_iter", 5}};
    CHECK(fit(heart(), p, one)->save_state().dump() == fit(heart(), p, two)->save_state().dump());
    CHECK(fit(heart(), p, one)->save_state().dump() != fit(heart(), p, other)->save_state().dump());
}

TEST_CASE("perceptron: bad input") {
    CHECK_THROWS_AS(make<Perceptron>(perceptron_model_info(), {{"eta", 0.0}}), ParamError);
    CHECK_THROWS_AS(make<Perceptron>(perceptron_model_info(), {{"C", 1.0}}), ParamError);
    CHECK_THROWS_AS(make<Perceptron>(perceptron_model_info(), {{"tol", -1.0}}), ParamError);
    CHECK_THROWS_AS(make<Perceptron>(perceptron_model_info(), {{"tol", "never"}}), ParamError);
    CHECK_THROWS_AS(make<Perceptron>(perceptron_model_info(), {{"n_iter_no_change", 0}}), ParamError);
    CHECK_THROWS_AS(fit(diabetes(), {}), UsageError);
}

}  // TEST_SUITE

}  // namespace unit_linear_perceptron_test
}  // namespace
