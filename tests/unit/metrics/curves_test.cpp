// ROC and precision-recall curve points against scikit-learn.
//
// Provenance: tests/unit/metrics/record_curves_reference.py run with Debian 12's
// /usr/bin/python3 (python3-sklearn 1.2.1, numpy 1.24.2): roc_curve (drop_intermediate
// True and False), precision_recall_curve, roc_auc_score, average_precision_score on
// the fixtures below (scores rounded so the literals are the exact inputs, with ties).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/curves.hpp"
#include "metrics_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_metrics_curves_test {

using namespace kestrel;
using metrics_test::exact;
using metrics_test::vec;

namespace {

void check_same(const std::vector<double>& got, const std::vector<double>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        CHECK(got[i] == exact(want[i]));
    }
}

const std::vector<double> kY = {1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1};
const std::vector<double> kScore = {0.7, 0.8, -0.3, 0.1,  1.3,  0.2,  0.3,  1.1,  0.1, 0.5, 0.2, -0.5, 0.2, 0.1, -2.5,
                                    0.3, 0.5, 1.6,  1.1,  3.0,  -1.2, -0.7, -0.6, 0.6, -0.5, 0.6, 1.7, 0.1, 0.0, 0.8};

Predictions three_class_fixture() {
    Predictions p = metrics_test::classification(
        {0, 1, 1, 1, 0, 2, 0, 0, 0, 2, 2, 1, 0, 2, 2, 2, 0, 2}, std::vector<double>(18, 0), {"a", "b", "c"});
    const std::vector<double> p0 = {0.55, 0.1, 0.05, 0.1, 0.4, 0.35, 0.65, 0.65, 0.75, 0.0, 0.25, 0.0, 0.4, 0.05, 0.35, 0.35, 0.4, 0.05};
    const std::vector<double> p1 = {0.35, 0.4, 0.55, 0.8, 0.6, 0.1, 0.15, 0.15, 0.2, 0.55, 0.1, 0.9, 0.35, 0.2, 0.25, 0.15, 0.25, 0.35};
    const std::vector<double> p2 = {0.1, 0.5, 0.4, 0.1, 0.0, 0.55, 0.2, 0.2, 0.05, 0.45, 0.65, 0.1, 0.25, 0.75, 0.4, 0.5, 0.35, 0.6};
    p.proba.resize(18, 3);
    p.proba.col(0) = vec(p0);
    p.proba.col(1) = vec(p1);
    p.proba.col(2) = vec(p2);
    return p;
}

}  // namespace

TEST_SUITE("metrics") {

TEST_CASE("roc_curve matches sklearn 1.2.1, with and without drop_intermediate") {
    const RocCurve roc = roc_curve(vec(kY), vec(kScore));
    check_same(roc.fpr, {0.0, 0.0, 0.0, 0.15384615384615385, 0.15384615384615385, 0.15384615384615385,
                         0.15384615384615385, 0.23076923076923078, 0.23076923076923078, 0.3076923076923077,
                         0.38461538461538464, 0.5384615384615384, 0.6923076923076923, 1.0});
    check_same(roc.tpr, {0.0, 0.058823529411764705, 0.23529411764705882, 0.23529411764705882, 0.35294117647058826,
                         0.4117647058823529, 0.5294117647058824, 0.5882352941176471, 0.7058823529411765,
                         0.8235294117647058, 1.0, 1.0, 1.0, 1.0});
    check_same(roc.thresholds, {4.0, 3.0, 1.3, 1.1, 0.8, 0.7, 0.6, 0.5, 0.3, 0.2, 0.1, -0.3, -0.5, -2.5});

    const RocCurve all = roc_curve(vec(kY), vec(kScore), false);
    check_same(all.fpr, {0.0, 0.0, 0.0, 0.0, 0.0, 0.15384615384615385, 0.15384615384615385, 0.15384615384615385,
                         0.15384615384615385, 0.23076923076923078, 0.23076923076923078, 0.3076923076923077,
                         0.38461538461538464, 0.46153846153846156, 0.5384615384615384, 0.6923076923076923,
                         0.7692307692307693, 0.8461538461538461, 0.9230769230769231, 1.0});
    check_same(all.thresholds, {4.0, 3.0, 1.7, 1.6, 1.3, 1.1, 0.8, 0.7, 0.6, 0.5, 0.3, 0.2, 0.1, 0.0, -0.3, -0.5,
                                -0.6, -0.7, -1.2, -2.5});
    // The trapezoids under the kept points are sklearn's roc_auc_score.
    double area = 0;
    for (std::size_t i = 1; i < roc.fpr.size(); ++i)
        area += (roc.fpr[i] - roc.fpr[i - 1]) * (roc.tpr[i] + roc.tpr[i - 1]) / 2;
    CHECK(area == exact(0.8235294117647058));
}

TEST_CASE("precision_recall_curve matches sklearn 1.2.1") {
    const PrCurve pr = precision_recall_curve(vec(kY), vec(kScore));
    check_same(pr.precision, {0.5666666666666667, 0.5862068965517241, 0.6071428571428571, 0.6296296296296297,
                              0.6538461538461539, 0.7083333333333334, 0.7391304347826086, 0.7727272727272727,
                              0.7777777777777778, 0.8, 0.7692307692307693, 0.8181818181818182, 0.7777777777777778,
                              0.75, 0.6666666666666666, 1.0, 1.0, 1.0, 1.0, 1.0});
    check_same(pr.recall, {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.8235294117647058, 0.7058823529411765,
                           0.5882352941176471, 0.5294117647058824, 0.4117647058823529, 0.35294117647058826,
                           0.23529411764705882, 0.23529411764705882, 0.17647058823529413, 0.11764705882352941,
                           0.058823529411764705, 0.0});
    check_same(pr.thresholds, {-2.5, -1.2, -0.7, -0.6, -0.5, -0.3, 0.0, 0.1, 0.2, 0.3, 0.5, 0.6, 0.7, 0.8, 1.1,
                               1.3, 1.6, 1.7, 3.0});
    // Steps under the curve are sklearn's average_precision_score.
    double ap = 0;
    for (std::size_t i = 0; i + 1 < pr.recall.size(); ++i) ap += (pr.recall[i] - pr.recall[i + 1]) * pr.precision[i];
    CHECK(ap == exact(0.8327711504182093));
}

TEST_CASE("curves: edge cases as sklearn (one class, every score tied, NaN scores)") {
    // No negatives: fpr is NaN, as sklearn (with its UndefinedMetricWarning).
    const RocCurve pos = roc_curve(vec({1, 1}), vec({0.2, 0.4}));
    REQUIRE(pos.fpr.size() == 3);
    CHECK(std::isnan(pos.fpr[1]));
    CHECK(pos.tpr.back() == 1.0);
    // No positives: recall 1 at every threshold (sklearn's convention), precision 0.
    const PrCurve neg = precision_recall_curve(vec({0, 0}), vec({0.2, 0.4}));
    check_same(neg.recall, {1.0, 1.0, 0.0});
    check_same(neg.precision, {0.0, 0.0, 1.0});
    // All tied: one step from the origin to (1, 1).
    const RocCurve tied = roc_curve(vec({0, 1, 0, 1}), vec({0.5, 0.5, 0.5, 0.5}));
    check_same(tied.fpr, {0.0, 1.0});
    check_same(tied.tpr, {0.0, 1.0});
    check_same(tied.thresholds, {1.5, 0.5});
    CHECK_THROWS_AS(roc_curve(vec({0, 1}), vec({0.1, std::nan("")})), DataError);
}

TEST_CASE("class_curves: binary scores the positive class, from probabilities or decision values") {
    Predictions p = metrics_test::classification(kY, kY, {"no", "yes"});
    p.decision = vec(kScore);
    const auto from_decision = class_curves(p);
    REQUIRE(from_decision.size() == 1);
    CHECK(from_decision[0].class_name == "yes");
    CHECK(from_decision[0].roc_auc == exact(0.8235294117647058));
    CHECK(from_decision[0].average_precision == exact(0.8327711504182093));
    CHECK(from_decision[0].roc.fpr.size() == 14);

    // Probabilities: column 1 ranks the rows like the decision values (a monotone map).
    p.decision.resize(0, 0);
    p.proba.resize(30, 2);
    p.proba.col(1) = (1.0 / (1.0 + (-vec(kScore)).array().exp())).matrix();
    p.proba.col(0) = (1.0 - p.proba.col(1).array()).matrix();
    const auto from_proba = class_curves(p);
    REQUIRE(from_proba.size() == 1);
    CHECK(from_proba[0].roc_auc == exact(0.8235294117647058));
    check_same(from_proba[0].roc.tpr, from_decision[0].roc.tpr);
}

TEST_CASE("class_curves: one-vs-rest per class for multiclass matches sklearn 1.2.1") {
    const auto curves = class_curves(three_class_fixture());
    REQUIRE(curves.size() == 3);
    CHECK(curves[1].class_name == "b");
    check_same(curves[0].roc.fpr, {0.0, 0.0, 0.0, 0.0, 0.0, 0.2727272727272727, 0.36363636363636365,
                                   0.5454545454545454, 0.8181818181818182, 1.0});
    check_same(curves[1].roc.tpr, {0.0, 0.25, 0.5, 0.5, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0});
    check_same(curves[1].pr.precision, {0.2222222222222222, 0.25, 0.3076923076923077, 0.36363636363636365,
                                        0.4444444444444444, 0.6666666666666666, 0.6, 0.6666666666666666, 1.0, 1.0,
                                        1.0});
    check_same(curves[2].pr.recall, {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.8571428571428571, 0.7142857142857143,
                                     0.5714285714285714, 0.42857142857142855, 0.2857142857142857,
                                     0.14285714285714285, 0.0});
    CHECK(curves[0].roc_auc == exact(1.0));
    CHECK(curves[1].roc_auc == exact(0.9374999999999999));
    CHECK(curves[2].roc_auc == exact(0.961038961038961));
    CHECK(curves[1].average_precision == exact(0.8166666666666667));
    CHECK(curves[2].average_precision == exact(0.9240362811791383));
}

TEST_CASE("class_curves: a class absent from the truth has no curve") {
    Predictions p = three_class_fixture();
    for (Index i = 0; i < p.y_true.size(); ++i)
        if (p.y_true[i] == 1) p.y_true[i] = 0;
    const auto curves = class_curves(p);
    REQUIRE(curves.size() == 2);
    CHECK(curves[0].class_name == "a");
    CHECK(curves[1].class_name == "c");
}

}  // TEST_SUITE

}  // namespace unit_metrics_curves_test
}  // namespace
