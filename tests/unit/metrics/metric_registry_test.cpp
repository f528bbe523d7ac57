#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "metrics_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_metrics_metric_registry_test {

using namespace kestrel;
using metrics_test::exact;
using metrics_test::mat;

namespace {

std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

// The hand fixture of class_scores_test.cpp: accuracy 3/8, macro F1 4/15, weighted
// precision 1/3, weighted recall 3/8, macro recall 7/24, balanced accuracy 7/18.
Predictions counting_fixture() {
    return metrics_test::classification({0, 0, 0, 1, 1, 2, 2, 2}, {0, 0, 1, 1, 3, 0, 1, 3},
                                        {"a", "b", "c", "d", "e"});
}

}  // namespace

TEST_SUITE("metrics") {

TEST_CASE("metric registry: the names per task") {
    CHECK(metric_names(Task::classification) ==
          std::vector<std::string>{"accuracy", "balanced_accuracy", "f1_macro", "f1_micro", "f1_weighted",
                                   "precision_macro", "recall_macro", "precision_weighted", "recall_weighted",
                                   "roc_auc", "average_precision", "log_loss", "neg_log_loss", "brier_score",
                                   "neg_brier_score"});
    CHECK(metric_names(Task::regression) ==
          std::vector<std::string>{"r2", "mse", "rmse", "mae", "max_error", "neg_mean_squared_error",
                                   "neg_root_mean_squared_error", "neg_mean_absolute_error", "ndcg", "map", "mrr"});
    CHECK(default_metric(Task::classification) == "accuracy");
    CHECK(default_metric(Task::regression) == "r2");
}

TEST_CASE("metric registry: direction and needs") {
    for (const char* lower : {"log_loss", "mse", "rmse", "mae", "max_error"})
        CHECK_MESSAGE(!metric_info(lower).greater_is_better, lower);
    for (const char* higher : {"accuracy", "neg_log_loss", "r2", "neg_mean_squared_error", "roc_auc"})
        CHECK_MESSAGE(metric_info(higher).greater_is_better, higher);
    CHECK(metric_info("roc_auc").needs_scores);
    CHECK_FALSE(metric_info("roc_auc").needs_proba);
    CHECK(metric_info("neg_log_loss").needs_proba);
    CHECK_FALSE(metric_info("f1_macro").needs_scores);
    CHECK(metric_info("r2").task == Task::regression);
}

TEST_CASE("metric registry: an unknown name lists the valid ones") {
    const std::string msg = message_of([] { metric_info("f1"); });
    CHECK(msg.find("unknown metric 'f1'") != std::string::npos);
    CHECK(msg.find("f1_macro") != std::string::npos);
    CHECK(msg.find("neg_root_mean_squared_error") != std::string::npos);
    CHECK_THROWS_AS(compute_metric("nope", counting_fixture()), UsageError);
}

TEST_CASE("metric registry: classification values by name") {
    const Predictions p = counting_fixture();
    CHECK(compute_metric("accuracy", p) == exact(3.0 / 8.0));
    CHECK(compute_metric("balanced_accuracy", p) == exact(7.0 / 18.0));
    CHECK(compute_metric("f1_macro", p) == exact(4.0 / 15.0));
    CHECK(compute_metric("f1_micro", p) == exact(3.0 / 8.0));
    CHECK(compute_metric("f1_weighted", p) == exact(0.35));
    CHECK(compute_metric("precision_macro", p) == exact(0.25));
    CHECK(compute_metric("recall_macro", p) == exact(7.0 / 24.0));
    CHECK(compute_metric("precision_weighted", p) == exact(1.0 / 3.0));
    CHECK(compute_metric("recall_weighted", p) == exact(0.375));
}

TEST_CASE("metric registry: the metrics a model gives, by its scores") {
    using S = std::vector<std::string>;
    const S labels_only{"accuracy",          "balanced_accuracy", "f1_macro",         "f1_micro",
                        "f1_weighted",       "precision_macro",   "recall_macro",     "precision_weighted",
                        "recall_weighted"};
    CHECK(metrics_given(Task::classification, false, false) == labels_only);
    S scores = labels_only;
    scores.insert(scores.end(), {"roc_auc", "average_precision"});
    CHECK(metrics_given(Task::classification, true, false) == scores);
    S all = scores;
    all.insert(all.end(), {"log_loss", "neg_log_loss", "brier_score", "neg_brier_score"});
    CHECK(metrics_given(Task::classification, true, true) == all);
    CHECK(metrics_given(Task::classification, false, true) == all);  // probabilities are scores
    CHECK(metrics_given(Task::regression, false, false) == metric_names(Task::regression));
    CHECK(model_gives(metric_info("roc_auc"), false, true));
    CHECK_FALSE(model_gives(metric_info("brier_score"), true, false));
}

TEST_CASE("metric registry: ranking metrics need scores, log loss needs probabilities") {
    Predictions p = metrics_test::classification({0, 0, 1, 1, 0, 1}, {0, 0, 1, 1, 1, 1}, {"no", "yes"});
    p.model = "perceptron";
    CHECK(message_of([&] { compute_metric("roc_auc", p); }) ==
          "metric roc_auc needs decision values or probabilities; model perceptron has none");
    p.decision = mat({{0.1}, {0.4}, {0.4}, {0.8}, {0.8}, {0.9}});
    CHECK(compute_metric("roc_auc", p) == exact(7.0 / 9.0));
    CHECK(compute_metric("average_precision", p) == exact(34.0 / 45.0));
    CHECK(message_of([&] { compute_metric("neg_log_loss", p); }) ==
          "metric neg_log_loss needs probabilities; model perceptron has none");
    p.proba = mat({{.5, .5}, {.5, .5}, {.5, .5}, {.5, .5}, {.5, .5}, {.5, .5}});
    CHECK(compute_metric("log_loss", p) == exact(std::log(2.0)));
    CHECK(compute_metric("neg_log_loss", p) == exact(-std::log(2.0)));
    // A single class in the truth: ROC AUC is undefined and reported as NaN.
    Predictions one = metrics_test::classification({1, 1}, {1, 1}, {"no", "yes"});
    one.decision = mat({{1}, {2}});
    CHECK(std::isnan(compute_metric("roc_auc", one)));
}

TEST_CASE("metric registry: regression values by name, negated variants") {
    // errors -0.5 0 1 -1: MSE 0.5625, RMSE 0.75, MAE 0.625, max 1, R² 0.55
    const Predictions p = metrics_test::regression({1, 2, 3, 4}, {1.5, 2, 2, 5});
    CHECK(compute_metric("r2", p) == exact(0.55));
    CHECK(compute_metric("mse", p) == exact(0.5625));
    CHECK(compute_metric("rmse", p) == exact(0.75));
    CHECK(compute_metric("mae", p) == exact(0.625));
    CHECK(compute_metric("max_error", p) == exact(1.0));
    CHECK(compute_metric("neg_mean_squared_error", p) == exact(-0.5625));
    CHECK(compute_metric("neg_root_mean_squared_error", p) == exact(-0.75));
    CHECK(compute_metric("neg_mean_absolute_error", p) == exact(-0.625));
}

TEST_CASE("metric registry: a metric of the other task is a usage error") {
    const std::string msg = message_of([] { compute_metric("r2", counting_fixture()); });
    CHECK(msg.find("metric r2 is for regression") != std::string::npos);
    CHECK(msg.find("accuracy") != std::string::npos);
    CHECK_THROWS_AS(compute_metric("accuracy", metrics_test::regression({1}, {1})), UsageError);
}

}  // TEST_SUITE

}  // namespace unit_metrics_metric_registry_test
}  // namespace
