#include <doctest/doctest.h>

#include "command_error.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/model_selection/threshold.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_model_selection_threshold_test {

using namespace kestrel;

TEST_SUITE("model_selection") {
    TEST_CASE("threshold criteria parse; bad ones name --tune-threshold") {
        CHECK(parse_threshold_criterion("f1").kind == ThresholdCriterion::Kind::f1);
        const auto r = parse_threshold_criterion("recall=0.9");
        CHECK(r.kind == ThresholdCriterion::Kind::recall);
        CHECK(r.target == 0.9);
        CHECK(parse_threshold_criterion("precision=1").target == 1.0);
        for (const char* bad : {"f2", "recall", "recall=", "recall=1.5", "precision=0", "accuracy=0.9", "recall=x"}) {
            CAPTURE(bad);
            try {
                parse_threshold_criterion(bad);
                FAIL("expected UsageError");
            } catch (const UsageError& e) {
                CHECK(cli::command_message(e).find("--tune-threshold") != std::string::npos);
            }
        }
    }

    TEST_CASE("threshold tuning against a hand-worked example") {
        // Sorted scores with labels 1 1 0 1 0 0. Taking the top j rows as positive:
        // j:  1    2    3    4    5    6
        // P:  1    1   2/3  3/4  3/5  1/2
        // R: 1/3  2/3  2/3   1    1    1
        // F1: .5  .8  .667 .857  .75  .667
        const Vector scores{{0.9, 0.8, 0.7, 0.6, 0.5, 0.4}};
        const Vector pos{{1, 1, 0, 1, 0, 0}};
        const auto f1 = tune_threshold(scores, pos, Vector(), parse_threshold_criterion("f1"));
        CHECK(f1.threshold == doctest::Approx(0.55));
        CHECK(f1.f1 == doctest::Approx(6.0 / 7.0));
        const auto rec = tune_threshold(scores, pos, Vector(), parse_threshold_criterion("recall=0.9"));
        CHECK(rec.threshold == doctest::Approx(0.55));
        CHECK(rec.recall == 1.0);
        CHECK(rec.precision == doctest::Approx(0.75));
        const auto prec = tune_threshold(scores, pos, Vector(), parse_threshold_criterion("precision=0.9"));
        CHECK(prec.threshold == doctest::Approx(0.75));  // the highest recall at precision 1
        CHECK(prec.recall == doctest::Approx(2.0 / 3.0));
        const auto low = tune_threshold(scores, pos, Vector(), parse_threshold_criterion("recall=0.5"));
        CHECK(low.threshold == doctest::Approx(0.75));  // recall 2/3 at precision 1 beats the rest
        // Weights: the third row counting 10 times makes its negative dominate.
        const Vector w{{1, 1, 10, 1, 1, 1}};
        const auto wf1 = tune_threshold(scores, pos, w, parse_threshold_criterion("f1"));
        CHECK(wf1.threshold == doctest::Approx(0.75));
    }

    TEST_CASE("threshold tuning: ties are never split, the lowest score gets a threshold below it") {
        const Vector scores{{0.5, 0.5, 0.2, 0.2}};
        const Vector pos{{1, 0, 1, 0}};
        const auto all = tune_threshold(scores, pos, Vector(), parse_threshold_criterion("recall=1"));
        CHECK(all.threshold < 0.2);
        CHECK(all.threshold > 0.19);
        CHECK(all.predicted_positive == 4);
        const auto top = tune_threshold(scores, pos, Vector(), parse_threshold_criterion("recall=0.5"));
        CHECK(top.threshold == doctest::Approx(0.35));
        CHECK(top.predicted_positive == 2);
        CHECK_THROWS_AS(tune_threshold(scores, pos, Vector(), parse_threshold_criterion("precision=0.9")), DataError);
    }
}

}  // namespace unit_model_selection_threshold_test
}  // namespace
