// A natively multiclass model whose parameters make its solver binary (logistic
// penalty=l1, LIBLINEAR -s 6) trains k > 2 classes one-vs-rest by itself, as LIBLINEAR
// does, while its two-class model files stay those of the unwrapped model.
#include <doctest/doctest.h>

#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "model_fixtures.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_binary_solver_wraps_itself_test {

using namespace kestrel;

namespace {

Model train(const std::string& model, Params params, const Dataset& d) {
    ModelSpec spec;
    spec.model = model;
    spec.params = std::move(params);
    return Model::train(spec, d, Context{});
}

}  // namespace

TEST_CASE("logistic penalty=l1 on three classes trains one-vs-rest without being asked") {
    const Dataset d = test::blobs(90, 4, 3);
    const Model self = train("logistic", {{"penalty", "l1"}}, d);
    const Model asked = train("logistic", {{"penalty", "l1"}, {"multiclass", "ovr"}}, d);
    CHECK(self.predict(d.X) == asked.predict(d.X));
    CHECK(self.predict_proba(d.X) == asked.predict_proba(d.X));
    CHECK(self.to_json()["state"]["strategy"] == "ovr");
    CHECK(self.to_json()["state"]["members"].size() == 3);
    const Model back = Model::from_json(self.to_json(), "mem");
    CHECK(back.predict_proba(d.X) == self.predict_proba(d.X));
}

TEST_CASE("two-class logistic penalty=l1 keeps its unwrapped state") {
    const Dataset d = test::blobs(60, 4, 2);
    const Model m = train("logistic", {{"penalty", "l1"}}, d);
    const Json state = m.to_json()["state"];
    CHECK_FALSE(state.contains("strategy"));
    CHECK(state.contains("coef"));
    const std::string saved = m.to_json().dump();
    const Model back = Model::from_json(Json::parse(saved), "mem");
    CHECK(back.to_json().dump() == saved);
    CHECK(back.predict(d.X) == m.predict(d.X));
    CHECK(back.estimator().linear_weights() == m.estimator().linear_weights());
}

TEST_CASE("kernel_logistic solver=newton on three classes trains one-vs-rest") {
    const Dataset d = test::blobs(60, 3, 3);
    const Model self = train("kernel_logistic", {{"solver", "newton"}}, d);
    const Model asked = train("kernel_logistic", {{"solver", "newton"}, {"multiclass", "ovr"}}, d);
    CHECK(self.predict(d.X) == asked.predict(d.X));
}

}  // namespace unit_linear_binary_solver_wraps_itself_test
}  // namespace
