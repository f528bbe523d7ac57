// class_weight by label through the multiclass wrappers, and in the tree family.
#include <doctest/doctest.h>

#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/model.hpp"
#include "model_fixtures.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_multiclass_class_weight_members_test {

using namespace kestrel;

namespace {

Dataset with_class_weights_as_rows(Dataset d, const std::vector<double>& per_class) {
    d.weights.resize(d.rows());
    for (Index i = 0; i < d.rows(); ++i) d.weights[i] = per_class[static_cast<std::size_t>(d.y[i])];
    return d;
}

Model fit(const std::string& model, Params params, const Dataset& d) {
    ModelSpec spec;
    spec.model = model;
    spec.params = std::move(params);
    Context ctx;
    ctx.threads = 1;
    return Model::train(spec, d, ctx);
}

}  // namespace

TEST_SUITE("multiclass") {
    TEST_CASE("class_weight by label reaches the members of ovr / ovo / ecoc as row weights") {
        // linear_svm is binary-only: k = 3 goes through the one-vs-rest wrapper, whose
        // members see the classes {"rest", "member"}; the weights must still apply by label.
        const Dataset d = test::blobs(90, 3, 3);
        const Dataset weighted = with_class_weights_as_rows(d, {1.0, 4.0, 0.5});
        for (const char* strategy : {"auto", "ovr", "ovo", "ecoc"}) {
            CAPTURE(strategy);
            for (const char* model : {"linear_svm", "perceptron", "logistic"}) {
                CAPTURE(model);
                const Model by_label = fit(model, {{"multiclass", strategy}, {"class_weight", "c1:4,c2:0.5"}}, d);
                const Model by_rows = fit(model, {{"multiclass", strategy}}, weighted);
                if (std::string(model) == "logistic" && std::string(strategy) == "auto") {
                    // Native multinomial: the class weights are the model's own.
                    CHECK(by_label.decision_function(d.X).isApprox(by_rows.decision_function(d.X), 1e-8));
                    continue;
                }
                CHECK(by_label.to_json()["state"]["members"] == by_rows.to_json()["state"]["members"]);
            }
        }
    }

    TEST_CASE("class_weight through a wrapper: unknown labels still fail, balanced passes through") {
        const Dataset d = test::blobs(90, 3, 3);
        try {
            fit("linear_svm", {{"class_weight", "c9:2"}}, d);
            FAIL("expected ParamError");
        } catch (const ParamError& e) {
            CHECK(std::string(e.what()).find("class_weight") != std::string::npos);
            CHECK(std::string(e.what()).find("c0, c1, c2") != std::string::npos);
        }
        const Model balanced = fit("linear_svm", {{"class_weight", "balanced"}}, d);
        CHECK(balanced.to_json()["state"]["members"].size() == 3);
        // Two classes: the wrapper is direct and the labels are the user's.
        const Dataset two = test::blobs(60, 3, 2);
        CHECK_NOTHROW(fit("linear_svm", {{"multiclass", "ovr"}, {"class_weight", "c1:3"}}, two));
    }

    TEST_CASE("class_weight of tree, forest and adaboost multiplies the rows' sample weights") {
        const Dataset d = test::blobs(90, 3, 3);
        const Dataset weighted = with_class_weights_as_rows(d, {2.0, 1.0, 0.25});
        for (const char* model : {"tree", "forest", "adaboost"}) {
            CAPTURE(model);
            Params small = std::string(model) == "forest" ? Params{{"n_estimators", 5}} : Params::object();
            Params cw = small;
            cw["class_weight"] = "c0:2,c2:0.25";
            const Model a = fit(model, cw, d), b = fit(model, small, weighted);
            CHECK(a.to_json()["state"] == b.to_json()["state"]);
        }
        const Dataset reg = test::linear_regression(40, 2);
        CHECK_THROWS_AS(fit("tree", {{"class_weight", "balanced"}}, reg), ParamError);
    }
}

}  // namespace unit_multiclass_class_weight_members_test
}  // namespace
