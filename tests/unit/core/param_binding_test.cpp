#include <doctest/doctest.h>

#include <stdexcept>

#include "kestrel/core/error.hpp"
#include "kestrel/core/param_binding.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_core_param_binding_test {

using namespace kestrel;

namespace {

struct Sample : InterceptParams, IterationParams, ClassWeightParams {
    RealOrWord C;
    std::string solver;
    bool shrinking = false;
    int small = 0;
    Json base;
};

const ParamBinding<Sample>& sample_binding() {
    static const ParamBinding<Sample> binding{
        bind(&Sample::C, real_param("C", 1.0, "cost").range(0.0, std::nullopt).open_below().also({"auto"})),
        tol_param(1e-4, "tolerance", "scikit-learn tol", true),
        max_iter_param(100, "iterations", "scikit-learn max_iter"),
        bind(&Sample::solver, choice_param("solver", "dual", {"dual", "primal"}, "solver")),
        fit_intercept_param("learn b", "scikit-learn fit_intercept"),
        bind(&Sample::shrinking, bool_param("shrinking", true, "shrink").alias("h")),
        bind(&Sample::small, int_param("small", 7, "an int field")),
        class_weight_param("weights", "LIBLINEAR -wi"),
        bind(&Sample::base, model_param("base", "tree(max_depth=1)", "weak learner")),
    };
    return binding;
}

}  // namespace

TEST_SUITE("core.param_binding") {
    TEST_CASE("the spec lists the bound parameters in binding order, groups included") {
        std::vector<std::string> names;
        for (const ParamDef& d : sample_binding().spec().defs()) names.push_back(d.name);
        CHECK(names == std::vector<std::string>{"C", "tol", "max_iter", "solver", "fit_intercept", "shrinking", "small",
                                                "class_weight", "base"});
    }

    TEST_CASE("defaults are read into typed fields") {
        const Sample s = sample_binding().read(sample_binding().spec().resolve(Params::object(), "m"));
        CHECK(s.C.value == 1.0);
        CHECK(s.C.word.empty());
        CHECK(s.tol == 1e-4);
        CHECK(s.max_iter == 100);
        CHECK(s.solver == "dual");
        CHECK(s.fit_intercept == true);
        CHECK(s.shrinking == true);
        CHECK(s.small == 7);
        CHECK(s.class_weight.empty());
        CHECK(s.base["model"] == "tree");
        CHECK(s.base["params"]["max_depth"] == "1");
    }

    TEST_CASE("given values, words, aliases and text are typed by the spec then read") {
        const Params given = {{"C", "auto"}, {"max_iter", "1e3"}, {"fit_intercept", "0"}, {"h", "false"},
                              {"small", "2147483647"}, {"class_weight", "balanced"}, {"tol", "2^-10"}};
        const Sample s = sample_binding().read(sample_binding().spec().resolve(given, "m"));
        CHECK(s.C.is("auto"));
        CHECK(s.max_iter == 1000);
        CHECK(s.fit_intercept == false);
        CHECK(s.shrinking == false);
        CHECK(s.small == 2147483647);
        // Past int's range is an error naming the range (it saturated, and a long long field
        // such as max_iter wrapped where a model took it as int).
        Params big = given;
        big["small"] = "5000000000";
        CHECK_THROWS_WITH_AS(sample_binding().spec().resolve(big, "m"),
                             "parameter small=5000000000 of model m is out of range (valid: [-2147483648, 2147483647])",
                             ParamError);
        CHECK(s.class_weight == "balanced");
        CHECK(s.tol == 1.0 / 1024);
    }

    TEST_CASE("the shared groups declare their name, type, range and anchor once") {
        const ParamSpec& spec = sample_binding().spec();
        const ParamDef* tol = spec.find("tol");
        REQUIRE(tol);
        CHECK(tol->type == ParamType::real);
        CHECK(*tol->min == 0.0);
        CHECK(tol->min_open);
        CHECK(tol->anchor == "scikit-learn tol");
        const ParamDef* it = spec.find("max_iter");
        REQUIRE(it);
        CHECK(it->type == ParamType::integer);
        CHECK(*it->min == 1.0);
        CHECK_THROWS_AS(spec.resolve(Params{{"max_iter", 0}}, "m"), ParamError);
        CHECK_THROWS_AS(spec.resolve(Params{{"tol", 0}}, "m"), ParamError);
        const ParamDef* b = spec.find("fit_intercept");
        REQUIRE(b);
        CHECK(b->type == ParamType::boolean);
        CHECK(b->default_value == true);
        // A model whose max_iter takes 0 ("its own rule") says so.
        CHECK(*max_iter_param(0, "h", "a", 0.0).def.min == 0.0);
        CHECK_FALSE(tol_param(1e-5, "h", "a").def.min_open);
    }

    TEST_CASE("a declaration bound to a field of the wrong type is a programming error") {
        CHECK_THROWS_AS(bind(&Sample::shrinking, real_param("shrinking", 1.0, "x")), std::logic_error);
        CHECK_THROWS_AS(bind(&Sample::solver, int_param("solver", 1, "x")), std::logic_error);
        // A number with words needs RealOrWord; without declared words a RealOrWord is refused.
        CHECK_THROWS_AS(bind(&Sample::C, real_param("C", 1.0, "x")), std::logic_error);
        CHECK_NOTHROW(bind(&Sample::C, real_param("C", 1.0, "x").also({"auto"})));
    }
}

}  // namespace unit_core_param_binding_test
}  // namespace
