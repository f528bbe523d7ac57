// kestrel-auto --stack's second layer (model_selection/auto_stack.hpp, docs/auto.md
// "Stacking"): its inputs are exactly the members' out-of-fold predictions, its members each
// family's best first, its out-of-fold scores those of its fold models on rows they never
// saw, the keep rule against the strongest first-layer figure, and the budget rule; with
// --stack-features the table's own columns follow the predictions, which still come from fold
// models that never saw their rows.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "auto_tables.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/model_selection/auto_stack.hpp"
#include "kestrel/model_selection/fold_models.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_model_selection_auto_stack_test {

using namespace kestrel;
using test::xor_classes;

namespace {

Context context(int threads) {
    Context c;
    c.threads = threads;
    c.seed = 5;
    return c;
}

AutoOptions stack_options(const std::vector<std::string>& models, int max_evals) {
    AutoOptions o;
    o.split.k = 3;
    o.metric = "log_loss";
    o.models = models;
    o.max_evals = max_evals;
    o.confirm_leaders = 0;
    o.base.missing = "auto";
    o.stack_members = 3;
    return o;
}

// Four rows in two folds ({0, 2} and {1, 3}), two classes: the hand-checkable table.
Dataset four_rows(Task task) {
    Dataset d;
    DenseMatrix X(4, 1);
    X << 10, 20, 30, 40;
    d.X = Features(std::move(X));
    d.task = task;
    d.y.resize(4);
    d.y << 0, 1, 1, 0;
    if (task == Task::classification) d.classes = {"no", "yes"};
    return d;
}

std::vector<Fold> two_folds() {
    std::vector<Fold> folds(2);
    folds[0].test = {0, 2};
    folds[0].train = {1, 3};
    folds[1].test = {1, 3};
    folds[1].train = {0, 2};
    return folds;
}

Predictions probabilities(std::initializer_list<double> p_yes) {
    Predictions p;
    p.task = Task::classification;
    p.classes = {"no", "yes"};
    p.proba.resize(static_cast<Index>(p_yes.size()), 2);
    p.y_pred.resize(static_cast<Index>(p_yes.size()));
    Index i = 0;
    for (const double y : p_yes) {
        p.proba(i, 0) = 1 - y;
        p.proba(i, 1) = y;
        p.y_pred[i] = y > 0.5 ? 1 : 0;
        ++i;
    }
    return p;
}

Predictions values(std::initializer_list<double> v) {
    Predictions p;
    p.task = Task::regression;
    p.y_pred.resize(static_cast<Index>(v.size()));
    Index i = 0;
    for (const double x : v) p.y_pred[i++] = x;
    return p;
}

}  // namespace

TEST_SUITE("model_selection.auto_stack") {

TEST_CASE("stack_inputs: row i holds each member's out-of-fold prediction of row i, from the fold where i was a test row") {
    const Dataset d = four_rows(Task::classification);
    // Member A predicts fold 1's rows (0, 2) as P(yes) 0.1, 0.7 and fold 2's (1, 3) as 0.8, 0.4.
    const std::vector<Predictions> a = {probabilities({0.1, 0.7}), probabilities({0.8, 0.4})};
    const std::vector<Predictions> b = {probabilities({0.25, 0.5}), probabilities({0.9, 0.05})};
    const Dataset z = stack_inputs(d, two_folds(), {&a, &b}, {"A", "B"});
    CHECK(z.feature_names == std::vector<std::string>{"A:no", "A:yes", "B:no", "B:yes"});
    REQUIRE(z.rows() == 4);
    REQUIRE(z.cols() == 4);
    DenseMatrix want(4, 4);
    want << 1 - 0.1, 0.1, 1 - 0.25, 0.25,  // row 0: fold 1's first test row
        1 - 0.8, 0.8, 1 - 0.9, 0.9,        // row 1: fold 2's first
        1 - 0.7, 0.7, 1 - 0.5, 0.5,        // row 2: fold 1's second
        1 - 0.4, 0.4, 1 - 0.05, 0.05;      // row 3: fold 2's second
    CHECK(z.X.dense_ref() == want);
    CHECK(z.y == d.y);
    CHECK(z.classes == d.classes);
    CHECK(z.task == Task::classification);

    const Dataset r = four_rows(Task::regression);
    const std::vector<Predictions> v = {values({1.5, 2.5}), values({-1, 4})};
    const Dataset zr = stack_inputs(r, two_folds(), {&v}, {"V"});
    CHECK(zr.feature_names == std::vector<std::string>{"V"});
    DenseMatrix want_r(4, 1);
    want_r << 1.5, -1, 2.5, 4;
    CHECK(zr.X.dense_ref() == want_r);

    // Folds that miss a row, or predictions of other rows, are refused.
    std::vector<Fold> short_folds = two_folds();
    short_folds[1].test = {1};
    CHECK_THROWS_AS(stack_inputs(d, short_folds, {&a}, {"A"}), UsageError);
    const std::vector<Predictions> wrong = {probabilities({0.1}), probabilities({0.8, 0.4})};
    CHECK_THROWS_AS(stack_inputs(d, two_folds(), {&wrong}, {"A"}), UsageError);
}

TEST_CASE("auto_search --stack: the inputs are the members' out-of-fold predictions, each family's best first") {
    const Dataset d = test::noisy_two_classes(240);
    const AutoResult r = auto_search(d, stack_options({"logistic", "tree", "knn"}, 9), context(1));
    REQUIRE(r.stack.has_value());
    const AutoStack& s = *r.stack;
    REQUIRE(s.members.size() == 3);
    // One member per family (three families), each its family's best on the leaderboard.
    std::vector<std::string> families;
    for (const std::size_t m : s.members) {
        const std::string& model = r.leaderboard[m].model;
        CHECK(std::find(families.begin(), families.end(), model) == families.end());
        families.push_back(model);
        for (std::size_t i = 0; i < m; ++i) CHECK(r.leaderboard[i].model != model);
    }
    CHECK(s.members == stack_member_choice(r, 3));
    std::vector<const std::vector<Predictions>*> oof;
    std::vector<std::string> names;
    for (const std::size_t m : s.members) {
        oof.push_back(&r.leaderboard[m].oof);
        names.push_back("L1_" + std::to_string(m + 1) + "_" + r.leaderboard[m].model);
    }
    const Dataset z = stack_inputs(d, r.folds, oof, names);
    CHECK(z.X.dense_ref() == s.inputs.X.dense_ref());
    CHECK(z.feature_names == s.inputs.feature_names);
    REQUIRE(s.inputs.cols() == 6);  // 3 members x 2 classes
    // Member m's columns on fold k's test rows are its out-of-fold probabilities there.
    for (std::size_t k = 0; k < r.folds.size(); ++k)
        for (std::size_t t = 0; t < r.folds[k].test.size(); ++t)
            for (Index c = 0; c < 2; ++c)
                CHECK(s.inputs.X.dense_ref()(r.folds[k].test[t], 2 + c) ==
                      r.leaderboard[s.members[1]].oof[k].proba(static_cast<Index>(t), c));
}

TEST_CASE("auto_search --stack: each second-layer score is its fold models' on rows they never saw; the keep rule") {
    const Dataset d = test::noisy_two_classes(240);
    const AutoResult r = auto_search(d, stack_options({"logistic", "tree", "knn"}, 9), context(2));
    REQUIRE(r.stack.has_value());
    const AutoStack& s = *r.stack;
    REQUIRE(s.candidates.size() == 2);
    CHECK(s.candidates[0].model == "logistic");
    CHECK(s.candidates[1].model == "gbdt");
    for (const auto& c : s.candidates) {
        CAPTURE(c.model);
        REQUIRE(c.fold_scores.size() == 3);
        // Fold k's model (the one the saved stack holds) fitted on fold k's training rows of
        // the inputs; its log loss on fold k's test rows is the fold score.
        const std::vector<Model> bag = fit_fold_models(s.inputs, r.folds, c.spec, context(1), c.model);
        for (std::size_t k = 0; k < 3; ++k)
            CHECK(c.fold_scores[k] ==
                  doctest::Approx(test::held_out_log_loss(bag[k], s.inputs.subset(r.folds[k].test))).epsilon(1e-12));
    }
    // The rival: the best search-fold mean of any candidate (no confirmation, no ensemble).
    double best_single = std::numeric_limits<double>::infinity();
    for (const auto& c : r.leaderboard) best_single = std::min(best_single, summarize(c.fold_scores).mean);
    CHECK(s.rival == "best single model");
    CHECK(s.rival_mean == best_single);
    const double chosen = std::min(s.candidates[0].score.mean, s.candidates[1].score.mean);
    CHECK(s.best().score.mean == chosen);
    CHECK(s.margin == doctest::Approx(best_single - chosen).epsilon(1e-15));
    CHECK(s.kept == (chosen < best_single));
    // The same at 1 thread.
    const AutoResult one = auto_search(d, stack_options({"logistic", "tree", "knn"}, 9), context(1));
    REQUIRE(one.stack.has_value());
    CHECK(one.stack->candidates[0].fold_scores == s.candidates[0].fold_scores);
    CHECK(one.stack->candidates[1].fold_scores == s.candidates[1].fold_scores);
    CHECK(one.stack->kept == s.kept);
}

TEST_CASE("auto_search --stack: not kept when it does not beat the first layer out of fold (a perfect tree)") {
    const Dataset d = xor_classes(300);
    AutoOptions o = stack_options({"tree", "logistic"}, 4);
    o.metric = "accuracy";
    const AutoResult r = auto_search(d, o, context(1));
    REQUIRE(r.stack.has_value());
    const AutoStack& s = *r.stack;
    REQUIRE(!s.candidates.empty());
    CHECK(s.rival_mean == 1.0);  // the tree's defaults are perfect on every fold
    CHECK(s.margin <= 0);
    CHECK(!s.kept);
}

TEST_CASE("build_auto_stack: no time left in the budget, no second layer, and the note says so") {
    const Dataset d = test::noisy_two_classes(150);
    AutoOptions o = stack_options({"logistic", "tree"}, 3);
    const AutoResult r = auto_search(d, o, context(1));
    const AutoStack s = build_auto_stack(d, r, o, context(1), 0.0);
    CHECK(s.candidates.empty());
    CHECK(!s.kept);
    CHECK(s.note == "the time budget left no time for the second layer");
    // With time left, the same pool gives the stack the search built.
    const AutoStack again = build_auto_stack(d, r, o, context(1), std::numeric_limits<double>::infinity());
    REQUIRE(r.stack.has_value());
    CHECK(again.candidates.size() == r.stack->candidates.size());
    CHECK(again.best().fold_scores == r.stack->best().fold_scores);
}

TEST_CASE("auto_search --stack under a time budget: the first layer stops at 90% of it, leaving the second layer's share") {
    const Dataset d = test::noisy_two_classes(600);
    AutoOptions o = stack_options({"logistic", "tree", "knn", "forest"}, 0);
    o.time_budget = 2.0;
    const auto start = std::chrono::steady_clock::now();
    const AutoResult r = auto_search(d, o, context(2));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    REQUIRE(r.stack.has_value());
    // The last first-layer evaluation ended within the first layer's 1.8 s (plus one
    // evaluation's overrun, as any budget); the whole run within the budget's rule.
    double last = 0;
    for (const auto& c : r.leaderboard) last = std::max(last, c.finished_at);
    CHECK(last < 1.8 * 1.5 + 1);
    CHECK(wall < 2.0 * 1.5 + 1);
    if (r.stack->candidates.empty()) CHECK(r.stack->note == "the time budget left no time for the second layer");
}

TEST_CASE("stack_inputs with the table's own columns: they follow the predictions, with their names and categories") {
    Dataset d = four_rows(Task::classification);
    DenseMatrix X(4, 2);
    X << 10, 1, 20, std::numeric_limits<double>::quiet_NaN(), 30, 0, 40, 1;
    d.X = Features(std::move(X));
    d.feature_names = {"size", "colour"};
    d.category_counts = {0, 2};
    d.categories = {{}, {"red", "blue"}};
    const std::vector<Predictions> a = {probabilities({0.1, 0.7}), probabilities({0.8, 0.4})};
    const Dataset z = stack_inputs(d, two_folds(), {&a}, {"A"}, true);
    CHECK(z.feature_names == std::vector<std::string>{"A:no", "A:yes", "size", "colour"});
    CHECK(z.category_counts == std::vector<Index>{0, 0, 0, 2});
    CHECK(z.categories == CategoryLists{{}, {}, {}, {"red", "blue"}});
    REQUIRE(z.cols() == 4);
    CHECK(z.X.dense_ref()(1, 1) == 0.8);  // row 1: fold 2's first test row
    CHECK(z.X.dense_ref()(3, 2) == 40);
    CHECK(std::isnan(z.X.dense_ref()(1, 3)));  // a missing cell stays missing
    CHECK(z.X.dense_ref()(2, 3) == 0);
    // Without a header the columns are named by position; without the flag they are absent.
    d.feature_names.clear();
    CHECK(stack_inputs(d, two_folds(), {&a}, {"A"}, true).feature_names ==
          std::vector<std::string>{"A:no", "A:yes", "x1", "x2"});
    CHECK(stack_inputs(d, two_folds(), {&a}, {"A"}).cols() == 2);
}

TEST_CASE("auto_search --stack-features: the inputs' predictions come from fold models that never saw their rows") {
    const Dataset d = test::noisy_two_classes(240);
    AutoOptions o = stack_options({"logistic", "tree", "knn"}, 9);
    o.stack_features = true;
    const AutoResult r = auto_search(d, o, context(2));
    REQUIRE(r.stack.has_value());
    const AutoStack& s = *r.stack;
    CHECK(s.features);
    REQUIRE(s.members.size() == 3);
    REQUIRE(s.inputs.cols() == 3 * 2 + 2);
    CHECK(s.inputs.X.dense_ref().rightCols(2) == d.X.dense_ref());
    for (std::size_t g = 0; g < s.members.size(); ++g) {
        const AutoCandidate& c = r.leaderboard[s.members[g]];
        CAPTURE(c.model);
        // Fold k's model of the member, fitted on fold k's training rows alone (none of them
        // a test row of fold k), gives exactly the inputs of fold k's test rows.
        const std::vector<Model> bag = fit_fold_models(d, r.folds, c.spec, context(1), c.model);
        for (std::size_t k = 0; k < r.folds.size(); ++k) {
            const Fold& fold = r.folds[k];
            for (const Index i : fold.test)
                CHECK(std::find(fold.train.begin(), fold.train.end(), i) == fold.train.end());
            const Matrix p = bag[k].predict_proba(d.subset(fold.test).X);
            for (std::size_t t = 0; t < fold.test.size(); ++t)
                for (Index cls = 0; cls < 2; ++cls)
                    CHECK(s.inputs.X.dense_ref()(fold.test[t], static_cast<Index>(g) * 2 + cls) ==
                          p(static_cast<Index>(t), cls));
        }
    }
    // Each second-layer score is its fold models' on the held-out rows of the inputs.
    REQUIRE(s.candidates.size() == 2);
    for (const auto& c : s.candidates) {
        const std::vector<Model> bag = fit_fold_models(s.inputs, r.folds, c.spec, context(1), c.model);
        for (std::size_t k = 0; k < r.folds.size(); ++k)
            CHECK(c.fold_scores[k] ==
                  doctest::Approx(test::held_out_log_loss(bag[k], s.inputs.subset(r.folds[k].test))).epsilon(1e-12));
    }
    // Under --max-evals the same stack at 1 thread: inputs, scores and verdict.
    const AutoResult one = auto_search(d, o, context(1));
    REQUIRE(one.stack.has_value());
    CHECK(one.stack->inputs.X.dense_ref() == s.inputs.X.dense_ref());
    CHECK(one.stack->candidates[0].fold_scores == s.candidates[0].fold_scores);
    CHECK(one.stack->candidates[1].fold_scores == s.candidates[1].fold_scores);
    CHECK(one.stack->kept == s.kept);
    CHECK(one.stack->margin == s.margin);
}

}  // TEST_SUITE

}  // namespace unit_model_selection_auto_stack_test
}  // namespace
