#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/classification.hpp"
#include "metrics_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_metrics_ranking_test {

using namespace kestrel;
using metrics_test::exact;
using metrics_test::mat;
using metrics_test::vec;

TEST_SUITE("metrics") {

TEST_CASE("roc_auc_binary: a tied positive/negative pair counts one half") {
    // positives score 0.4, 0.8, 0.9; negatives 0.1, 0.4, 0.8 (P = N = 3, 9 pairs)
    //   0.4 beats 0.1, ties 0.4, loses to 0.8 -> 1.5
    //   0.8 beats 0.1 and 0.4, ties 0.8        -> 2.5
    //   0.9 beats all three                    -> 3
    // AUC = 7/9 (sklearn 1.2.1 roc_auc_score: 0.7777777777777778)
    const auto y = vec({0, 0, 1, 1, 0, 1});
    const auto s = vec({0.1, 0.4, 0.4, 0.8, 0.8, 0.9});
    CHECK(roc_auc_binary(y, s) == exact(7.0 / 9.0));
    // Every score tied: one step from (0,0) to (1,1), area 1/2.
    CHECK(roc_auc_binary(y, vec({0.3, 0.3, 0.3, 0.3, 0.3, 0.3})) == exact(0.5));
    // Perfect and reversed rankings.
    CHECK(roc_auc_binary(vec({0, 0, 1}), vec({1, 2, 3})) == exact(1.0));
    CHECK(roc_auc_binary(vec({0, 0, 1}), vec({3, 2, 1})) == exact(0.0));
}

TEST_CASE("average_precision_binary: sum of recall steps times precision at distinct thresholds") {
    // Same fixture. Thresholds high to low:
    //   0.9: tp 1 fp 0 -> P 1,   R 1/3
    //   0.8: tp 2 fp 1 -> P 2/3, R 2/3
    //   0.4: tp 3 fp 2 -> P 3/5, R 1
    //   0.1: tp 3 fp 3 -> R unchanged
    // AP = 1/3·1 + 1/3·2/3 + 1/3·3/5 = 34/45 (sklearn 1.2.1: 0.7555555555555555)
    const auto y = vec({0, 0, 1, 1, 0, 1});
    CHECK(average_precision_binary(y, vec({0.1, 0.4, 0.4, 0.8, 0.8, 0.9})) == exact(34.0 / 45.0));
    // All tied: one threshold at recall 1 with precision = prevalence 3/6 (sklearn: 0.5).
    CHECK(average_precision_binary(y, vec({0.3, 0.3, 0.3, 0.3, 0.3, 0.3})) == exact(0.5));
}

TEST_CASE("binary ranking metrics are NaN when undefined") {
    CHECK(std::isnan(roc_auc_binary(vec({1, 1}), vec({0.1, 0.2}))));  // no negative
    CHECK(std::isnan(roc_auc_binary(vec({0, 0}), vec({0.1, 0.2}))));  // no positive
    CHECK(std::isnan(average_precision_binary(vec({0, 0}), vec({0.1, 0.2}))));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(std::isnan(roc_auc_binary(vec({0, 1}), vec({nan, 0.2}))));
    CHECK_THROWS_AS(roc_auc_binary(vec({0, 1}), vec({0.2})), InternalError);
}

TEST_CASE("roc_auc on Predictions: binary uses proba column 1, else the single decision column") {
    Predictions p = metrics_test::classification({0, 0, 1, 1, 0, 1}, {0, 0, 1, 1, 1, 1}, {"no", "yes"});
    CHECK_FALSE(roc_auc(p).has_value());  // no scores
    p.decision = mat({{0.1}, {0.4}, {0.4}, {0.8}, {0.8}, {0.9}});
    CHECK(*roc_auc(p) == exact(7.0 / 9.0));
    CHECK(*average_precision(p) == exact(34.0 / 45.0));
    // Probabilities take precedence; column 1 reverses the decision ranking here.
    p.proba = mat({{0.1, 0.9}, {0.6, 0.4}, {0.6, 0.4}, {0.8, 0.2}, {0.8, 0.2}, {0.9, 0.1}});
    // positives' column-1 scores 0.4, 0.2, 0.1; negatives 0.9, 0.4, 0.2:
    //   0.4: ties 0.4, beats 0.2 -> 1.5; 0.2: ties 0.2 -> 0.5; 0.1: 0 -> AUC 2/9
    CHECK(*roc_auc(p) == exact(2.0 / 9.0));
    // A single class in y_true: undefined.
    Predictions one = metrics_test::classification({1, 1}, {1, 0}, {"no", "yes"});
    one.decision = mat({{0.3}, {-0.2}});
    CHECK_FALSE(roc_auc(one).has_value());
    CHECK_FALSE(average_precision(one).has_value());
}

TEST_CASE("roc_auc on Predictions: multiclass one-vs-rest macro by hand") {
    // y = 0 0 1 1 2 2, probabilities by row:
    //   [.6 .3 .1] [.3 .4 .3] [.2 .5 .3] [.4 .4 .2] [.1 .2 .7] [.3 .3 .4]
    // class 0: positives .6, .3 vs negatives .2 .4 .1 .3 -> (4 + 2.5)/8 = 0.8125
    // class 1: positives .5, .4 vs negatives .3 .4 .2 .3 -> (4 + 3.5)/8 = 0.9375
    // class 2: positives .7, .4 vs negatives .1 .3 .3 .2 -> 8/8 = 1
    // macro = 2.75/3 (sklearn 1.2.1 roc_auc_score(y, P, multi_class="ovr"): 0.9166666666666666)
    Predictions p = metrics_test::classification({0, 0, 1, 1, 2, 2}, {0, 1, 1, 0, 2, 2}, {"a", "b", "c"});
    p.proba = mat({{.6, .3, .1}, {.3, .4, .3}, {.2, .5, .3}, {.4, .4, .2}, {.1, .2, .7}, {.3, .3, .4}});
    CHECK(*roc_auc(p) == exact(2.75 / 3.0));
    // sklearn 1.2.1: average_precision_score(np.eye(3)[y], P, average="macro") = 0.861111111111111
    // class 0: thresholds .6 (tp1 fp0), .4 (tp1 fp1), .3 (tp2 fp2) -> 1/2·1 + 1/2·1/2 = 3/4
    // class 1: .5 (1,0), .4 (2,1) -> 1/2 + 1/2·2/3 = 5/6;  class 2: .7, .4 both first -> 1
    // macro = (3/4 + 5/6 + 1)/3 = 31/36
    CHECK(*average_precision(p) == exact(31.0 / 36.0));
    // Only classes present in y_true count: drop the class-2 rows and class 2 leaves the average.
    Predictions q = metrics_test::classification({0, 0, 1, 1}, {0, 1, 1, 0}, {"a", "b", "c"});
    q.proba = p.proba.topRows(4);
    // class 0: .6 .3 vs .2 .4 -> (2 + 1)/4; class 1: .5 .4 vs .3 .4 -> (2 + 1.5)/4
    CHECK(*roc_auc(q) == exact((0.75 + 0.875) / 2.0));
}

TEST_CASE("roc_auc on Predictions: a class seen only in the test data scores 0.5") {
    // Model classes a, b (proba n x 2); the test file adds c (index 2).
    // class a: positive .8 vs .3 .4 .1 -> 1; class b: .7 .9 vs .2 .6 -> 1;
    // class c: no score column -> a constant score -> 0.5. macro = 2.5/3.
    Predictions p = metrics_test::classification({0, 1, 2, 1}, {0, 1, 1, 1}, {"a", "b", "c"});
    p.proba = mat({{.8, .2}, {.3, .7}, {.4, .6}, {.1, .9}});
    CHECK(*roc_auc(p) == exact(2.5 / 3.0));
    // Its log loss counts the unseen class at probability eps (clipped), row sums
    // renormalised over all three classes. sklearn 1.2.1:
    // log_loss([0,1,2,1], [[.8,.2,0],[.3,.7,0],[.4,.6,0],[.1,.9,0]], labels=[0,1,2]) = 9.182208100006982
    CHECK(*log_loss(p) == exact(9.182208100006982));
}

TEST_CASE("log_loss: mean negative log-probability of the true class") {
    Predictions p = metrics_test::classification({0, 0, 1, 1, 2, 2}, {0, 1, 1, 0, 2, 2}, {"a", "b", "c"});
    CHECK_FALSE(log_loss(p).has_value());
    p.decision = mat({{1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}});
    CHECK_FALSE(log_loss(p).has_value());  // decision values are not probabilities
    p.proba = mat({{.6, .3, .1}, {.3, .4, .3}, {.2, .5, .3}, {.4, .4, .2}, {.1, .2, .7}, {.3, .3, .4}});
    // true-class probabilities .6 .3 .5 .4 .7 .4 (sklearn 1.2.1 log_loss: 0.7662003360564857)
    const double want = -(std::log(.6) + std::log(.3) + std::log(.5) + std::log(.4) + std::log(.7) + std::log(.4)) / 6;
    CHECK(*log_loss(p) == exact(want));
    CHECK(*log_loss(p) == exact(0.7662003360564857));
}

TEST_CASE("log_loss: a zero probability for the true class is clipped to machine epsilon") {
    // Row 1: p(true) = 0 -> eps = 2^-52, row renormalised by eps + (1 - eps) = 1:
    //   -log(2^-52) = 52 ln 2; row 2: -log(0.5) = ln 2. Mean = 53 ln2 / 2.
    // sklearn 1.2.1 log_loss([0, 1], [[0, 1], [0.5, 0.5]]) = 18.36840028483855 (eps="auto")
    Predictions p = metrics_test::classification({0, 1}, {1, 0}, {"a", "b"});
    p.proba = mat({{0, 1}, {0.5, 0.5}});
    CHECK(*log_loss(p) == exact(53.0 * std::log(2.0) / 2.0));
    CHECK(*log_loss(p) == exact(18.36840028483855));
}

TEST_CASE("ranking metrics reject regression predictions") {
    Predictions p = metrics_test::regression({1, 2}, {1, 2});
    CHECK_THROWS_AS(roc_auc(p), UsageError);
    CHECK_THROWS_AS(log_loss(p), UsageError);
}

}  // TEST_SUITE

}  // namespace unit_metrics_ranking_test
}  // namespace
