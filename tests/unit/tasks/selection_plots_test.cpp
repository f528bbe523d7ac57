// The pictures of model selection (kestrel/tasks/selection_plots.hpp): what the heat map
// puts where, and its refusal of axes it cannot draw.
#include "kestrel/tasks/selection_plots.hpp"

#include <doctest/doctest.h>

#include "kestrel/core/error.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_selection_plots_test {

using namespace kestrel;

namespace {

GridAxis listed(const std::string& name, std::vector<std::string> values) {
    GridAxis a;
    a.name = name;
    a.kind = AxisKind::list;
    a.values = std::move(values);
    return a;
}

}  // namespace

TEST_SUITE("tasks") {
    TEST_CASE("grid_heatmap_svg: powers of two labelled 2^e, the metric in the title; other axes refused") {
        const std::vector<GridAxis> axes = {listed("C", {"0.25", "1", "4096"}), listed("gamma", {"0.5", "2"})};
        GridSearchResult r;
        r.metric = "accuracy";
        r.greater_is_better = true;
        const std::string svg = grid_heatmap_svg(r, axes, "svc on heart_scale");
        CHECK(svg.find("Grid search: mean accuracy (svc on heart_scale)") != std::string::npos);
        // C = 4096 among fractions: the row ticks read 2 with the exponent raised.
        CHECK(svg.find("2<tspan dy=\"-6\" font-size=\"9\">12</tspan>") != std::string::npos);
        CHECK(svg.find("2<tspan dy=\"-6\" font-size=\"9\">-2</tspan>") != std::string::npos);
        CHECK_THROWS_WITH_AS(grid_heatmap_svg(r, {axes[0]}, ""),
                             "a grid heat map needs two axes of listed values; this search has 1 axis", UsageError);
    }
}

}  // namespace unit_tasks_selection_plots_test
}  // namespace
