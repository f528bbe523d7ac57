// Agreement with scikit-learn on random fixtures.
//
// Provenance: Debian 12 python3-sklearn 1.2.1 (numpy 1.24.2), /usr/bin/python3. The
// fixtures were drawn with np.random.RandomState(7) and rounded so that the literals
// below are the exact inputs; the reference values are Python's repr of the results.
// Binary:  dec = round(N(0,1) + (y - .5), 1); p1 = round(1000 sigmoid(2 dec)) / 1000;
//          P = [1 - p1, p1]; y_pred = (dec > 0)
//   accuracy_score(y, y_pred), balanced_accuracy_score(y, y_pred),
//   precision_recall_fscore_support(y, y_pred, average=avg, zero_division=0),
//   roc_auc_score(y, dec), roc_auc_score(y, P[:, 1]), average_precision_score(y, dec),
//   average_precision_score(y, P[:, 1]), log_loss(y, P)
// Multiclass (4 classes): proba = permille / 1000 (rows sum to 1000), y_pred = argmax,
//          D = rounded logits; Y = label_binarize(y, classes=[0, 1, 2, 3])
//   the same counting metrics, roc_auc_score(y, P, multi_class="ovr", average="macro"),
//   roc_auc_score(Y, D, average="macro"), average_precision_score(Y, P, average="macro"),
//   average_precision_score(Y, D, average="macro"), log_loss(y, P)
// Regression: mean_squared_error(y, yhat), mean_squared_error(y, yhat, squared=False),
//   mean_absolute_error, r2_score, max_error
#include <doctest/doctest.h>

#include "kestrel/metrics/classification.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/metrics/regression.hpp"
#include "metrics_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_metrics_sklearn_agreement_test {

using namespace kestrel;
using metrics_test::exact;
using metrics_test::vec;

namespace {

Predictions binary_fixture(bool with_proba) {
    const std::vector<double> y_true = {1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0};
    const std::vector<double> y_pred = {1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 0};
    const std::vector<double> decision = {1.5,  0.1, -0.1, -0.7, 1,   0.2,  0.3,  -1,  0.1, 0.6,
                                          -0.2, -1,  1.2,  0.7,  -0.9, 1.5, -0.5, -2,  0.1, -2.8};
    const std::vector<double> p1 = {0.953, 0.55, 0.45,  0.198, 0.881, 0.599, 0.646, 0.119, 0.55,  0.769,
                                    0.401, 0.119, 0.917, 0.802, 0.142, 0.953, 0.269, 0.018, 0.55, 0.004};
    Predictions p = metrics_test::classification(y_true, y_pred, {"0", "1"});
    if (with_proba) {
        p.proba.resize(20, 2);
        p.proba.col(1) = vec(p1);
        p.proba.col(0) = (1.0 - vec(p1).array()).matrix();
    } else {
        p.decision = vec(decision);
    }
    return p;
}

Predictions multiclass_fixture(bool with_proba) {
    const std::vector<double> y_true = {2, 1, 3, 0, 1, 3, 3, 0, 3, 0, 1, 0, 3, 1, 3, 3, 3, 1, 3, 3, 0, 3, 1, 3};
    const std::vector<double> y_pred = {2, 3, 2, 0, 1, 3, 3, 2, 2, 0, 1, 3, 3, 1, 0, 2, 2, 0, 3, 3, 2, 3, 1, 1};
    const std::vector<std::vector<int>> permille = {
        {275, 99, 569, 57},   {15, 38, 126, 821},  {108, 48, 558, 286}, {509, 217, 148, 126}, {26, 502, 101, 371},
        {41, 8, 54, 897},     {290, 175, 129, 406}, {266, 40, 592, 102}, {92, 350, 374, 184},  {551, 303, 120, 26},
        {183, 634, 144, 39},  {310, 77, 103, 510},  {338, 143, 126, 393}, {199, 507, 102, 192}, {666, 165, 49, 120},
        {105, 363, 370, 162}, {170, 59, 436, 335},  {593, 183, 79, 145},  {350, 214, 35, 401},  {57, 36, 29, 878},
        {347, 80, 356, 217},  {107, 252, 188, 453}, {351, 483, 72, 94},   {228, 473, 130, 169}};
    const std::vector<std::vector<double>> decision = {
        {0.8, -0.2, 1.6, -0.8}, {-1.7, -0.8, 0.4, 2.2}, {0.3, -0.5, 1.9, 1.2},  {1.1, 0.3, -0.1, -0.3},
        {-1.4, 1.5, -0.1, 1.2}, {-0.4, -1.9, -0.1, 2.7}, {-0.4, -0.9, -1.2, -0.1}, {0.7, -1.2, 1.5, -0.3},
        {0.1, 1.4, 1.5, 0.8},   {1.3, 0.7, -0.2, -1.8},  {0.7, 1.9, 0.4, -0.9},  {0.8, -0.6, -0.3, 1.3},
        {1.5, 0.7, 0.5, 1.7},   {-0.0, 0.9, -0.7, -0.1}, {2.3, 0.9, -0.3, 0.5},  {-0.9, 0.4, 0.4, -0.4},
        {0.5, -0.6, 1.4, 1.2},  {1.7, 0.5, -0.3, 0.3},  {1.1, 0.6, -1.2, 1.2},  {0, -0.4, -0.6, 2.7},
        {0.6, -0.8, 0.6, 0.1},  {-0.1, 0.8, 0.5, 1.4},  {1, 1.3, -0.6, -0.4},   {-0.5, 0.2, -1.1, -0.8}};
    Predictions p = metrics_test::classification(y_true, y_pred, {"w", "x", "y", "z"});
    if (with_proba) {
        p.proba.resize(24, 4);
        for (Index i = 0; i < 24; ++i)
            for (Index j = 0; j < 4; ++j) p.proba(i, j) = permille[i][j] / 1000.0;
    } else {
        p.decision = metrics_test::mat(decision);
    }
    return p;
}

}  // namespace

TEST_SUITE("metrics") {

TEST_CASE("sklearn agreement: binary counting metrics") {
    const Predictions p = binary_fixture(false);
    CHECK(compute_metric("accuracy", p) == exact(0.65));
    CHECK(compute_metric("balanced_accuracy", p) == exact(0.6499999999999999));
    CHECK(compute_metric("precision_macro", p) == exact(0.6515151515151515));
    CHECK(compute_metric("recall_macro", p) == exact(0.6499999999999999));
    CHECK(compute_metric("f1_macro", p) == exact(0.6491228070175439));
    CHECK(compute_metric("f1_micro", p) == exact(0.65));
    CHECK(compute_metric("precision_weighted", p) == exact(0.6515151515151515));
    CHECK(compute_metric("recall_weighted", p) == exact(0.65));
    CHECK(compute_metric("f1_weighted", p) == exact(0.6491228070175439));
}

TEST_CASE("sklearn agreement: binary ranking metrics and log loss") {
    const Predictions by_decision = binary_fixture(false);
    CHECK(compute_metric("roc_auc", by_decision) == exact(0.665));
    CHECK(compute_metric("average_precision", by_decision) == exact(0.6145093795093794));
    const Predictions by_proba = binary_fixture(true);
    CHECK(compute_metric("roc_auc", by_proba) == exact(0.665));
    CHECK(compute_metric("average_precision", by_proba) == exact(0.6145093795093794));
    CHECK(compute_metric("log_loss", by_proba) == exact(0.7813274908687026));
}

TEST_CASE("sklearn agreement: multiclass counting metrics and confusion matrix") {
    const Predictions p = multiclass_fixture(true);
    // sklearn confusion_matrix(y, y_pred)
    CountMatrix want(4, 4);
    want << 2, 0, 2, 1,  //
        1, 4, 0, 1,      //
        0, 0, 1, 0,      //
        1, 1, 4, 6;
    CHECK(confusion_matrix(p.y_true, p.y_pred, 4) == want);
    CHECK(compute_metric("accuracy", p) == exact(0.5416666666666666));
    CHECK(compute_metric("balanced_accuracy", p) == exact(0.6416666666666666));
    CHECK(compute_metric("precision_macro", p) == exact(0.5482142857142858));
    CHECK(compute_metric("recall_macro", p) == exact(0.6416666666666666));
    CHECK(compute_metric("f1_macro", p) == exact(0.505429292929293));
    CHECK(compute_metric("f1_micro", p) == exact(0.5416666666666666));
    CHECK(compute_metric("precision_weighted", p) == exact(0.6851190476190476));
    CHECK(compute_metric("recall_weighted", p) == exact(0.5416666666666666));
    CHECK(compute_metric("f1_weighted", p) == exact(0.584827441077441));
}

TEST_CASE("sklearn agreement: multiclass one-vs-rest ranking metrics and log loss") {
    const Predictions by_proba = multiclass_fixture(true);
    CHECK(compute_metric("roc_auc", by_proba) == exact(0.8207581150944996));
    CHECK(compute_metric("average_precision", by_proba) == exact(0.6096011216488191));
    CHECK(compute_metric("log_loss", by_proba) == exact(1.1019023888519721));
    const Predictions by_decision = multiclass_fixture(false);
    CHECK(compute_metric("roc_auc", by_decision) == exact(0.8010760975506398));
    CHECK(compute_metric("average_precision", by_decision) == exact(0.5673814033189033));
}

TEST_CASE("sklearn agreement: regression metrics") {
    const Predictions p = metrics_test::regression(
        {3.18, 0.33, -0.9, 3.75, 1.58, 3.99, 1.94, 0.76, 0.51, 1.97, 2.45, 1.35, 2.44, -0.07, 3.03},
        {1.92, 0.19, -0.41, 4.51, 2.78, 2.9, 2.47, 1.6, 1.2, 1.32, 2.74, 2.65, 1.39, 0.26, 3.81});
    const RegressionReport r = regression_report(p);
    CHECK(r.mse == exact(0.7021333333333332));
    CHECK(r.rmse == exact(0.83793396716766));
    CHECK(r.mae == exact(0.7600000000000001));
    CHECK(r.r2 == exact(0.6344218297236018));
    CHECK(r.max_error == exact(1.2999999999999998));
    CHECK(r.n == 15);
}

}  // TEST_SUITE

}  // namespace unit_metrics_sklearn_agreement_test
}  // namespace
