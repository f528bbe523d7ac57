#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kestrel/common/class_weight.hpp"  // plus_minus
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/linear/lp_svm.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_lp_svm_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

const Dataset& heart_dense() {
    static const Dataset d = load("heart_scale/train.csv", Task::classification);
    return d;
}
const Dataset& heart_sparse() {
    static const Dataset d = load("heart_scale/train.libsvm", Task::classification);
    return d;
}

std::unique_ptr<LpSvm> fit(const Dataset& d, const Params& given, const Context& ctx = Context{}) {
    auto m = make<LpSvm>(lp_svm_model_info(), given);
    m->fit(d, ctx);
    return m;
}

// 60 points in 3-d, labelled by the side of the plane x0 + 2 x1 = 0.5, points closer than
// 0.3 to it dropped (so a margin exists); x2 is noise.
Dataset separable() {
    Rng rng(3);
    std::vector<std::vector<double>> rows;
    std::vector<double> labels;
    while (rows.size() < 60) {
        const double a = rng.uniform(-2, 2), b = rng.uniform(-2, 2), c = rng.uniform(-2, 2);
        const double z = (a + 2 * b - 0.5) / std::sqrt(5.0);
        if (std::abs(z) < 0.3) continue;
        rows.push_back({a, b, c});
        labels.push_back(z > 0 ? 1.0 : 0.0);
    }
    Dataset d;
    d.task = Task::classification;
    d.classes = {"neg", "pos"};
    DenseMatrix X(60, 3);
    d.y.resize(60);
    for (Index i = 0; i < 60; ++i) {
        for (Index j = 0; j < 3; ++j) X(i, j) = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
        d.y[i] = labels[static_cast<std::size_t>(i)];
    }
    d.X = X;
    return d;
}

// ||w||₁ + C Σ c_i max(0, 1 - y_i f(x_i)).
double primal(const LpSvm& m, const Dataset& d, double C) {
    const Vector margin = plus_minus(d).cwiseProduct(m.decision_function(d.X).col(0));
    return m.coef().lpNorm<1>() + C * (1.0 - margin.array()).max(0.0).sum();
}

struct Reference {
    double C, objective, intercept;
    std::vector<double> coef;
};

// Printed by tests/unit/linear/make_lp_references.py: the primal LP (w = p - m, b free,
// slacks ξ) solved by scipy 1.10.1 linprog(method='highs') on heart_scale/train.csv.
const Reference references[] = {
    {1.0, 75.05235524648607, 0.8984333797600006,
     {0.0, 0.5231334821782544, 0.6598084807391269, 0.5547017486781395, 0.775500490744778, -0.2461607728749655,
      0.13095236332041943, -0.7427654078968526, 0.381861408693902, 0.22531291561610328, 0.3310915791565283,
      1.19401344551082, 0.45400660823996153}},
    {0.2, 18.290993779820052, 0.3764961109189916,
     {0.0, 0.2803608860182534, 0.5853442825598146, 0.0, 0.0, -0.007749326749943271, 0.08259746765900389,
      -0.3212666426826277, 0.3101823780572638, 0.09731262854455039, 0.22523017917111815, 1.0320776276352956,
      0.4249560269564499}},
};

}  // namespace

TEST_SUITE("linear") {

TEST_CASE("lp_svm: optimum and weights agree with scipy's HiGHS on the primal LP, dense and sparse") {
    for (const Dataset* d : {&heart_dense(), &heart_sparse()}) {
        for (const Reference& ref : references) {
            CAPTURE(ref.C);
            CAPTURE(d->X.is_sparse());
            const auto m = fit(*d, {{"C", ref.C}});
            CHECK(m->objective() == doctest::Approx(ref.objective).epsilon(1e-9));
            CHECK(primal(*m, *d, ref.C) == doctest::Approx(ref.objective).epsilon(1e-9));
            const Eigen::Map<const Vector> expected(ref.coef.data(), 13);
            CHECK(relative_error(m->coef(), expected) < 1e-7);
            CHECK(m->intercept() == doctest::Approx(ref.intercept).epsilon(1e-7));
        }
    }
}

TEST_CASE("lp_svm: on separable data with a large C it finds a separating halfspace") {
    const Dataset d = separable();
    const auto m = fit(d, {{"C", 1e4}});
    const Vector margin = plus_minus(d).cwiseProduct(m->decision_function(d.X).col(0));
    CHECK(margin.minCoeff() >= 1.0 - 1e-9);  // every point on its side, outside the margin
    CHECK(m->predict(d.X) == d.y);
    // The minimal ||w||₁ of a separating (w, b) with margin 1: no slack is used.
    CHECK(m->objective() == doctest::Approx(m->coef().lpNorm<1>()).epsilon(1e-12));
    // The noise feature is not needed.
    CHECK(std::abs(m->coef()[2]) < 1e-12);
}

TEST_CASE("lp_svm: a small C gives sparse weights") {
    const auto small = fit(heart_sparse(), {{"C", 0.05}});
    const auto large = fit(heart_sparse(), {{"C", 1.0}});
    const auto nonzeros = [](const Vector& w) { return (w.array().abs() > 1e-12).count(); };
    CHECK(nonzeros(small->coef()) <= 2);
    CHECK(nonzeros(large->coef()) >= 10);
    // make_lp_references.py, C = 0.05: optimum 6.275 (scipy HiGHS).
    CHECK(small->objective() == doctest::Approx(6.2749999999999995).epsilon(1e-9));
}

TEST_CASE("lp_svm: class weights scale each slack's cost, as repeated rows would") {
    const Dataset& d = heart_dense();
    std::vector<Index> repeated;
    for (Index i = 0; i < d.rows(); ++i) {
        repeated.push_back(i);
        if (d.y[i] > 0.5) repeated.push_back(i);  // class "1" twice
    }
    const auto weighted = fit(d, {{"C", 0.3}, {"class_weight", "1:2"}});
    const auto doubled = fit(d.subset(repeated), {{"C", 0.3}});
    CHECK(weighted->objective() == doctest::Approx(doubled->objective()).epsilon(1e-10));
    // Sample weights the same way.
    Dataset sw = d;
    sw.weights = (d.y.array() > 0.5).select(Vector::Constant(d.rows(), 2.0), Vector::Ones(d.rows()));
    CHECK(fit(sw, {{"C", 0.3}})->objective() == doctest::Approx(doubled->objective()).epsilon(1e-10));
}

TEST_CASE("lp_svm: dense and sparse inputs give identical models") {
    const auto a = fit(heart_dense(), {{"C", 0.5}});
    const auto b = fit(heart_sparse(), {{"C", 0.5}});
    CHECK(a->coef() == b->coef());
    CHECK(a->intercept() == b->intercept());
}

TEST_CASE("lp_svm: multiclass through one-vs-rest, save/load round trip identical") {
    ModelSpec spec;
    spec.model = "lp_svm";
    spec.params = Params{{"C", 10.0}};
    const Model m = Model::train(spec, iris(), Context{});
    const Vector p = m.predict(iris().X);
    CHECK((p.array() == iris().y.array()).cast<double>().mean() > 0.85);
    const std::string saved = m.to_json().dump();
    const Model back = Model::from_json(Json::parse(saved), "mem");
    CHECK(back.to_json().dump() == saved);
    CHECK(back.predict(iris().X) == p);
    CHECK(back.decision_function(iris().X) == m.decision_function(iris().X));
}

TEST_CASE("lp_svm: bad parameters are ParamErrors naming the parameter") {
    const auto rejects = [](const Params& p, const std::string& name) {
        try {
            make<LpSvm>(lp_svm_model_info(), p);
            FAIL("accepted " << p.dump());
        } catch (const ParamError& e) {
            CHECK(std::string(e.what()).find(name) != std::string::npos);
        }
    };
    rejects({{"C", 0.0}}, "C");
    rejects({{"C", -1.0}}, "C");
    rejects({{"max_iter", 0}}, "max_iter");
    auto m = make<LpSvm>(lp_svm_model_info(), {{"class_weight", "7:2"}});
    CHECK_THROWS_AS(m->fit(heart_dense(), Context{}), ParamError);
    auto r = make<LpSvm>(lp_svm_model_info(), Params::object());
    CHECK_THROWS_AS(r->fit(diabetes(), Context{}), UsageError);
}

}  // TEST_SUITE

}  // namespace unit_linear_lp_svm_test
}  // namespace
