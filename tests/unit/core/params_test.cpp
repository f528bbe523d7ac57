#include <doctest/doctest.h>

#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/core/params.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_core_params_test {

using namespace kestrel;

namespace {

ParamSpec sample_spec() {
    return ParamSpec{
        real_param("C", 1.0, "inverse regularization").range(0.0, std::nullopt).open_below(),
        real_param("gamma", 0.0, "kernel width").range(0.0, std::nullopt).also({"scale", "median"}),
        int_param("max_iter", 100, "iterations").range(1, 1000000),
        bool_param("shrinking", true, "shrinking heuristic"),
        choice_param("solver", "auto", {"auto", "cholesky", "dual"}, "solver"),
        text_param("class_weight", "", "class weights"),
        model_param("base", "tree(max_depth=1)", "weak learner"),
    };
}

}  // namespace

TEST_SUITE("core.params") {
    TEST_CASE("defaults fill every parameter") {
        const Params p = sample_spec().resolve(Params::object(), "m");
        CHECK(p["C"].get<double>() == 1.0);
        CHECK(p["max_iter"].get<long long>() == 100);
        CHECK(p["shrinking"].get<bool>() == true);
        CHECK(p["solver"] == "auto");
        CHECK(p["base"]["model"] == "tree");
        CHECK(p["base"]["params"]["max_depth"] == "1");
    }

    TEST_CASE("text values are typed by the spec") {
        Params given = {{"C", "2^-5"}, {"max_iter", "1e3"}, {"shrinking", "0"}, {"gamma", "median"}, {"solver", "dual"}};
        const Params p = sample_spec().resolve(given, "m");
        CHECK(p["C"].get<double>() == 0.03125);
        CHECK(p["max_iter"].get<long long>() == 1000);
        CHECK(p["shrinking"].get<bool>() == false);
        CHECK(p["gamma"] == "median");
        CHECK(p["solver"] == "dual");
    }

    TEST_CASE("resolving twice is idempotent (model files re-resolve saved params)") {
        Params given = {{"C", "0.5"}, {"base", "tree(max_depth=3)"}};
        const Params once = sample_spec().resolve(given, "m");
        CHECK(sample_spec().resolve(once, "m") == once);
    }

    TEST_CASE("unknown names list the valid ones") {
        try {
            sample_spec().resolve(Params{{"c", "1"}}, "svc");
            FAIL("expected ParamError");
        } catch (const ParamError& e) {
            const std::string m = e.what();
            CHECK(m.find("unknown parameter 'c'") != std::string::npos);
            CHECK(m.find("valid: C, gamma, max_iter, shrinking, solver, class_weight, base") != std::string::npos);
            CHECK(e.code() == ExitCode::usage);
        }
    }

    TEST_CASE("ranges, choices and types are checked") {
        const auto spec = sample_spec();
        CHECK_THROWS_WITH_AS(spec.resolve(Params{{"C", "0"}}, "svc"),
                             "parameter C=0 of model svc is out of range (valid: > 0)", ParamError);
        CHECK_THROWS_AS(spec.resolve(Params{{"C", "-1"}}, "svc"), ParamError);
        CHECK_THROWS_AS(spec.resolve(Params{{"max_iter", "2.5"}}, "svc"), ParamError);
        CHECK_THROWS_AS(spec.resolve(Params{{"max_iter", "0"}}, "svc"), ParamError);
        CHECK_THROWS_AS(spec.resolve(Params{{"solver", "qr"}}, "svc"), ParamError);
        CHECK_THROWS_AS(spec.resolve(Params{{"shrinking", "maybe"}}, "svc"), ParamError);
        CHECK_THROWS_AS(spec.resolve(Params{{"gamma", "wide"}}, "svc"), ParamError);
        CHECK_THROWS_AS(spec.resolve(Params{{"C", "1,5"}}, "svc"), ParamError);  // decimal comma is not a number
    }

    TEST_CASE("nested model parameters by dotted names") {
        const Params p = sample_spec().resolve(Params{{"base.max_depth", "4"}, {"base.criterion", "gini"}}, "adaboost");
        CHECK(p["base"]["model"] == "tree");
        CHECK(p["base"]["params"]["max_depth"] == "4");
        CHECK(p["base"]["params"]["criterion"] == "gini");
        CHECK_THROWS_AS(sample_spec().resolve(Params{{"C.x", "1"}}, "m"), ParamError);
    }

    TEST_CASE("an alias resolves to the parameter's own name") {
        ParamSpec spec{real_param("epsilon", 1.35, "threshold").range(1.0, std::nullopt).alias("delta")};
        CHECK(spec.find("delta") == spec.find("epsilon"));
        const Params p = spec.resolve(Params{{"delta", "2"}}, "huber");
        CHECK(p["epsilon"].get<double>() == 2.0);
        CHECK_FALSE(p.contains("delta"));
        CHECK(spec.resolve(p, "huber") == p);  // a saved model re-resolves to the same params
        CHECK_THROWS_WITH_AS(spec.resolve(Params{{"delta", 0.5}}, "huber"), doctest::Contains("epsilon"), ParamError);
        CHECK_THROWS_WITH_AS(spec.resolve(Params{{"delta", 2.0}, {"epsilon", 2.0}}, "huber"),
                             doctest::Contains("same parameter"), ParamError);
        CHECK(spec.help_text().find("also called delta") != std::string::npos);
        CHECK(spec.markdown_table().find("| `epsilon` (`delta`) |") != std::string::npos);
    }

    TEST_CASE("model specs parse with nesting") {
        const Json j = parse_model_spec("forest(base=tree(max_depth=3,criterion=gini), n_estimators=10)");
        CHECK(j["model"] == "forest");
        CHECK(j["params"]["base"] == "tree(max_depth=3,criterion=gini)");
        CHECK(j["params"]["n_estimators"] == "10");
        CHECK(parse_model_spec("stump")["params"].empty());
        CHECK_THROWS_AS(parse_model_spec("tree(max_depth=3"), ParamError);
    }

    TEST_CASE("help and markdown come from the same declaration") {
        const auto spec = sample_spec();
        const auto help = spec.help_text();
        CHECK(help.find("max_iter") != std::string::npos);
        CHECK(help.find("valid [1, 1000000]") != std::string::npos);
        CHECK(spec.markdown_table().find("| `solver` | choice | `auto` |") != std::string::npos);
    }

    TEST_CASE("numbers as text") {
        CHECK(parse_number_text("2^-5").value() == 0.03125);
        CHECK(parse_number_text("10^3").value() == 1000.0);
        CHECK(parse_number_text(" 1e-3 ").value() == 0.001);
        CHECK(parse_number_text("+4").value() == 4.0);
        CHECK_FALSE(parse_number_text("abc"));
        CHECK_FALSE(parse_number_text("1.5x"));
        CHECK_FALSE(parse_number_text("inf"));
        CHECK_FALSE(parse_number_text("nan"));
        CHECK(format_number(0.1) == "0.1");
        CHECK(format_number(3.0) == "3");
        CHECK(parse_number_text(format_number(0.1 + 0.2)).value() == 0.1 + 0.2);  // shortest exact round trip
    }

    TEST_CASE("split_assignment") {
        CHECK(split_assignment("C=1").first == "C");
        CHECK(split_assignment("kernel=a=b").second == "a=b");
        CHECK_THROWS_AS(split_assignment("C"), UsageError);
        CHECK_THROWS_AS(split_assignment("=1"), UsageError);
    }

    TEST_CASE("params_from_assignments: raw string values in one object; a name twice refused") {
        CHECK(params_from_assignments({"C=1", "kernel=rbf", "base=tree(max_depth=1)"}).dump() ==
              R"j({"C":"1","base":"tree(max_depth=1)","kernel":"rbf"})j");
        CHECK(params_from_assignments({}).is_object());
        CHECK_THROWS_WITH_AS(params_from_assignments({"C=1", "C=2"}), "parameter C given twice", UsageError);
        CHECK_THROWS_WITH_AS(params_from_assignments({"C"}), "expected name=value, got 'C'", UsageError);
    }
}

}  // namespace unit_core_params_test
}  // namespace
