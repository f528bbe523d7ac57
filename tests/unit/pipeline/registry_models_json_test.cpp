// Registry::models_json: the model list every front end gives, equal to kestrel-train
// --list-models --json.
#include <doctest/doctest.h>

#include "cli/run_in_process.hpp"
#include "common/commands.hpp"
#include "kestrel/pipeline/registry.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_pipeline_registry_models_json_test {

using namespace kestrel;

TEST_SUITE("pipeline") {
    TEST_CASE("models_json: every registered model by name, with its summary and tasks, as the command lists them") {
        const Json list = registry().models_json();
        REQUIRE(list.size() == registry().names().size());
        CHECK(list.size() == 25);
        for (std::size_t i = 1; i < list.size(); ++i) CHECK(list[i - 1].at("name") < list[i].at("name"));
        const auto gbdt = std::find_if(list.begin(), list.end(), [](const Json& m) { return m.at("name") == "gbdt"; });
        REQUIRE(gbdt != list.end());
        CHECK(gbdt->at("tasks") == Json::array({"classification", "regression"}));
        CHECK(gbdt->at("summary") == registry().info("gbdt").summary);

        const auto command = test::run(cli::run_train, "kestrel-train", {"--list-models", "--json"});
        REQUIRE(command.code == 0);
        CHECK(command.out == list.dump(2) + "\n");
    }
}

}  // namespace unit_pipeline_registry_models_json_test
}  // namespace
