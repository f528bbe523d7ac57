#include <doctest/doctest.h>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/predictions.hpp"
#include "metrics_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_metrics_predictions_test {

using namespace kestrel;
using metrics_test::mat;
using metrics_test::vec;

TEST_SUITE("metrics") {

TEST_CASE("Predictions::append concatenates rows and scores") {
    Predictions all;
    Predictions a = metrics_test::classification({0, 1}, {0, 0}, {"x", "y"});
    a.proba = mat({{.9, .1}, {.6, .4}});
    a.model = "logistic";
    Predictions b = metrics_test::classification({1}, {1}, {"x", "y"});
    b.proba = mat({{.2, .8}});
    all.append(a);  // into an empty one: a copy
    all.append(b);
    CHECK(all.y_true == vec({0, 1, 1}));
    CHECK(all.y_pred == vec({0, 0, 1}));
    CHECK(all.proba == mat({{.9, .1}, {.6, .4}, {.2, .8}}));
    CHECK(all.decision.size() == 0);
    CHECK(all.classes == std::vector<std::string>{"x", "y"});
    CHECK(all.model == "logistic");
    CHECK(all.task == Task::classification);
}

TEST_CASE("Predictions::append: a class list extended by a test-only class wins; weights align") {
    Predictions a = metrics_test::classification({0, 1}, {0, 1}, {"x", "y"});
    a.weights = vec({2, 3});
    Predictions b = metrics_test::classification({2}, {1}, {"x", "y", "z"});
    a.append(b);
    CHECK(a.classes == std::vector<std::string>{"x", "y", "z"});
    CHECK(a.weights == vec({2, 3, 1}));  // b's implicit unit weight
    CHECK(a.y_true == vec({0, 1, 2}));
}

TEST_CASE("Predictions::append refuses parts that cannot line up") {
    Predictions a = metrics_test::classification({0, 1}, {0, 1}, {"x", "y"});
    a.decision = mat({{1}, {-1}});
    Predictions no_scores = metrics_test::classification({1}, {1}, {"x", "y"});
    CHECK_THROWS_AS(a.append(no_scores), InternalError);
    CHECK_THROWS_AS(a.append(metrics_test::classification({1}, {1}, {"p", "q"})), InternalError);
    CHECK_THROWS_AS(a.append(metrics_test::regression({1}, {1})), InternalError);
}

}  // TEST_SUITE

}  // namespace unit_metrics_predictions_test
}  // namespace
