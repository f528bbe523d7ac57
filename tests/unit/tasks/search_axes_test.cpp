// The axes of a search without a grid (kestrel/tasks/search_axes.hpp): the model's
// declared space less what the spec fixes.
#include "kestrel/tasks/search_axes.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include "kestrel/model_selection/auto_search.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_search_axes_test {

using namespace kestrel;

namespace {

std::vector<std::string> axis_names(const std::vector<GridAxis>& axes) {
    std::vector<std::string> names;
    for (const auto& a : axes) names.push_back(a.name);
    return names;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

TEST_CASE("default_search_axes: the declared space less the spec's parameters and scaling") {
    ModelSpec spec;
    spec.model = "svc";
    const auto declared = axis_names(declared_axes("svc"));
    CHECK(axis_names(default_search_axes(spec)) == declared);
    REQUIRE(has(declared, "C"));
    spec.params["C"] = "1";
    const auto without_c = axis_names(default_search_axes(spec));
    CHECK_FALSE(has(without_c, "C"));
    CHECK(without_c.size() == declared.size() - 1);
    if (has(declared, "scale")) {
        spec.preprocessing = {"standard"};
        CHECK_FALSE(has(axis_names(default_search_axes(spec)), "scale"));
    }
}

}  // namespace unit_tasks_search_axes_test
}  // namespace
