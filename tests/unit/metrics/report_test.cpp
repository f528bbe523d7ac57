#include <doctest/doctest.h>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/classification.hpp"
#include "metrics_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_metrics_report_test {

using namespace kestrel;
using metrics_test::exact;
using metrics_test::mat;

namespace {

// y_true = no no yes yes yes, y_pred = no yes yes yes no; decision per row -1 .5 2 .5 -.5
//   no:  P 1/2, R 1/2;  yes: P 2/3, R 2/3;  accuracy 3/5;  balanced (1/2 + 2/3)/2 = 7/12
//   AUC: positives 2, .5, -.5 vs negatives -1, .5 -> (2 + 1.5 + 1)/6 = 3/4
//   AP: 2 (tp1 fp0), .5 (tp2 fp1), -.5 (tp3 fp1) -> 1/3·1 + 1/3·2/3 + 1/3·3/4 = 29/36
Predictions binary_fixture() {
    Predictions p = metrics_test::classification({0, 0, 1, 1, 1}, {0, 1, 1, 1, 0}, {"no", "yes"});
    p.decision = mat({{-1}, {.5}, {2}, {.5}, {-.5}});
    p.model = "svc";
    return p;
}

}  // namespace

TEST_SUITE("metrics") {

TEST_CASE("classification report: values of a binary fixture") {
    const ClassificationReport r = classification_report(binary_fixture());
    CHECK(r.classes == std::vector<std::string>{"no", "yes"});
    CHECK(r.n == 5);
    CHECK(r.accuracy == exact(0.6));
    CHECK(r.balanced_accuracy == exact(7.0 / 12.0));
    CHECK(r.per_class[1].precision == exact(2.0 / 3.0));
    CHECK(r.macro.f1 == exact(7.0 / 12.0));
    CHECK(r.weighted.f1 == exact(0.6));
    CHECK(*r.roc_auc == exact(0.75));
    CHECK(*r.average_precision == exact(29.0 / 36.0));
    CHECK_FALSE(r.log_loss.has_value());
    CHECK(r.positive_class == "yes");
}

TEST_CASE("classification report: text is sklearn's table, then the confusion matrix and ranking lines") {
    // The first block is byte-for-byte sklearn 1.2.1's
    // classification_report([0,0,1,1,1], [0,1,1,1,0], target_names=["no","yes"], digits=4).
    const std::string sklearn_table =
        "              precision    recall  f1-score   support\n\n"
        "          no     0.5000    0.5000    0.5000         2\n"
        "         yes     0.6667    0.6667    0.6667         3\n\n"
        "    accuracy                         0.6000         5\n"
        "   macro avg     0.5833    0.5833    0.5833         5\n"
        "weighted avg     0.6000    0.6000    0.6000         5\n";
    const std::string rest =
        "\nbalanced accuracy   0.5833\n"
        "\nconfusion matrix (rows: true class, columns: predicted class)\n"
        "true \\ pred   no  yes\n"
        "         no    1    1\n"
        "        yes    1    2\n"
        "\nROC AUC             0.7500   (positive class yes)\n"
        "average precision   0.8056   (positive class yes)\n";
    CHECK(classification_report(binary_fixture()).to_text() == sklearn_table + rest);
}

TEST_CASE("classification report: JSON has full precision and leaves out what is unavailable") {
    const Json j = classification_report(binary_fixture()).to_json();
    CHECK(j.at("accuracy").get<double>() == 0.6);
    CHECK(j.at("balanced_accuracy").get<double>() == exact(7.0 / 12.0));
    REQUIRE(j.at("per_class").size() == 2);
    CHECK(j.at("per_class")[1].at("class") == "yes");
    CHECK(j.at("per_class")[1].at("precision").get<double>() == exact(2.0 / 3.0));
    CHECK(j.at("per_class")[1].at("support") == 3);
    CHECK(j.at("macro").at("recall").get<double>() == exact(7.0 / 12.0));
    CHECK(j.at("micro").at("f1").get<double>() == exact(0.6));
    CHECK(j.at("weighted").at("precision").get<double>() == exact(0.6));
    CHECK(j.at("confusion_matrix") == Json::parse("[[1, 1], [1, 2]]"));
    CHECK(j.at("roc_auc").get<double>() == 0.75);
    CHECK(j.at("average_precision").get<double>() == exact(29.0 / 36.0));
    CHECK(j.at("positive_class") == "yes");
    CHECK_FALSE(j.contains("log_loss"));
    // Without scores, no ranking keys at all.
    Predictions p = binary_fixture();
    p.decision.resize(0, 0);
    const Json bare = classification_report(p).to_json();
    CHECK_FALSE(bare.contains("roc_auc"));
    CHECK_FALSE(bare.contains("average_precision"));
    CHECK_FALSE(bare.contains("positive_class"));
    CHECK(classification_report(p).to_text().find("ROC AUC") == std::string::npos);
}

TEST_CASE("classification report: covers classes in truth or prediction, including a test-only class") {
    // Model classes a b c e; d appears only in the test file (index 4 after e) and is
    // never predicted; e is predicted but never true; c is in neither and is left out.
    //   y_true = a a b d d,  y_pred = a b b e a
    Predictions p = metrics_test::classification({0, 0, 1, 4, 4}, {0, 1, 1, 3, 0}, {"a", "b", "c", "e", "d"});
    p.proba = mat({{.7, .2, .05, .05}, {.4, .5, .05, .05}, {.1, .8, .05, .05}, {.3, .2, .1, .4}, {.6, .2, .1, .1}});
    const ClassificationReport r = classification_report(p);
    CHECK(r.classes == std::vector<std::string>{"a", "b", "e", "d"});
    CountMatrix want(4, 4);
    want << 1, 1, 0, 0,  //
        0, 1, 0, 0,      //
        0, 0, 0, 0,      //
        1, 0, 1, 0;
    CHECK(r.confusion == want);
    // d: never predicted -> precision 0, recall 0/2; e: predicted once, never true -> 0, 0.
    CHECK(r.per_class[3].precision == 0.0);
    CHECK(r.per_class[3].support == 2);
    CHECK(r.per_class[2].precision == 0.0);
    // macro over a b e d: P = (1/2 + 1/2 + 0 + 0)/4 = 1/4; R = (1/2 + 1 + 0 + 0)/4 = 3/8
    CHECK(r.macro.precision == exact(0.25));
    CHECK(r.macro.recall == exact(0.375));
    // balanced accuracy over a b d (present in y_true): (1/2 + 1 + 0)/3 = 1/2
    CHECK(r.balanced_accuracy == exact(0.5));
    CHECK(r.accuracy == exact(0.4));
    // OvR over a b d: a (column 0) .7 .4 vs .1 .3 .6 -> 5/6; b (column 1) .8 above all -> 1;
    // d has no column -> 0.5. Macro (5/6 + 1 + 1/2)/3 = 7/9.
    CHECK(*r.roc_auc == exact(7.0 / 9.0));
    CHECK(r.positive_class.empty());  // one-vs-rest
    CHECK(r.to_text().find("ROC AUC             0.7778   (one-vs-rest macro)") != std::string::npos);
    CHECK(r.to_json().at("classes") == Json::parse(R"(["a", "b", "e", "d"])"));
}

TEST_CASE("classification report refuses regression predictions") {
    CHECK_THROWS_AS(classification_report(metrics_test::regression({1, 2}, {1, 2})), UsageError);
}

}  // TEST_SUITE

}  // namespace unit_metrics_report_test
}  // namespace
