// A command resolves -m's parameters once (issue 16): the spec made from the command
// line carries the resolution, and everything that builds or asks the model uses it.
#include <doctest/doctest.h>

#include "common/cli.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace contract_resolved_params_test {

using namespace kestrel;

TEST_SUITE("contract") {
    TEST_CASE("the command line's spec carries one resolution of -m's parameters") {
        cli::ModelFlags flags;
        flags.model = "svc";
        flags.params = {"C=2", "kernel=linear"};
        const ModelSpec spec = flags.spec(cli::DataFlags{});
        REQUIRE(spec.resolved);
        CHECK(spec.resolved->model() == "svc");
        CHECK(spec.resolved->given() == spec.params);
        CHECK(spec.resolved->values().at("C") == 2.0);
        CHECK(spec.resolved->values().at("kernel") == "linear");
        CHECK(spec.resolved->values().contains("gamma"));  // defaults filled in
        // Asked again, the spec answers with the same resolution, not a new one.
        CHECK(resolved_params(spec) == spec.resolved);
    }

    TEST_CASE("a spec edited after its resolution is resolved again, with the edit") {
        ModelSpec spec;
        spec.model = "logistic";
        spec.params = {{"C", "0.5"}};
        resolve_params(spec);
        const auto first = spec.resolved;
        CHECK(resolved_params(spec) == first);
        spec.params["C"] = "4";
        const auto second = resolved_params(spec);
        CHECK(second != first);
        CHECK(second->values().at("C") == 4.0);
        spec.model = "ridge";
        spec.params = Params::object();
        CHECK(resolved_params(spec)->model() == "ridge");
    }

    TEST_CASE("a spec never resolved is resolved where it is used; bad values fail there") {
        ModelSpec spec;
        spec.model = "svc";
        spec.params = {{"C", "-1"}};
        CHECK_FALSE(spec.resolved);
        CHECK_THROWS_AS(resolved_params(spec), ParamError);
        CHECK_THROWS_AS(resolve_params(spec), ParamError);
        spec.model = "nosuch";
        CHECK_THROWS_AS(resolve_params(spec), UsageError);
    }

    TEST_CASE("the registry builds and answers from a resolution as from the given text") {
        const auto r = registry().resolve("svc", {{"probability", "true"}});
        CHECK(registry().capabilities(*r).predict_proba);
        CHECK(registry().create(*r)->params() == registry().create("svc", {{"probability", "true"}})->params());
    }
}

}  // namespace contract_resolved_params_test
}  // namespace
