// What ModelInfo declares a model can do (Capabilities, refined by its parameters) must
// be what the estimators the registry makes answer: the commands ask the declaration,
// the fits ask the estimator (docs/architecture.md).
#include <doctest/doctest.h>

#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "model_fixtures.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace contract_capabilities_test {

using namespace kestrel;

namespace {

void check_agree(const std::string& name, const Params& given) {
    CAPTURE(name);
    CAPTURE(given.dump());
    const Capabilities declared = registry().capabilities(name, given);
    const auto e = registry().create(name, given);
    CHECK(e->has_decision_function() == declared.decision_function);
    CHECK(e->has_predict_proba() == declared.predict_proba);
    CHECK(e->supports_sparse() == declared.sparse_input);
    CHECK(e->supports_sample_weights() == declared.sample_weights);
    CHECK(e->absent_is_missing() == declared.absent_is_missing);
    CHECK(e->has_contributions() == declared.contributions);
    CHECK(e->watches_eval_sets() == declared.eval_sets);
    CHECK(e->stops_early() == declared.early_stopping);
    CHECK(e->continues_training() == declared.continue_training);
}

}  // namespace

TEST_SUITE("contract") {
    TEST_CASE("declared capabilities agree with every estimator the registry makes") {
        for (const auto& name : registry().names()) check_agree(name, Params::object());
        // Parameters that change an answer.
        check_agree("svc", {{"probability", "true"}});
        check_agree("nu_svc", {{"probability", "true"}});
        check_agree("adaboost", {{"base", "tree(max_depth=2)"}});
        check_agree("adaboost", {{"base", "logistic"}});
        check_agree("adaboost", {{"base", "gbdt(n_estimators=2)"}});
        check_agree("logistic", {{"penalty", "l1"}});
        check_agree("linear_svm", {{"multiclass", "ovo"}});
        check_agree("gbdt", {{"early_stopping_rounds", "5"}});
        // Every classifier in every generic wrapper: the wrapper answers (ecoc gives no
        // probabilities; no wrapper gives contributions or watches eval sets).
        for (const auto& name : registry().names())
            if (registry().info(name).is_classifier())
                for (const char* strategy : {"ovr", "ovo", "ecoc"}) check_agree(name, {{"multiclass", strategy}});
        check_agree("gbdt", {{"multiclass", "ovr"}, {"early_stopping_rounds", "5"}});
        check_agree("svc", {{"multiclass", "ecoc"}, {"probability", "true"}});
    }

    TEST_CASE("declared reports agree with every estimator the registry makes") {
        auto agree = [](const std::string& name, const Params& given) {
            CAPTURE(name);
            CAPTURE(given.dump());
            CHECK(registry().create(name, given)->report_names() == registry().reports(name, given));
        };
        for (const auto& name : registry().names()) agree(name, Params::object());
        agree("logistic", {{"C", "auto"}});
        agree("linear_svm", {{"C", "auto"}});
        agree("linear_svr", {{"C", "auto"}});
    }

    TEST_CASE("declared reports, by hand") {
        using Names = std::vector<std::string>;
        CHECK(registry().reports("logistic", Params::object()) == Names{});
        CHECK(registry().reports("logistic", {{"C", "auto"}}) == Names{"c_search"});
        CHECK(registry().reports("linear_svm", {{"C", "auto"}}) == Names{"c_search"});
        CHECK(registry().reports("lasso", Params::object()) == Names{"path"});
        CHECK(registry().reports("elastic_net", Params::object()) == Names{"path"});
        CHECK(registry().reports("gbdt", Params::object()) == Names{"trace", "tree"});
        CHECK(registry().reports("adaboost", Params::object()) == Names{"trace", "tree"});
        CHECK(registry().reports("tree", Params::object()) == Names{"tree"});
        CHECK(registry().reports("forest", Params::object()) == Names{"tree"});
        CHECK(registry().reports("svc", Params::object()) == Names{});
        CHECK(registry().reports("ridge", Params::object()) == Names{});
    }

    TEST_CASE("declared capabilities, by hand") {
        CHECK(registry().capabilities("svc", Params::object()).predict_proba == false);
        CHECK(registry().capabilities("svc", {{"probability", "true"}}).predict_proba == true);
        CHECK(registry().capabilities("nu_svc", Params::object()).sample_weights == false);
        CHECK(registry().capabilities("gbdt", Params::object()).absent_is_missing == true);
        CHECK(registry().capabilities("adaboost", Params::object()).sparse_input == true);  // a tree base
        CHECK(registry().capabilities("adaboost", {{"base", "gbdt(n_estimators=2)"}}).absent_is_missing == true);
        CHECK(registry().capabilities("knn", Params::object()).sample_weights == false);
        // A multiclass wrapper answers for the model: ECOC decodes member margins into
        // class scores and has no probabilities, whatever its members give.
        const Capabilities ecoc = registry().capabilities("logistic", {{"multiclass", "ecoc"}});
        CHECK(ecoc.predict_proba == false);
        CHECK(ecoc.decision_function == true);
        CHECK(registry().capabilities("logistic", {{"multiclass", "ovr"}}).predict_proba == true);
        CHECK(registry().capabilities("tree", {{"multiclass", "ecoc"}}).decision_function == true);
        CHECK(registry().capabilities("gbdt", {{"multiclass", "ovo"}}).contributions == false);
        CHECK(registry().capabilities("gbdt", Params::object()).contributions == true);
    }

    TEST_CASE("task labels: gbdt's ranking losses are ranking, every other model's regression is regression") {
        auto label = [](const std::string& name, const Params& given, Task task) {
            return registry().task_label(*registry().resolve(name, given), task);
        };
        CHECK(label("gbdt", {{"loss", "lambdarank"}}, Task::regression) == "ranking");
        CHECK(label("gbdt", {{"loss", "rank_pairwise"}}, Task::regression) == "ranking");
        CHECK(label("gbdt", {{"loss", "squared"}}, Task::regression) == "regression");
        CHECK(label("gbdt", Params::object(), Task::regression) == "regression");
        CHECK(label("gbdt", Params::object(), Task::classification) == "classification");
        for (const auto& name : registry().names()) {
            CAPTURE(name);
            for (Task task : registry().info(name).tasks) CHECK(label(name, Params::object(), task) == to_string(task));
        }
    }

    TEST_CASE("a tree fitted for regression gives no probabilities though its model declares them") {
        ModelSpec spec;
        spec.model = "tree";
        const Model m = Model::train(spec, test::linear_regression(40, 3), Context{});
        CHECK(registry().capabilities("tree", Params::object()).predict_proba);
        CHECK_FALSE(m.has_predict_proba());
    }
}

}  // namespace contract_capabilities_test
}  // namespace
