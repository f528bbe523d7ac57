// gbdt's learning_rate=auto (docs/models/gbdt.md, "The default learning rate"): η 0.1, and
// η 0.2 for softmax under hessian=xgboost, whose doubled Hessian halves every leaf value.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <vector>

#include "gbdt_test_util.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_learning_rate_test {

using namespace kestrel;
using gbdt_test::fit_gbdt;

namespace {

// k classes from a noisy score of 3 features.
Dataset scored_classes(Index n, Index k, std::uint64_t seed) {
    Rng rng(seed);
    Dataset d;
    DenseMatrix X(n, 3);
    d.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < 3; ++j) X(i, j) = rng.normal();
        const double s = X(i, 0) + 0.5 * X(i, 1) * X(i, 2) + 0.5 * rng.normal();
        d.y[i] = std::fmin(static_cast<double>(k - 1), std::fmax(0.0, std::floor((s + 1.5) / 3 * static_cast<double>(k))));
    }
    d.X = Features(std::move(X));
    d.task = Task::classification;
    for (Index c = 0; c < k; ++c) d.classes.push_back("c" + std::to_string(c));
    return d;
}

double max_difference(const Matrix& a, const Matrix& b) { return (a - b).cwiseAbs().maxCoeff(); }

}  // namespace

TEST_SUITE("unit") {
    TEST_CASE("gbdt learning_rate=auto is eta 0.2 for softmax under hessian=xgboost, 0.1 otherwise") {
        const Dataset three = scored_classes(300, 3, 7);
        const Params rounds{{"n_estimators", "10"}};
        auto with = [&](Params extra, const Dataset& d) {
            Params p = rounds;
            for (auto it = extra.begin(); it != extra.end(); ++it) p[it.key()] = it.value();
            return fit_gbdt(d, p)->predict_proba(d.X);
        };
        const Matrix by_default = with({}, three);
        CHECK(max_difference(by_default, with({{"learning_rate", "0.2"}}, three)) == 0.0);
        CHECK(max_difference(by_default, with({{"learning_rate", "0.1"}}, three)) > 1e-3);
        // scikit-learn's Hessian takes the step of 0.1 itself.
        const Matrix sklearn = with({{"hessian", "sklearn"}}, three);
        CHECK(max_difference(sklearn, with({{"hessian", "sklearn"}, {"learning_rate", "0.1"}}, three)) == 0.0);
        // Two classes (logistic): 0.1.
        const Dataset two = scored_classes(300, 2, 8);
        CHECK(max_difference(with({}, two), with({{"learning_rate", "0.1"}}, two)) == 0.0);
    }

    TEST_CASE("gbdt's learning_rate=auto under the doubled Hessian is the sklearn step when lambda and min_child_weight are 0") {
        // Leaf -G/(2H + λ) at η 0.2 equals -G/(H + λ/2) at η 0.1: with λ = 0 (and min_child_weight 0,
        // which compares against the doubled H) both Hessians give the same trees, but for splits
        // whose gain falls between the absolute minimum gain 1e-6 and twice it (halved by 2H).
        // (One start for both: base_score=auto starts xgboost from uniform, sklearn from the priors.)
        const Dataset four = scored_classes(400, 4, 9);
        Params p{{"n_estimators", "5"}, {"lambda", "0"}, {"min_child_weight", "0"}, {"base_score", "0"}};
        const Matrix xgb = fit_gbdt(four, p)->predict_proba(four.X);
        p["hessian"] = "sklearn";
        const Matrix sk = fit_gbdt(four, p)->predict_proba(four.X);
        CHECK(max_difference(xgb, sk) < 1e-4);  // measured 4.4e-5
        p["learning_rate"] = "0.2";  // twice the step: a different model
        CHECK(max_difference(xgb, fit_gbdt(four, p)->predict_proba(four.X)) > 1e-2);
    }
}

TEST_SUITE("unit") {
    TEST_CASE("gbdt base_score=auto for softmax: uniform under hessian=xgboost (XGBoost 1.7's 0.5), log priors under sklearn") {
        const Dataset three = scored_classes(300, 3, 7);
        std::array<double, 3> count{};
        for (Index i = 0; i < three.y.size(); ++i) count[static_cast<std::size_t>(three.y[i])] += 1;
        const Params rounds{{"n_estimators", "1"}};
        CHECK(fit_gbdt(three, rounds)->base_score() == std::vector<double>{0.0, 0.0, 0.0});
        Params sk = rounds;
        sk["hessian"] = "sklearn";
        const std::vector<double> priors = fit_gbdt(three, sk)->base_score();
        REQUIRE(priors.size() == 3);
        for (std::size_t c = 0; c < 3; ++c) CHECK(priors[c] == doctest::Approx(std::log(count[c] / 300)).epsilon(1e-12));
        // Binary logistic keeps the log-odds of the prior under either choice.
        const Dataset two = scored_classes(300, 2, 8);
        double positives = 0;
        for (Index i = 0; i < two.y.size(); ++i) positives += two.y[i];
        CHECK(fit_gbdt(two, rounds)->base_score()[0] == doctest::Approx(std::log(positives / (300 - positives))).epsilon(1e-12));
    }
}

}  // namespace unit_boosting_gbdt_learning_rate_test
}  // namespace
