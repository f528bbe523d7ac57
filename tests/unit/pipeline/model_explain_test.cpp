// Model::explain_rows and check_explains_rows: a row's path through a tree model, and the
// list of the models that give one, asked of the registry (Capabilities::explains_rows)
// rather than written out where a new tree model would leave it stale.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_pipeline_model_explain_test {

using namespace kestrel;

namespace {

// One feature; the classes part at x = 2.5, so a stump splits there.
Model stump(const std::string& model, const Params& params) {
    const char* csv = "x,label\n1,a\n2,a\n3,b\n4,b\n";
    ModelSpec spec;
    spec.model = model;
    spec.params = params;
    return Model::train(spec, make_dataset(read_table_from_buffer(csv, "t.csv", ReadOptions{}), Task::classification),
                        Context{});
}

}  // namespace

TEST_SUITE("pipeline.model_explain") {
    TEST_CASE("the models that explain rows come from the registry's capabilities") {
        CHECK(registry().names_with(&Capabilities::explains_rows) == std::vector<std::string>{"adaboost", "forest", "tree"});
        // adaboost explains through its weak learner; a wrapped tree is not explained.
        CHECK(registry().capabilities("adaboost", Params::object()).explains_rows);
        CHECK_FALSE(registry().capabilities("adaboost", {{"base", "logistic"}}).explains_rows);
        CHECK_FALSE(registry().capabilities("tree", {{"multiclass", "ovr"}}).explains_rows);
        CHECK_FALSE(registry().capabilities("logistic", Params::object()).explains_rows);
    }

    TEST_CASE("a row's path: the predicted label, then the split and the leaf") {
        const Model m = stump("tree", {{"max_depth", 1}});
        m.check_explains_rows();
        const Features X = DenseMatrix{{1.0}, {4.0}};
        const std::string text = m.explain_rows(X, m.predict(X));
        CHECK(text ==
              "row 1: predicted a\n"
              "  x = 1 <= 2.5 -> left\n"
              "  leaf 1: class: a [2, 0] (samples=2, impurity=0)\n"
              "row 2: predicted b\n"
              "  x = 4 >  2.5 -> right\n"
              "  leaf 2: class: b [0, 2] (samples=2, impurity=0)\n");
    }

    TEST_CASE("a model that explains no rows is refused, naming those that do") {
        const Model m = stump("logistic", Params::object());
        CHECK_THROWS_WITH_AS(m.check_explains_rows(), "explain: model logistic is not a tree model (valid: adaboost, forest, tree)",
                             UsageError);
    }
}  // TEST_SUITE

}  // namespace unit_pipeline_model_explain_test
}  // namespace
