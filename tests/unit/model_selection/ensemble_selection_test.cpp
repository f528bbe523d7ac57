// Ensemble selection (model_selection/ensemble_selection.hpp) on out-of-fold predictions
// made by hand, whose greedy picks are worked out in the comments; the tie rule; the
// refusals (kestrel-auto's use of it: auto_search_test.cpp).
#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/model_selection/ensemble_selection.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_model_selection_ensemble_selection_test {

using namespace kestrel;

namespace {

Predictions regression_fold(const std::vector<double>& y, const std::vector<double>& pred) {
    Predictions p;
    p.task = Task::regression;
    p.y_true = Eigen::Map<const Vector>(y.data(), static_cast<Index>(y.size()));
    p.y_pred = Eigen::Map<const Vector>(pred.data(), static_cast<Index>(pred.size()));
    return p;
}

// Binary probabilities of classes[1], one per row.
Predictions binary_fold(const std::vector<double>& y, const std::vector<double>& p1) {
    Predictions p;
    p.task = Task::classification;
    p.classes = {"no", "yes"};
    const auto n = static_cast<Index>(y.size());
    p.y_true = Eigen::Map<const Vector>(y.data(), n);
    p.proba.resize(n, 2);
    p.y_pred.resize(n);
    for (Index i = 0; i < n; ++i) {
        p.proba(i, 0) = 1 - p1[static_cast<std::size_t>(i)];
        p.proba(i, 1) = p1[static_cast<std::size_t>(i)];
        p.y_pred[i] = p1[static_cast<std::size_t>(i)] > 0.5 ? 1 : 0;
    }
    return p;
}

}  // namespace

TEST_SUITE("model_selection") {
    TEST_CASE("ensemble selection: greedy picks with replacement on hand-made regression predictions") {
        // y = (1, -1); A = (2, 0) and B = (0, -2) have mse 1, C = (1.8, -0.2) mse 0.64.
        // Round 1: C. Round 2: (C+A)/2 errs (0.9, 0.9) -> 0.81, (C+B)/2 = (0.9, -1.1) -> 0.01,
        // (C+C)/2 -> 0.64: B. Round 3: (2C+B+A)/3 errs 0.267 -> 0.071, (C+2B)/3 errs 0.4 -> 0.16,
        // (2C+B)/3 = (1.2, -0.8) -> 0.04: C. Round 4: (2C+2B)/4 -> 0.01 beats (2C+B+A)/4 -> 0.16
        // and (3C+B)/4 -> 0.1225: B. Weights 2/4 each; two identical folds, so the mean is a fold's.
        const std::vector<double> y = {1, -1};
        const std::vector<std::vector<Predictions>> oof = {
            {regression_fold(y, {2, 0}), regression_fold(y, {2, 0})},
            {regression_fold(y, {0, -2}), regression_fold(y, {0, -2})},
            {regression_fold(y, {1.8, -0.2}), regression_fold(y, {1.8, -0.2})}};
        const EnsembleSelection s = select_ensemble(oof, "mse", 4);
        CHECK(s.picks == std::vector<std::size_t>{2, 1, 2, 1});
        CHECK(s.members == std::vector<std::size_t>{1, 2});
        CHECK(s.weights == std::vector<double>{0.5, 0.5});
        REQUIRE(s.fold_scores.size() == 2);
        CHECK(s.fold_scores[0] == doctest::Approx(0.01).epsilon(1e-12));
        CHECK(s.score.mean == doctest::Approx(0.01).epsilon(1e-12));
        CHECK(s.score.std == doctest::Approx(0.0));
        // One round is the best single candidate alone.
        const EnsembleSelection one = select_ensemble(oof, "mse", 1);
        CHECK(one.members == std::vector<std::size_t>{2});
        CHECK(one.weights == std::vector<double>{1.0});
        CHECK(one.score.mean == doctest::Approx(0.64).epsilon(1e-12));
    }

    TEST_CASE("ensemble selection held out: each fold scored by a selection made on the other folds") {
        // y = (1, -1) on three folds; mse of A per fold 1, 1, 0 (preds (2,0), (2,0), (1,-1)),
        // of B 1, 1, 4 (preds (0,-2), (0,-2), (3,1)).
        const std::vector<double> y = {1, -1};
        const std::vector<std::vector<Predictions>> oof = {
            {regression_fold(y, {2, 0}), regression_fold(y, {2, 0}), regression_fold(y, {1, -1})},
            {regression_fold(y, {0, -2}), regression_fold(y, {0, -2}), regression_fold(y, {3, 1})}};
        // On all folds, 2 rounds: A (mean 2/3), then (A+B)/2 errs 0, 0, 1 -> 1/3: B. The
        // in-sample figure 1/3 beats A's 2/3.
        const EnsembleSelection s = select_ensemble(oof, "mse", 2);
        CHECK(s.picks == std::vector<std::size_t>{0, 1});
        CHECK(s.score.mean == doctest::Approx(1.0 / 3).epsilon(1e-12));
        // Without fold 1 (folds 2, 3): A 0.5 against B 2.5, then A+A 0.5 ties (A+B)/2's
        // (0 + 1)/2, so A stays: A alone scores fold 1 at 1. Fold 2 the same. Without fold 3:
        // A and B tie at 1 (A), then (A+B)/2 = (1, -1) scores 0: B; on fold 3 (A+B)/2 =
        // (2, 0) scores 1. Held out: 1, 1, 1.
        const std::vector<double> ens = held_out_ensemble_scores(oof, "mse", 2);
        REQUIRE(ens.size() == 3);
        for (double v : ens) CHECK(v == doctest::Approx(1.0).epsilon(1e-12));
        // The best single candidate on the other folds: A for folds 1 and 2 (0.5 against
        // 2.5), A for fold 3 (a tie at 1: the first); its scores 1, 1, 0, mean 2/3 < 1.
        const std::vector<double> single = held_out_best_scores({{1, 1, 0}, {1, 1, 4}}, false);
        CHECK(single == std::vector<double>{1, 1, 0});
        // Accuracy-like (greater is better): the other folds' best is taken.
        CHECK(held_out_best_scores({{0.9, 0.5}, {0.6, 0.8}}, true) == std::vector<double>{0.6, 0.5});
        CHECK_THROWS_AS(held_out_ensemble_scores({{regression_fold(y, {1, 1})}}, "mse", 2), UsageError);
        CHECK_THROWS_AS(held_out_best_scores({{1.0}}, false), UsageError);
        CHECK_THROWS_AS(held_out_best_scores({{1.0, 2.0}, {1.0}}, false), UsageError);
    }

    TEST_CASE("ensemble selection: probabilities averaged; a tie keeps the earlier candidate") {
        // y = (0, 1); A gives P(yes) = (0.5, 0.9), B (0.1, 0.5): both log loss
        // -(ln 0.5 + ln 0.9)/2 = 0.3993, a tie, so round 1 takes A (the first). Round 2:
        // A+A stays 0.3993, (A+B)/2 = (0.3, 0.7) -> -ln 0.7 = 0.3567: B. Round 3: adding A
        // or B gives the mirror images (0.367, 0.767) and (0.233, 0.633), a tie again: A.
        const std::vector<double> y = {0, 1};
        const Predictions a = binary_fold(y, {0.5, 0.9}), b = binary_fold(y, {0.1, 0.5});
        const EnsembleSelection s = select_ensemble({{a}, {b}}, "log_loss", 3);
        CHECK(s.picks == std::vector<std::size_t>{0, 1, 0});
        CHECK(s.members == std::vector<std::size_t>{0, 1});
        REQUIRE(s.weights.size() == 2);
        CHECK(s.weights[0] == doctest::Approx(2.0 / 3).epsilon(1e-15));
        CHECK(s.weights[1] == doctest::Approx(1.0 / 3).epsilon(1e-15));
        const double p0 = 1 - (2 * 0.5 + 0.1) / 3, p1 = (2 * 0.9 + 0.5) / 3;
        CHECK(s.score.mean == doctest::Approx(-(std::log(p0) + std::log(p1)) / 2).epsilon(1e-12));
        // In the other order the tie goes to B, now the first.
        const EnsembleSelection swapped = select_ensemble({{b}, {a}}, "log_loss", 3);
        CHECK(swapped.picks == std::vector<std::size_t>{0, 1, 0});
        // The same candidate twice: every round ties, the first copy takes every pick.
        const EnsembleSelection same = select_ensemble({{a}, {a}}, "log_loss", 5);
        CHECK(same.members == std::vector<std::size_t>{0});
        CHECK(same.weights == std::vector<double>{1.0});
        // The average's classes: argmax of the averaged probabilities.
        const Predictions avg = weighted_average({&a, &b}, {0.5, 0.5});
        CHECK(avg.proba(0, 1) == doctest::Approx(0.3));
        CHECK(avg.y_pred[0] == 0);
        CHECK(avg.y_pred[1] == 1);
    }

    TEST_CASE("ensemble selection refusals: no candidates, no rounds, no probabilities, other rows") {
        const std::vector<double> y = {0, 1};
        const Predictions a = binary_fold(y, {0.2, 0.7});
        CHECK_THROWS_AS(select_ensemble({}, "accuracy", 5), UsageError);
        CHECK_THROWS_AS(select_ensemble({{a}}, "accuracy", 0), UsageError);
        Predictions no_proba = a;
        no_proba.proba.resize(0, 0);
        CHECK_THROWS_WITH_AS(select_ensemble({{a}, {no_proba}}, "accuracy", 2),
                             doctest::Contains("gives no probabilities"), UsageError);
        const Predictions other = binary_fold({1, 1}, {0.2, 0.7});
        CHECK_THROWS_AS(select_ensemble({{a}, {other}}, "accuracy", 2), UsageError);
        CHECK_THROWS_AS(select_ensemble({{a}, {a, a}}, "accuracy", 2), UsageError);
    }
}

}  // namespace unit_model_selection_ensemble_selection_test
}  // namespace
