#include <doctest/doctest.h>

#include "kestrel/metrics/classification.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "metrics_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_metrics_brier_test {

using namespace kestrel;
using namespace kestrel::metrics_test;

TEST_SUITE("metrics") {

TEST_CASE("brier score: binary is the mean squared error of P(classes[1])") {
    // y = 0 1 1 0, P(1) = .2 .9 .4 .5: (.04 + .01 + .36 + .25) / 4 = 0.165 by hand;
    // /usr/bin/python3: sklearn 1.2.1 brier_score_loss([0,1,1,0], [.2,.9,.4,.5]) -> 0.165
    Predictions p = classification({0, 1, 1, 0}, {0, 1, 0, 1}, {"no", "yes"});
    p.proba = mat({{.8, .2}, {.1, .9}, {.6, .4}, {.5, .5}});
    CHECK(*brier_score(p) == exact(0.165));
    CHECK(compute_metric("neg_brier_score", p) == exact(-0.165));
    CHECK_FALSE(metric_info("brier_score").greater_is_better);
    const ClassificationReport r = classification_report(p);
    CHECK(r.to_json().at("brier_score").get<double>() == exact(0.165));
    CHECK(r.to_text().find("Brier score         0.1650\n") != std::string::npos);
}

TEST_CASE("brier score: multiclass sums the squared errors over the classes; an unseen class is 0") {
    // Rows (true class, probabilities): 0 (.7 .2 .1) -> .09 + .04 + .01 = .14;
    // 2 (.2 .3 .5) -> .04 + .09 + .25 = .38; mean .26 (hand-computed).
    Predictions p = classification({0, 2}, {0, 2}, {"a", "b", "c"});
    p.proba = mat({{.7, .2, .1}, {.2, .3, .5}});
    CHECK(*brier_score(p) == exact(0.26));
    // A test-only class d (index 3) has no column: its probability is 0, so the row
    // (.7 .2 .1 | 0) against d adds .49 + .04 + .01 + 1 = 1.54.
    Predictions q = classification({0, 3}, {0, 0}, {"a", "b", "c", "d"});
    q.proba = mat({{.7, .2, .1}, {.7, .2, .1}});
    CHECK(*brier_score(q) == exact((0.14 + 1.54) / 2));
}

TEST_CASE("brier score: absent without probabilities") {
    Predictions p = classification({0, 1}, {0, 1}, {"a", "b"});
    CHECK_FALSE(brier_score(p).has_value());
    CHECK_FALSE(classification_report(p).to_json().contains("brier_score"));
}

}  // TEST_SUITE

}  // namespace unit_metrics_brier_test
}  // namespace
