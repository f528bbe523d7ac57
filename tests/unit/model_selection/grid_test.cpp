#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "command_error.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/model_selection/grid.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_model_selection_grid_test {

using namespace kestrel;
using Strings = std::vector<std::string>;

TEST_SUITE("model_selection") {

TEST_CASE("grid: lists of numbers and words, spaces trimmed") {
    auto a = parse_grid_axis("C=0.1,1, 10");
    CHECK(a.name == "C");
    CHECK(a.values == Strings{"0.1", "1", "10"});
    CHECK(parse_grid_axis("kernel=rbf,linear").values == Strings{"rbf", "linear"});
    CHECK(parse_grid_axis("alpha=2^-5").values == Strings{"2^-5"});  // a one-value list, typed later
}

TEST_CASE("grid: commas inside a nested model spec do not split the list") {
    auto a = parse_grid_axis("base=tree(max_depth=3,min_samples_leaf=2),tree(max_depth=5)");
    CHECK(a.name == "base");
    CHECK(a.values == Strings{"tree(max_depth=3,min_samples_leaf=2)", "tree(max_depth=5)"});
    CHECK(parse_grid_axis("base.C=1,2").name == "base.C");
}

TEST_CASE("grid: constraint values keep their commas; braces quote a value holding ':' or ','") {
    // gbdt's monotone_constraints and interaction_constraints (issue 19).
    CHECK(parse_grid_axis("monotone_constraints=(1,0,-1),(0,0,1)").values == Strings{"(1,0,-1)", "(0,0,1)"});
    CHECK(parse_grid_axis("interaction_constraints=[[0,1],[2,3]], [[0,1,2,3]]").values ==
          Strings{"[[0,1],[2,3]]", "[[0,1,2,3]]"});
    CHECK(parse_grid_axis("monotone={price:-1,age:1},{price:-1}, ()").values == Strings{"price:-1,age:1", "price:-1", "()"});
    CHECK(parse_grid_axis("monotone=choice({price:-1,age:1},(1,0))").values == Strings{"price:-1,age:1", "(1,0)"});
    CHECK(parse_grid_axis("eval_metric={auc,logloss},logloss").values == Strings{"auc,logloss", "logloss"});
    // Without braces a name:sign value reads as a range, and the error says what to write.
    CHECK_THROWS_WITH_AS(parse_grid_axis("monotone=price:-1,age:1"),
                         doctest::Contains("goes in braces: {price:-1,age:1}"), UsageError);
}

TEST_CASE("grid: linear ranges include the stop and print without drift") {
    CHECK(parse_grid_axis("C=0.1:1:0.1").values ==
          Strings{"0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1"});
    CHECK(parse_grid_axis("x=1:2:0.5").values == Strings{"1", "1.5", "2"});
    CHECK(parse_grid_axis("x=5:1:-2").values == Strings{"5", "3", "1"});
    CHECK(parse_grid_axis("x=0:1:0.3").values == Strings{"0", "0.3", "0.6", "0.9"});  // 1 is not on the grid
    CHECK(parse_grid_axis("depth=1:4:1").values == Strings{"1", "2", "3", "4"});
    CHECK(parse_grid_axis("x=3:3:1").values == Strings{"3"});
}

TEST_CASE("grid: geometric ranges as LIBSVM grid.py -log2c, exact values") {
    // grid.py -log2c -5,15,2 -> c = 2^-5, 2^-3, ..., 2^15
    const auto c = parse_grid_axis("C=2^-5:2^15:2");
    CHECK(c.values == Strings{"0.03125", "0.125", "0.5", "2", "8", "32", "128", "512", "2048", "8192", "32768"});
    // grid.py -log2g 3,-15,-2 (descending)
    const auto g = parse_grid_axis("gamma=2^3:2^-15:-2");
    REQUIRE(g.values.size() == 10);
    CHECK(g.values.front() == "8");
    CHECK(g.values[1] == "2");
    CHECK(g.values.back() == "3.0517578125e-05");  // 2^-15, exact
    CHECK(parse_grid_axis("alpha=10^-3:10^0:1").values == Strings{"0.001", "0.01", "0.1", "1"});
    CHECK(parse_grid_axis("C=2^-30:2^-30:1").values == Strings{"9.313225746154785e-10"});  // exact, 16 digits
}

TEST_CASE("grid: malformed axes are usage errors naming the -g text") {
    const Strings bad{"C",            "=1",           "C=",         "C=1,,2",     "C=1,2,",
                      "C=1:2:0",      "C=1:2:-1",     "C=2:1:1",    "C=a:2:1",    "C=1:b:1",
                      "C=1:2:x",      "C=1:2",        "C=1:2:3:4",  "C=2^1:3^4:1", "C=2^1:2^5:2^1",
                      "C=1:2^5:1",    "C=2^-1:2^5:-1", "C=1^1:1^2:1", "C=0:1e9:1e-3"};
    for (const auto& text : bad) {
        CAPTURE(text);
        CHECK_COMMAND_THROWS_WITH_AS(parse_grid_axis(text), doctest::Contains(("-g " + text).c_str()), UsageError);
    }
}

TEST_CASE("grid: expand_grid is the cartesian product, last axis fastest") {
    const std::vector<GridAxis> axes{{"a", {"1", "2"}}, {"b", {"x", "y", "z"}}};
    const auto points = expand_grid(axes);
    REQUIRE(points.size() == 6);
    const std::vector<std::pair<std::string, std::string>> p0{{"a", "1"}, {"b", "x"}}, p1{{"a", "1"}, {"b", "y"}},
        p3{{"a", "2"}, {"b", "x"}}, p5{{"a", "2"}, {"b", "z"}};
    CHECK(points[0] == p0);
    CHECK(points[1] == p1);
    CHECK(points[3] == p3);
    CHECK(points[5] == p5);

    const auto none = expand_grid({});
    REQUIRE(none.size() == 1);  // the base parameters alone, as sklearn's ParameterGrid({})
    CHECK(none[0].empty());

    CHECK_COMMAND_THROWS_WITH_AS(expand_grid({{"a", {"1"}}, {"a", {"2"}}}), doctest::Contains("-g a"), UsageError);
}

}  // TEST_SUITE

}  // namespace unit_model_selection_grid_test
}  // namespace
