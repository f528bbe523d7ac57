#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/classification.hpp"
#include "metrics_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_metrics_class_scores_test {

using namespace kestrel;
using metrics_test::exact;
using metrics_test::vec;

namespace {

// Five classes a..e. c is in the truth but never predicted; d is predicted but never
// true; e appears in neither (left out of every average, as sklearn's labels=None).
//   y_true = a a a b b c c c
//   y_pred = a a b b d a b d
// Confusion (rows true, columns predicted; a b c d e):
//   a: 2 1 0 0 0      column sums: a 3, b 3, c 0, d 2, e 0
//   b: 0 1 0 1 0
//   c: 1 1 0 1 0
const std::vector<double> kTrue = {0, 0, 0, 1, 1, 2, 2, 2};
const std::vector<double> kPred = {0, 0, 1, 1, 3, 0, 1, 3};

}  // namespace

TEST_SUITE("metrics") {

TEST_CASE("confusion_matrix: rows are truth, columns predictions, absent classes stay zero") {
    const CountMatrix cm = confusion_matrix(vec(kTrue), vec(kPred), 5);
    CountMatrix want(5, 5);
    want << 2, 1, 0, 0, 0,  //
        0, 1, 0, 1, 0,      //
        1, 1, 0, 1, 0,      //
        0, 0, 0, 0, 0,      //
        0, 0, 0, 0, 0;
    CHECK(cm == want);
}

TEST_CASE("confusion_matrix: an index beyond k (a class seen only in the test data) widens the matrix") {
    const CountMatrix cm = confusion_matrix(vec({0, 1, 2}), vec({0, 1, 1}), 2);
    REQUIRE(cm.rows() == 3);
    CHECK(cm(2, 1) == 1);
    CHECK(cm.sum() == 3);
}

TEST_CASE("confusion_matrix: non-integral or negative indices and length mismatch are internal errors") {
    CHECK_THROWS_AS(confusion_matrix(vec({0.5}), vec({0}), 2), InternalError);
    CHECK_THROWS_AS(confusion_matrix(vec({-1}), vec({0}), 2), InternalError);
    CHECK_THROWS_AS(confusion_matrix(vec({0, 1}), vec({0}), 2), InternalError);
}

TEST_CASE("accuracy and balanced accuracy by hand") {
    // 3 of 8 on the diagonal.
    CHECK(accuracy(vec(kTrue), vec(kPred)) == exact(3.0 / 8.0));
    // Recall a 2/3, b 1/2, c 0/3; d has no true sample and is dropped:
    // (2/3 + 1/2 + 0) / 3 = 7/18. (sklearn 1.2 balanced_accuracy_score: 0.38888888888888884)
    CHECK(balanced_accuracy(vec(kTrue), vec(kPred), 5) == exact(7.0 / 18.0));
    CHECK(std::isnan(accuracy(vec({}), vec({}))));
}

TEST_CASE("per-class scores with zero_division = 0") {
    const std::vector<ClassScores> s = per_class_scores(confusion_matrix(vec(kTrue), vec(kPred), 5));
    REQUIRE(s.size() == 5);
    // a: tp 2 of 3 predicted, 2 of 3 true -> P = R = F1 = 2/3
    CHECK(s[0].precision == exact(2.0 / 3.0));
    CHECK(s[0].recall == exact(2.0 / 3.0));
    CHECK(s[0].f1 == exact(2.0 / 3.0));
    CHECK(s[0].support == 3);
    // b: tp 1 of 3 predicted, 1 of 2 true -> P 1/3, R 1/2, F1 = 2(1/6)/(5/6) = 2/5
    CHECK(s[1].precision == exact(1.0 / 3.0));
    CHECK(s[1].recall == exact(0.5));
    CHECK(s[1].f1 == exact(0.4));
    // c: never predicted -> precision 0 (0/0), recall 0/3, F1 0
    CHECK(s[2].precision == 0.0);
    CHECK(s[2].recall == 0.0);
    CHECK(s[2].f1 == 0.0);
    CHECK(s[2].support == 3);
    // d: predicted twice, never true -> precision 0/2, recall 0/0 = 0
    CHECK(s[3].precision == 0.0);
    CHECK(s[3].recall == 0.0);
    CHECK(s[3].support == 0);
}

TEST_CASE("macro, micro and weighted averages over the classes present in truth or prediction") {
    const CountMatrix cm = confusion_matrix(vec(kTrue), vec(kPred), 5);
    // macro over a, b, c, d (e is absent from both):
    //   P = (2/3 + 1/3 + 0 + 0)/4 = 1/4, R = (2/3 + 1/2)/4 = 7/24, F1 = (2/3 + 2/5)/4 = 4/15
    const ClassScores macro = averaged_scores(cm, Average::macro);
    CHECK(macro.precision == exact(0.25));
    CHECK(macro.recall == exact(7.0 / 24.0));
    CHECK(macro.f1 == exact(4.0 / 15.0));
    CHECK(macro.support == 8);
    // micro pools the counts: 3 hits of 8 for both P and R.
    const ClassScores micro = averaged_scores(cm, Average::micro);
    CHECK(micro.precision == exact(0.375));
    CHECK(micro.recall == exact(0.375));
    CHECK(micro.f1 == exact(0.375));
    // weighted by support 3, 2, 3, 0:
    //   P = (3·2/3 + 2·1/3)/8 = 1/3, R = (3·2/3 + 2·1/2)/8 = 3/8, F1 = (3·2/3 + 2·2/5)/8 = 7/20
    const ClassScores weighted = averaged_scores(cm, Average::weighted);
    CHECK(weighted.precision == exact(1.0 / 3.0));
    CHECK(weighted.recall == exact(0.375));
    CHECK(weighted.f1 == exact(0.35));
    // sklearn 1.2.1: precision_recall_fscore_support(y_true, y_pred, average=..., zero_division=0)
    // with y_true=[0,0,0,1,1,2,2,2], y_pred=[0,0,1,1,3,0,1,3] gives
    // macro (0.25, 0.29166666666666663, 0.26666666666666666), micro (0.375, 0.375, 0.375),
    // weighted (0.3333333333333333, 0.375, 0.35): the same numbers.
    CHECK(macro.recall == exact(0.29166666666666663));
    CHECK(macro.f1 == exact(0.26666666666666666));
}

TEST_CASE("averages of an empty confusion matrix are zero") {
    const ClassScores s = averaged_scores(CountMatrix::Zero(3, 3), Average::weighted);
    CHECK(s.precision == 0.0);
    CHECK(s.f1 == 0.0);
    CHECK(s.support == 0);
}

}  // TEST_SUITE

}  // namespace unit_metrics_class_scores_test
}  // namespace
