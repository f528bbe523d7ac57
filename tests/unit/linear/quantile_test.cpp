#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/linear/quantile.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_quantile_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

std::unique_ptr<QuantileRegression> fit(const ModelInfo& info, const Dataset& d, const Params& given,
                                        const Context& ctx = Context{}) {
    auto m = make<QuantileRegression>(info, given);
    m->fit(d, ctx);
    return m;
}

struct Reference {
    double q, alpha;
    bool fit_intercept;
    double objective, intercept;
    std::vector<double> coef;
};

// Printed by tests/unit/linear/make_lp_references.py: scikit-learn 1.2.1 (scipy 1.10.1)
// QuantileRegressor(quantile=q, alpha=alpha, fit_intercept=..., solver='highs') on
// diabetes/train.scaled.csv; objective = mean pinball loss + alpha ||w||₁. Each LP optimum
// is unique (highs and highs-ipm agree exactly).
const Reference references[] = {
    {0.5, 0.0, true, 21.58652118785833, 201.18258289988728,
     {6.121301707675647, -14.977051233128664, 59.46383177495736, 56.32543584529736, -123.29040829950664,
      60.502394944913114, 31.500118461927443, 56.874522028538, 88.10947221507391, 3.614875794236634}},
    {0.9, 0.0, true, 9.119660467023051, 285.86380664661124,
     {-0.30606618888083476, -15.852640165428365, 57.87910168626127, 70.37520158024927, -219.49178010042263,
      201.48359507316553, 47.97539735190667, 28.470849327066578, 111.37746737628369, 27.991611330934315}},
    {0.5, 0.01, true, 24.153375598585352, 157.78165932476855,
     {0.0, -12.056860757752423, 58.75233572445287, 40.60710962572588, -7.263360251603924, 0.0, -32.47939849360317,
      0.0, 56.276628618663004, 3.121693708624993}},
    {0.9, 0.03, true, 13.668797442489552, 270.03702893911174,
     {0.0, 0.0, 51.111317159239675, 0.7109937578861504, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
    {0.25, 0.0, false, 17.41442691826654, 0.0,
     {16.1703043794275, -10.029919593476654, 52.976563334133004, 21.61395933241275, 288.0654580631958,
      -265.06063944473834, -222.84109676442927, -94.09902751093958, -36.54030745513504, -5.389837116728751}},
};

double pinball(double r, double q) { return r >= 0 ? q * r : (q - 1) * r; }

// One-sided derivative of Σ s_i ρ_q(y_i - x_iᵀw - b) + λ||w||₁ at (w, b) in the direction
// (dw, db); residuals and weights within `zero` of 0 count as kinks.
double directional_derivative(const Dataset& d, const Vector& w, double b, const Vector& dw, double db, double q,
                              double lambda, double zero) {
    const DenseMatrix X = d.X.to_dense();
    double total = 0;
    for (Index i = 0; i < d.rows(); ++i) {
        const double r = d.y[i] - X.row(i).dot(w) - b;
        const double dr = -(X.row(i).dot(dw) + db);
        const bool up = std::abs(r) <= zero ? dr > 0 : r > 0;
        total += d.weight(i) * (up ? q * dr : (q - 1) * dr);
    }
    for (Index j = 0; j < w.size(); ++j)
        total += lambda * (std::abs(w[j]) <= zero ? std::abs(dw[j]) : (w[j] > 0 ? dw[j] : -dw[j]));
    return total;
}

}  // namespace

TEST_SUITE("linear") {

TEST_CASE("quantile: agrees with scikit-learn 1.2.1 QuantileRegressor(solver='highs'), dense and sparse") {
    for (const Dataset* d : {&diabetes_scaled(), &diabetes_scaled_libsvm()}) {
        for (const Reference& ref : references) {
            CAPTURE(ref.q);
            CAPTURE(ref.alpha);
            CAPTURE(d->X.is_sparse());
            const auto m = fit(quantile_model_info(), *d,
                               {{"quantile", ref.q}, {"alpha", ref.alpha}, {"fit_intercept", ref.fit_intercept}});
            CHECK(std::abs(m->objective() - ref.objective) <= 1e-9 * ref.objective);
            const Eigen::Map<const Vector> expected(ref.coef.data(), 10);
            CHECK(relative_error(m->coef(), expected) < 1e-7);
            CHECK(std::abs(m->intercept() - ref.intercept) < 1e-7 * std::max(1.0, std::abs(ref.intercept)));
        }
    }
}

TEST_CASE("quantile: a large alpha gives the all-zero model at the weighted quantile of y (scikit-learn)") {
    // make_lp_references.py: QuantileRegressor(quantile=0.5, alpha=0.1) -> coef 0, intercept 142.0,
    // objective 32.82011331444759; quantile=0.9, alpha=1.0 -> intercept 270.0, objective 14.079603399433426.
    const auto m5 = fit(quantile_model_info(), diabetes_scaled(), {{"quantile", 0.5}, {"alpha", 0.1}});
    CHECK(m5->coef().cwiseAbs().maxCoeff() < 1e-12);
    CHECK(m5->intercept() == doctest::Approx(142.0).epsilon(1e-12));
    CHECK(m5->objective() == doctest::Approx(32.82011331444759).epsilon(1e-12));
    const auto m9 = fit(quantile_model_info(), diabetes_scaled(), {{"quantile", 0.9}, {"alpha", 1.0}});
    CHECK(m9->coef().cwiseAbs().maxCoeff() < 1e-12);
    CHECK(m9->intercept() == doctest::Approx(270.0).epsilon(1e-12));
    CHECK(m9->objective() == doctest::Approx(14.079603399433426).epsilon(1e-12));
}

TEST_CASE("lad: minimises Σ|y - Xw - b|, the quantile fit at q = 0.5, alpha = 0") {
    const auto lad = fit(lad_model_info(), diabetes_scaled_libsvm(), Params::object());
    const Reference& ref = references[0];
    const Eigen::Map<const Vector> expected(ref.coef.data(), 10);
    CHECK(relative_error(lad->coef(), expected) < 1e-7);
    CHECK(lad->intercept() == doctest::Approx(ref.intercept).epsilon(1e-9));
    // The mean pinball loss at q = 0.5 is half the mean absolute deviation.
    const Vector r = diabetes_scaled_libsvm().y - lad->predict(diabetes_scaled_libsvm().X);
    CHECK(r.cwiseAbs().mean() == doctest::Approx(2 * ref.objective).epsilon(1e-9));
    CHECK(lad->objective() == doctest::Approx(ref.objective).epsilon(1e-9));
}

TEST_CASE("quantile: subgradient optimality at the solution, and the fraction of points above the fit") {
    const Dataset& d = diabetes_scaled();
    for (const auto& [q, alpha] : std::vector<std::pair<double, double>>{{0.9, 0.0}, {0.3, 0.002}, {0.7, 0.005}}) {
        CAPTURE(q);
        CAPTURE(alpha);
        const auto m = fit(quantile_model_info(), d, {{"quantile", q}, {"alpha", alpha}});
        const double lambda = alpha * static_cast<double>(d.rows());
        // No coordinate direction (w_j or b, either sign) decreases the objective.
        for (Index k = 0; k <= d.cols(); ++k) {
            for (double sign : {1.0, -1.0}) {
                Vector dw = Vector::Zero(d.cols());
                double db = 0;
                (k < d.cols() ? dw[k] : db) = sign;
                CHECK(directional_derivative(d, m->coef(), m->intercept(), dw, db, q, lambda, 1e-8) >= -1e-7);
            }
        }
        // The objective as reported.
        const Vector r = d.y - m->predict(d.X);
        double loss = 0;
        for (Index i = 0; i < r.size(); ++i) loss += pinball(r[i], q);
        CHECK(loss / static_cast<double>(r.size()) + alpha * m->coef().lpNorm<1>() ==
              doctest::Approx(m->objective()).epsilon(1e-10));
        // With an intercept, at most a fraction 1 - q of the points lie strictly above the
        // fit and at most q strictly below (the intercept's subgradient condition).
        const double above = (r.array() > 1e-8).cast<double>().mean();
        const double below = (r.array() < -1e-8).cast<double>().mean();
        CHECK(above <= 1 - q + 1e-12);
        CHECK(below <= q + 1e-12);
    }
}

TEST_CASE("quantile: dense and sparse inputs give identical models") {
    for (double q : {0.5, 0.8}) {
        const Params p{{"quantile", q}, {"alpha", 0.001}};
        const auto a = fit(quantile_model_info(), diabetes_scaled(), p);
        const auto b = fit(quantile_model_info(), diabetes_scaled_libsvm(), p);
        CHECK(a->coef() == b->coef());
        CHECK(a->intercept() == b->intercept());
    }
}

TEST_CASE("quantile: integer sample weights equal repeated rows") {
    const Dataset& base = diabetes_scaled();
    std::vector<Index> first, repeated;
    for (Index i = 0; i < 60; ++i) first.push_back(i);
    Dataset w = base.subset(first);
    w.weights = Vector(60);
    for (Index i = 0; i < 60; ++i) {
        w.weights[i] = static_cast<double>(1 + i % 3);
        for (Index k = 0; k <= i % 3; ++k) repeated.push_back(i);
    }
    const Dataset rep = base.subset(repeated);
    const Params p{{"quantile", 0.7}, {"alpha", 0.01}};
    const auto a = fit(quantile_model_info(), w, p);
    const auto b = fit(quantile_model_info(), rep, p);
    CHECK(a->objective() == doctest::Approx(b->objective()).epsilon(1e-10));
    CHECK(relative_error(a->coef(), b->coef()) < 1e-8);
}

TEST_CASE("quantile and lad: save/load round trip gives identical predictions") {
    for (const std::string name : {"quantile", "lad"}) {
        ModelSpec spec;
        spec.model = name;
        if (name == "quantile") spec.params = Params{{"quantile", 0.8}, {"alpha", 0.001}};
        const Model m = Model::train(spec, diabetes_scaled_libsvm(), Context{});
        const std::string saved = m.to_json().dump();
        const Model back = Model::from_json(Json::parse(saved), "mem");
        CHECK(back.to_json().dump() == saved);
        CHECK(m.predict(diabetes_scaled().X) == back.predict(diabetes_scaled().X));
    }
}

TEST_CASE("quantile: max_iter reached is a warning with a usable model") {
    std::string warnings;
    Context ctx;
    ctx.warn = [&warnings](const std::string& w) { warnings += w; };
    const auto m =
        fit(quantile_model_info(), diabetes_scaled(), {{"quantile", 0.9}, {"alpha", 0.0}, {"max_iter", 3}}, ctx);
    CHECK(warnings.find("max_iter=3") != std::string::npos);
    CHECK(m->predict(diabetes_scaled().X).allFinite());
}

TEST_CASE("quantile and lad: bad parameters are ParamErrors naming the parameter") {
    const auto rejects = [](const ModelInfo& info, const Params& p, const std::string& name) {
        try {
            make<QuantileRegression>(info, p);
            FAIL("accepted " << p.dump());
        } catch (const ParamError& e) {
            CHECK(std::string(e.what()).find(name) != std::string::npos);
        }
    };
    rejects(quantile_model_info(), {{"quantile", 0.0}}, "quantile");
    rejects(quantile_model_info(), {{"quantile", 1.0}}, "quantile");
    rejects(quantile_model_info(), {{"quantile", 1.5}}, "quantile");
    rejects(quantile_model_info(), {{"alpha", -0.1}}, "alpha");
    rejects(quantile_model_info(), {{"max_iter", 0}}, "max_iter");
    rejects(lad_model_info(), {{"alpha", 1.0}}, "alpha");  // lad has no penalty
    // Classification data is a usage error.
    auto m = make<QuantileRegression>(lad_model_info(), Params::object());
    CHECK_THROWS_AS(m->fit(iris(), Context{}), UsageError);
}

}  // TEST_SUITE

}  // namespace unit_linear_quantile_test
}  // namespace
