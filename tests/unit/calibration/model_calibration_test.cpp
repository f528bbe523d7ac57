// Model::train with --calibrate: what the model stores and how it predicts with it.
#include <doctest/doctest.h>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"
#include "model_fixtures.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_calibration_model_calibration_test {

using namespace kestrel;

namespace {

Dataset bundled(const std::string& name) {
    return make_dataset(read_table(test::repo_path("data/" + name + "/train.libsvm"), ReadOptions{}),
                        Task::classification);
}
Features bundled_test(const std::string& name) {
    return read_table(test::repo_path("data/" + name + "/test.libsvm"), ReadOptions{}).X;
}

ModelSpec spec(const std::string& model, const std::string& method) {
    ModelSpec s;
    s.model = model;
    s.calibrate = method;
    return s;
}

Vector argmax_rows(const Matrix& p) {
    Vector v(p.rows());
    for (Index i = 0; i < p.rows(); ++i) p.row(i).maxCoeff(&v.coeffRef(i));
    return v;
}

}  // namespace

TEST_SUITE("calibration") {

TEST_CASE("model calibration: binary sigmoid maps the stored model's decision values") {
    const Dataset d = bundled("heart_scale");
    const Features X = bundled_test("heart_scale");
    const Model m = Model::train(spec("logistic", "sigmoid"), d, Context{});
    REQUIRE(m.calibration());
    CHECK(m.calibration()->method() == "sigmoid");
    CHECK(m.calibration()->n_columns() == 1);
    const Matrix decision = m.decision_function(X);
    REQUIRE(decision.cols() == 1);
    CHECK(m.calibration_scores(X) == decision);  // logistic has decision values: they are the scores
    const Matrix p = m.predict_proba(X);
    CHECK(p == m.calibration()->probabilities(decision));
    CHECK(m.predict(X) == argmax_rows(p));
    // The uncalibrated model is the same fit on all rows: only the probabilities change.
    const Model plain = Model::train(spec("logistic", ""), d, Context{});
    CHECK(plain.decision_function(X) == decision);
    CHECK(plain.predict_proba(X) != p);
}

TEST_CASE("model calibration: multiclass isotonic rows sum to 1; a model with probabilities only") {
    const Dataset d = bundled("iris");
    const Features X = bundled_test("iris");
    for (const char* model : {"logistic", "forest"}) {
        const Model m = Model::train(spec(model, "isotonic"), d, Context{});
        REQUIRE(m.calibration());
        CHECK(m.calibration()->n_columns() == 3);
        const Matrix p = m.predict_proba(X);
        for (Index i = 0; i < p.rows(); ++i) CHECK(p.row(i).sum() == doctest::Approx(1.0).epsilon(1e-12));
        CHECK(p.minCoeff() >= 0.0);
        CHECK(m.predict(X) == argmax_rows(p));
        CHECK(p == m.calibration()->probabilities(m.calibration_scores(X)));
    }
    // forest has no decision values: its calibration scores are its probabilities.
    const Model f = Model::train(spec("forest", "sigmoid"), d, Context{});
    CHECK(f.calibration_scores(X) == f.estimator().predict_proba(f.prepared(X)));
}

TEST_CASE("model calibration: save/load gives identical probabilities; the file is version 4") {
    const Dataset d = bundled("heart_scale");
    const Features X = bundled_test("heart_scale");
    for (const char* method : {"sigmoid", "isotonic"}) {
        const Model m = Model::train(spec("logistic", method), d, Context{});
        const Json j = m.to_json();
        CHECK(j.at("version") == 4);
        CHECK(j.at("calibration").at("method") == method);
        CHECK(j.at("calibration").at("folds") == 5);
        const Model back = Model::from_json(Json::parse(j.dump()), "round-trip");
        CHECK(back.predict_proba(X) == m.predict_proba(X));
        CHECK(back.predict(X) == m.predict(X));
    }
    // Without calibration the file keeps its old version (a tree's: a linear model's file
    // is version 4 anyway, for its feature_mean).
    CHECK(Model::train(spec("tree", ""), d, Context{}).to_json().at("version") == 1);
}

TEST_CASE("model calibration: the same at 1 and 2 threads; the seed picks the folds") {
    const Dataset d = bundled("iris");
    const Features X = bundled_test("iris");
    Context one, two;
    one.threads = 1;
    two.threads = 2;
    ModelSpec s = spec("forest", "sigmoid");
    s.params = Json{{"n_estimators", "20"}};
    CHECK(Model::train(s, d, one).predict_proba(X) == Model::train(s, d, two).predict_proba(X));
}

TEST_CASE("model calibration: a threshold on proba compares the calibrated P(classes[1])") {
    const Dataset d = bundled("heart_scale");
    const Features X = bundled_test("heart_scale");
    Model m = Model::train(spec("logistic", "sigmoid"), d, Context{});
    CHECK(m.threshold_score() == "proba");
    m.set_threshold(DecisionThreshold{0.3, "proba", "user"});
    const Matrix p = m.predict_proba(X);
    CHECK(m.predict(X) == (p.col(1).array() > 0.3).cast<double>().matrix());
}

TEST_CASE("model calibration: refused for regression, for too few rows of a class, on a bad file") {
    CHECK_THROWS_AS(Model::train(spec("ridge", "sigmoid"), test::linear_regression(30, 2), Context{}), UsageError);
    ModelSpec s = spec("logistic", "sigmoid");
    s.calibrate_folds = 50;  // iris's training file has fewer than 50 rows of a class
    CHECK_THROWS_AS(Model::train(s, bundled("iris"), Context{}), UsageError);
    CHECK_THROWS_AS(Model::train(spec("logistic", "platt"), bundled("iris"), Context{}), UsageError);
    Json j = Model::train(spec("logistic", "sigmoid"), bundled("heart_scale"), Context{}).to_json();
    j["calibration"]["classes"] = 3;
    CHECK_THROWS_AS(Model::from_json(j, "bad"), ModelFileError);
}

}  // TEST_SUITE

}  // namespace unit_calibration_model_calibration_test
}  // namespace
