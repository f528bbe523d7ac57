// kestrel-auto's search (model_selection/auto_search.hpp): the declared spaces' sampler,
// the budget text, and the portfolio loop's allocation, determinism and budget rules.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <string>

#include "auto_tables.hpp"
#include "command_error.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/model_selection/auto_search.hpp"
#include "kestrel/model_selection/ensemble_selection.hpp"
#include "kestrel/pipeline/registry.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_model_selection_auto_search_test {

using namespace kestrel;
using test::noisy_two_classes;
using test::xor_classes;

namespace {

Context context(int threads, std::uint64_t seed = 3) {
    Context c;
    c.threads = threads;
    c.seed = seed;
    return c;
}

double value(const GridPoint& p, const std::string& name) {
    for (const auto& [k, v] : p)
        if (k == name) return std::stod(v);
    FAIL("no axis " << name);
    return 0;
}

}  // namespace

TEST_SUITE("model_selection") {

TEST_CASE("declared space sampler: the same points for a seed, log-uniform C and gamma within LIBSVM grid.py's range") {
    const auto axes = declared_axes("svc");
    const auto a = sample_points(axes, 2000, 11);
    CHECK(a == sample_points(axes, 2000, 11));
    CHECK(a != sample_points(axes, 2000, 12));
    int c_below_mid = 0, g_below_mid = 0;
    for (const auto& p : a) {
        const double C = value(p, "C"), g = value(p, "gamma");
        CHECK(C >= std::ldexp(1.0, -5));
        CHECK(C < std::ldexp(1.0, 15));
        CHECK(g >= std::ldexp(1.0, -15));
        CHECK(g < std::ldexp(1.0, 3));
        // Log-uniform: half the draws below the geometric midpoint (2^5 for C, 2^-6 for gamma).
        c_below_mid += C < std::ldexp(1.0, 5);
        g_below_mid += g < std::ldexp(1.0, -6);
    }
    // Binomial(2000, 1/2): sd 22; 5 sd either side.
    CHECK(std::abs(c_below_mid - 1000) < 112);
    CHECK(std::abs(g_below_mid - 1000) < 112);
}

TEST_CASE("declared spaces: a model without one is a usage error naming it") {
    CHECK_THROWS_WITH_AS(declared_axes("perceptron"), doctest::Contains("perceptron declares no search space"),
                         UsageError);
    CHECK_THROWS_AS(declared_axes("no_such_model"), UsageError);
}

TEST_CASE("default portfolio: the task's models with a space, cheapest first") {
    const auto cls = default_portfolio(Task::classification);
    const auto reg = default_portfolio(Task::regression);
    CHECK(cls == std::vector<std::string>{"linear_svm", "logistic", "tree", "knn", "forest", "gbdt", "svc"});
    CHECK(reg == std::vector<std::string>{"least_squares", "ridge", "tree", "knn", "forest", "gbdt", "svr"});
}

TEST_CASE("parse_duration: seconds by default, ms / s / m / h units; anything else is a usage error") {
    CHECK(parse_duration("60s") == 60);
    CHECK(parse_duration("90") == 90);
    CHECK(parse_duration("2m") == 120);
    CHECK(parse_duration("1.5h") == 5400);
    CHECK(parse_duration("500ms") == doctest::Approx(0.5));
    for (const char* bad : {"", "s", "abc", "-1s", "0", "0s", "10x", "1e999s", "5 s", "ms"})
        CHECK_COMMAND_THROWS_WITH_AS(parse_duration(bad), doctest::Contains("--time-budget"), UsageError);
    // The library names its option; kestrel-auto prints its flag there.
    CHECK_THROWS_WITH_AS(parse_duration("abc"), doctest::Contains("time_budget abc: expected a positive duration"),
                         UsageError);
}

TEST_CASE("auto_search: --max-evals runs exactly N, the portfolio first in family order, same result at 1 and 2 threads") {
    const Dataset d = noisy_two_classes(150);
    AutoOptions o;
    o.metric = "accuracy";
    o.models = {"logistic", "tree", "knn"};
    o.max_evals = 7;
    o.split.k = 3;
    o.confirm_leaders = 0;  // the search alone: every score on the one split
    const AutoResult one = auto_search(d, o, context(1));
    const AutoResult two = auto_search(d, o, context(2));
    REQUIRE(one.leaderboard.size() == 7);
    CHECK(one.stopped_by == "max-evals");
    CHECK(one.n_splits == 3);
    CHECK(one.portfolio == o.models);
    // Round 0: each family's defaults (with the space's fixed settings), in the given order.
    std::vector<const AutoCandidate*> by_order(7);
    for (const auto& c : one.leaderboard) by_order[static_cast<std::size_t>(c.order - 1)] = &c;
    CHECK(by_order[0]->model == "logistic");
    CHECK(by_order[0]->point == GridPoint{{"scale", "standard"}});
    CHECK(by_order[1]->model == "tree");
    CHECK(by_order[1]->point.empty());
    CHECK(by_order[2]->model == "knn");
    // Then every family's next portfolio configuration, in the same order, whoever leads.
    CHECK(by_order[3]->model == "logistic");
    CHECK(by_order[3]->point == declared_portfolio("logistic")[0]);
    CHECK(by_order[4]->model == "tree");
    CHECK(by_order[4]->point == declared_portfolio("tree")[0]);
    CHECK(by_order[5]->model == "knn");
    CHECK(by_order[5]->point == declared_portfolio("knn")[0]);
    CHECK(by_order[6]->point == declared_portfolio("logistic")[1]);
    // Sorted best first; the winner is the best mean; the folds' mean is the score.
    for (std::size_t i = 1; i < one.leaderboard.size(); ++i)
        CHECK(one.leaderboard[i - 1].score.mean >= one.leaderboard[i].score.mean);
    for (const auto& c : one.leaderboard) {
        REQUIRE(c.fold_scores.size() == 3);
        CHECK(c.score.mean == doctest::Approx((c.fold_scores[0] + c.fold_scores[1] + c.fold_scores[2]) / 3));
    }
    REQUIRE(two.leaderboard.size() == one.leaderboard.size());
    for (std::size_t i = 0; i < one.leaderboard.size(); ++i) {
        CHECK(two.leaderboard[i].model == one.leaderboard[i].model);
        CHECK(two.leaderboard[i].point == one.leaderboard[i].point);
        CHECK(two.leaderboard[i].fold_scores == one.leaderboard[i].fold_scores);
    }
}

TEST_CASE("auto_search: the portfolio comes right after the defaults, each evaluated alone, then the draws are screened") {
    const Dataset d = noisy_two_classes(300);
    AutoOptions o;
    o.metric = "accuracy";
    o.split.k = 3;
    o.models = {"gbdt"};
    o.confirm_leaders = 0;
    const std::vector<GridPoint> portfolio = declared_portfolio("gbdt");
    o.max_evals = static_cast<int>(portfolio.size()) + 2;
    const AutoResult r = auto_search(d, o, context(1));
    REQUIRE(r.leaderboard.size() == portfolio.size() + 2);
    std::vector<GridPoint> by_order(r.leaderboard.size());
    for (const auto& c : r.leaderboard) by_order[static_cast<std::size_t>(c.order - 1)] = c.point;
    // The defaults with the space's fixed early stopping; then the portfolio over it, in order.
    CHECK(by_order[0] == GridPoint{{"early_stopping_rounds", "20"}});
    CHECK(by_order[1] == GridPoint{{"early_stopping_rounds", "0"}});
    for (std::size_t i = 0; i < portfolio.size(); ++i) CHECK(by_order[i + 1] == portfolio[i]);
    // Only the turn after the portfolio screens: a batch of 9 drawn points, 8 of them left behind.
    CHECK(r.screened == 8);
    CHECK(r.screening_rounds == 2);
    o.max_evals = static_cast<int>(portfolio.size()) + 1;
    CHECK(auto_search(d, o, context(1)).screened == 0);
}

TEST_CASE("auto_search: a family's draws depend on the seed and its name, not on the rest of the portfolio") {
    const Dataset d = xor_classes(100);
    AutoOptions o;
    o.metric = "accuracy";
    o.split.k = 3;
    o.models = {"tree"};
    const int tree_portfolio = 1 + static_cast<int>(declared_portfolio("tree").size());
    o.max_evals = tree_portfolio + 2;
    const AutoResult alone = auto_search(d, o, context(1));
    o.models = {"logistic", "tree"};
    // After both portfolios, logistic's best loses to tree's, so the draws go to tree alone.
    o.max_evals = tree_portfolio + 1 + static_cast<int>(declared_portfolio("logistic").size()) + 2;
    const AutoResult both = auto_search(d, o, context(1));
    std::vector<GridPoint> tree_alone, tree_both;
    for (int k = 1; k <= 40; ++k) {
        for (const auto& c : alone.leaderboard)
            if (c.order == k) tree_alone.push_back(c.point);
        for (const auto& c : both.leaderboard)
            if (c.order == k && c.model == "tree") tree_both.push_back(c.point);
    }
    REQUIRE(tree_alone.size() == static_cast<std::size_t>(tree_portfolio) + 2);
    CHECK(tree_alone == tree_both);
}

TEST_CASE("auto_search: a one-point space is evaluated once; a table too large for a family skips it with the reason") {
    Dataset d = noisy_two_classes(60);
    d.task = Task::regression;
    d.classes.clear();
    AutoOptions o;
    o.metric = "r2";
    o.split.k = 3;
    o.models = {"least_squares"};
    o.max_evals = 5;
    const AutoResult r = auto_search(d, o, context(1));
    CHECK(r.leaderboard.size() == 1);  // fit_intercept=1 is its defaults: nothing else to try
    CHECK(r.stopped_by == "space");

    const Dataset big = noisy_two_classes(50001);
    AutoOptions ob;
    ob.metric = "accuracy";
    ob.models = {"knn"};
    ob.max_evals = 1;
    CHECK_THROWS_WITH_AS(auto_search(big, ob, context(1)), doctest::Contains("more than 50000 rows"), UsageError);
}

TEST_CASE("auto_search: bad portfolios and metrics are usage errors naming the flag") {
    const Dataset d = noisy_two_classes(60);
    AutoOptions o;
    o.metric = "accuracy";
    o.max_evals = 2;
    o.models = {"nosuch"};
    CHECK_COMMAND_THROWS_WITH_AS(auto_search(d, o, context(1)), doctest::Contains("--models nosuch: unknown model"),
                                 UsageError);
    o.models = {"perceptron"};
    CHECK_THROWS_WITH_AS(auto_search(d, o, context(1)), doctest::Contains("declares no search space"), UsageError);
    o.models = {"ridge"};
    CHECK_THROWS_WITH_AS(auto_search(d, o, context(1)), doctest::Contains("does not learn classification"), UsageError);
    o.models = {"tree", "tree"};
    CHECK_THROWS_WITH_AS(auto_search(d, o, context(1)), doctest::Contains("given twice"), UsageError);
    o.models = {"tree"};
    o.metric = "r2";
    CHECK_COMMAND_THROWS_WITH_AS(auto_search(d, o, context(1)), doctest::Contains("--metric r2"), UsageError);
}

TEST_CASE("auto_search: a wall-clock budget already spent before the search is a clear error") {
    const Dataset d = noisy_two_classes(60);
    AutoOptions o;
    o.metric = "accuracy";
    o.models = {"gbdt"};  // hundreds of distinct draws: the budget, not the space, ends the run
    o.time_budget = 1;
    o.seconds_used = 2;  // reading the table took longer than the whole budget
    CHECK_THROWS_WITH_AS(auto_search(d, o, context(1)), doctest::Contains("before any model was evaluated"),
                         UsageError);
    o.seconds_used = 0;
    // Long enough for one evaluation on a loaded machine under the sanitizers (0.3s was not).
    o.time_budget = 2;
    const AutoResult r = auto_search(d, o, context(1));
    // On an idle machine 2 s can exhaust the space of 60 rows; either way it is not an error.
    CHECK((r.stopped_by == "time-budget" || r.stopped_by == "space"));
    CHECK(r.evaluations() >= 1);
}

TEST_CASE("auto_search: a turn after the portfolio screens 9 candidates by halving and evaluates the survivor") {
    const Dataset d = noisy_two_classes(300);
    AutoOptions o;
    o.metric = "accuracy";
    o.split.k = 3;
    o.models = {"tree"};
    // Without screening, the nine evaluations after the portfolio are the family's first nine
    // draws, in order.
    const int portfolio = 1 + static_cast<int>(declared_portfolio("tree").size());
    o.halving_batch = 1;
    o.max_evals = portfolio + 9;
    const AutoResult plain = auto_search(d, o, context(1));
    CHECK(plain.screened == 0);
    std::vector<GridPoint> draws;
    for (int k = portfolio + 1; k <= portfolio + 9; ++k)
        for (const auto& c : plain.leaderboard)
            if (c.order == k) draws.push_back(c.point);
    REQUIRE(draws.size() == 9);
    // With screening, the turn after the portfolio fits those nine on about a ninth of the
    // rows, three on a third (two rounds), and evaluates the one left on the full folds.
    o.halving_batch = 9;
    o.max_evals = portfolio + 1;
    const AutoResult one = auto_search(d, o, context(1));
    const AutoResult two = auto_search(d, o, context(2));
    REQUIRE(one.leaderboard.size() == static_cast<std::size_t>(portfolio) + 1);
    CHECK(one.screened == 8);
    CHECK(one.screening_rounds == 2);
    const AutoCandidate& survivor =
        *std::find_if(one.leaderboard.begin(), one.leaderboard.end(), [&](const AutoCandidate& c) { return c.order == portfolio + 1; });
    CHECK(std::find(draws.begin(), draws.end(), survivor.point) != draws.end());
    // Its full-fold score is that draw's score in the plain run: the same folds, the same fits.
    for (const auto& c : plain.leaderboard)
        if (c.point == survivor.point) CHECK(c.fold_scores == survivor.fold_scores);
    for (std::size_t i = 0; i < one.leaderboard.size(); ++i) {
        CHECK(two.leaderboard[i].point == one.leaderboard[i].point);
        CHECK(two.leaderboard[i].fold_scores == one.leaderboard[i].fold_scores);
    }
    // A table too small for halving's first round (2 x folds x classes = 12 rows): no screen.
    const AutoResult small = auto_search(noisy_two_classes(11), o, context(1));
    CHECK(small.screened == 0);
    CHECK(small.evaluations() == static_cast<std::size_t>(portfolio) + 1);
}

TEST_CASE("first_evaluation_estimate: the slowest measured evaluation, doubled per cost class above it") {
    CHECK(first_evaluation_estimate(4, {}) == 0.0);  // nothing measured: the first family runs
    // tree (class 1) took 0.5 s, forest (class 3) 2 s: svc (class 4) is max(0.5 * 8, 2 * 2) = 4 s.
    CHECK(first_evaluation_estimate(4, {{1, 0.5}, {3, 2.0}}) == 4.0);
    CHECK(first_evaluation_estimate(4, {{1, 0.75}, {3, 2.0}}) == 6.0);
    // A family cheaper than those measured is estimated at their time, never less.
    CHECK(first_evaluation_estimate(1, {{3, 2.0}}) == 2.0);
}

namespace {
AutoCandidate scored(const std::string& model, double mean, double std, std::size_t folds = 5) {
    AutoCandidate c;
    c.model = model;
    c.score = {mean, std};
    c.fold_scores.assign(folds, mean);
    return c;
}
}  // namespace

TEST_CASE("confirmation_leaders: within one standard error of the best, each family's best first, at most N") {
    // The best: 0.90 with fold std 0.02 over 5 folds, so a standard error of 0.02 / sqrt(4) = 0.01.
    std::vector<AutoCandidate> c = {scored("gbdt", 0.895, 0.03),     scored("forest", 0.889, 0.01),
                                    scored("gbdt", 0.90, 0.02),      scored("logistic", 0.891, 0.05),
                                    scored("logistic", 0.8905, 0.0), scored("svc", std::nan(""), 0.0),
                                    scored("tree", 0.8902, 0.0)};
    // Tied: 0.90 gbdt [2], 0.895 gbdt [0], 0.891 logistic [3], 0.8905 logistic [4], 0.8902 tree [6];
    // forest's 0.889 is out, and a NaN never counts.
    CHECK(confirmation_leaders(c, true, 10) == std::vector<std::size_t>{2, 3, 6, 0, 4});
    CHECK(confirmation_leaders(c, true, 4) == std::vector<std::size_t>{2, 3, 6, 0});
    CHECK(confirmation_leaders(c, true, 2) == std::vector<std::size_t>{2, 3});
    CHECK(confirmation_leaders(c, true, 1).empty());
    CHECK(confirmation_leaders(c, true, 0).empty());
    // A clear winner: nothing to confirm.
    CHECK(confirmation_leaders({scored("gbdt", 0.95, 0.01), scored("forest", 0.90, 0.01)}, true, 4).empty());
    CHECK(confirmation_leaders({scored("gbdt", 0.95, 0.01)}, true, 4).empty());
    // Lower is better (an error metric): the bound lies above the best (2.0 + 0.4 / 2), so knn's
    // 2.25 is out; equal means keep evaluation order.
    std::vector<AutoCandidate> e = {scored("ridge", 2.0, 0.4, 5), scored("knn", 2.25, 0.1, 5), scored("svr", 2.19, 0.3, 5),
                                    scored("svr", 2.0, 0.1, 5)};
    CHECK(confirmation_leaders(e, false, 4) == std::vector<std::size_t>{0, 3, 2});
}

TEST_CASE("final_fit_estimate: the saved choice's fits again, from the candidates' measured times") {
    // 5 folds each; seconds = the evaluation's wall time, fit_seconds = its mean fold fit.
    auto timed = [](const std::string& model, double mean, double std, double seconds, double fit) {
        AutoCandidate c = scored(model, mean, std);
        c.seconds = seconds;
        c.fit_seconds = fit;
        return c;
    };
    // A clear winner (forest, 0.95): its bag costs its evaluation again; refit on all rows,
    // its mean fold fit on 5/4 of the rows. Nothing saved: nothing kept.
    const std::vector<AutoCandidate> clear = {timed("tree", 0.80, 0.01, 0.5, 0.1), timed("forest", 0.95, 0.01, 4.0, 1.6),
                                              timed("gbdt", 0.90, 0.01, 6.0, 2.0)};
    AutoOptions o;
    CHECK(final_fit_estimate(clear, o, true) == 0.0);
    o.final_fits = AutoOptions::FinalFits::bagged;
    CHECK(final_fit_estimate(clear, o, true) == 4.0);
    CHECK(final_fit_estimate({}, o, true) == 0.0);
    o.final_fits = AutoOptions::FinalFits::refit_full;
    CHECK(final_fit_estimate(clear, o, true) == doctest::Approx(1.6 * 5 / 4));
    // Leaders tied with the best (gbdt within its standard error): the race may pick either,
    // so the costlier one is kept for; without confirmation, the best alone.
    o.final_fits = AutoOptions::FinalFits::bagged;
    const std::vector<AutoCandidate> tied = {timed("forest", 0.95, 0.02, 4.0, 1.6), timed("gbdt", 0.945, 0.01, 6.0, 2.0),
                                             timed("tree", 0.80, 0.01, 0.5, 0.1), timed("gbdt", 0.70, 0.01, 9.0, 3.0)};
    CHECK(final_fit_estimate(tied, o, true) == 6.0);
    o.confirm_splits = 0;
    CHECK(final_fit_estimate(tied, o, true) == 4.0);
    // An ensemble: each family's best (forest 4, gbdt 6, tree 0.5), not gbdt's slower second.
    o.ensemble_size = 50;
    CHECK(final_fit_estimate(tied, o, true) == 10.5);
    // A stack of 2 members alone: the two best families' bests.
    o.ensemble_size = 0;
    o.stack_members = 2;
    CHECK(final_fit_estimate(tied, o, true) == 10.0);
}

TEST_CASE("confirmation_survivors: within one standard error of the best fresh mean, in the order given") {
    auto fresh = [](const std::string& model, double mean, double std, std::size_t folds) {
        AutoCandidate c = scored(model, mean, std);
        c.repeat_fold_scores.assign(folds, mean);
        return c;
    };
    // The best fresh mean: 0.90 with std 0.03 over 10 fresh folds, a standard error of 0.01.
    const std::vector<AutoCandidate> c = {fresh("svc", 0.885, 0.0, 10), fresh("gbdt", 0.90, 0.03, 10),
                                          fresh("forest", 0.891, 0.05, 10), fresh("knn", 0.8899, 0.0, 10),
                                          fresh("tree", std::nan(""), 0.0, 10)};
    CHECK(confirmation_survivors(c, {0, 1, 2, 3, 4}, true) == std::vector<std::size_t>{1, 2});
    CHECK(confirmation_survivors(c, {2, 1}, true) == std::vector<std::size_t>{2, 1});
    // Only the candidates given take part: without gbdt the bound is 0.891 - 0.05 / 3.
    CHECK(confirmation_survivors(c, {0, 2, 3}, true) == std::vector<std::size_t>{0, 2, 3});
    // Every mean NaN: nothing to tell them apart, all stay.
    CHECK(confirmation_survivors(c, {4}, true) == std::vector<std::size_t>{4});
    // Lower is better: the bound lies above the best (1.0 + 0.2 / sqrt(4)).
    const std::vector<AutoCandidate> e = {fresh("ridge", 1.0, 0.2, 5), fresh("svr", 1.09, 0.0, 5), fresh("knn", 1.11, 0.0, 5)};
    CHECK(confirmation_survivors(e, {0, 1, 2}, false) == std::vector<std::size_t>{0, 1});
}

TEST_CASE("auto_search: the leaders race on fresh splits and rank first by their mean there") {
    const Dataset d = noisy_two_classes(150);
    AutoOptions o;
    o.metric = "accuracy";
    o.models = {"logistic", "tree", "knn"};
    o.max_evals = 9;
    o.split.k = 3;
    o.confirm_leaders = 0;
    const AutoResult plain = auto_search(d, o, context(1));
    o.confirm_leaders = 3;
    o.confirm_splits = 3;
    const AutoResult one = auto_search(d, o, context(1));
    const AutoResult two = auto_search(d, o, context(2));
    o.confirm_splits = 1;
    const AutoResult single_round = auto_search(d, o, context(1));
    // The search itself is the same: the same candidates with the same scores on the first split.
    REQUIRE(one.leaderboard.size() == plain.leaderboard.size());
    std::vector<AutoCandidate> first_split;
    for (const auto& c : one.leaderboard) {
        AutoCandidate f = c;
        f.score = summarize(c.fold_scores);
        f.repeat_fold_scores.clear();
        first_split.push_back(f);
    }
    std::vector<AutoCandidate> by_order = first_split, plain_by_order = plain.leaderboard;
    auto order = [](const AutoCandidate& a, const AutoCandidate& b) { return a.order < b.order; };
    std::sort(by_order.begin(), by_order.end(), order);
    std::sort(plain_by_order.begin(), plain_by_order.end(), order);
    for (std::size_t i = 0; i < by_order.size(); ++i) {
        CHECK(by_order[i].point == plain_by_order[i].point);
        CHECK(by_order[i].fold_scores == plain_by_order[i].fold_scores);
    }
    // The confirmed are exactly the leaders of those first-split scores, and come first.
    const auto leaders = confirmation_leaders(first_split, true, 3);
    REQUIRE(leaders.size() >= 2);
    CHECK(one.confirmed == leaders.size());
    CHECK(one.unconfirmed == 0);
    REQUIRE(one.confirmation_rounds >= 1);
    CHECK(one.confirmation_rounds <= 3);
    std::size_t fits = 0;
    for (std::size_t i = 0; i < one.leaderboard.size(); ++i) {
        const AutoCandidate& c = one.leaderboard[i];
        CHECK(c.confirmed() == (i < one.confirmed));
        CHECK(c.confirmed() == (std::find(leaders.begin(), leaders.end(), i) != leaders.end()));
        if (!c.confirmed()) {
            CHECK(c.repeat_fold_scores.empty());
            continue;
        }
        // 3 fresh folds per round it raced; its mean and std are over those alone.
        REQUIRE(c.repeat_fold_scores.size() % 3 == 0);
        fits += c.repeat_fold_scores.size() / 3;
        CHECK(c.score.mean == doctest::Approx(summarize(c.repeat_fold_scores).mean));
        CHECK(c.score.std == doctest::Approx(summarize(c.repeat_fold_scores).std));
        if (i > 0) {  // longest in the race first, then by the fresh mean
            const AutoCandidate& p = one.leaderboard[i - 1];
            CHECK(p.repeat_fold_scores.size() >= c.repeat_fold_scores.size());
            if (p.repeat_fold_scores.size() == c.repeat_fold_scores.size()) CHECK(p.score.mean >= c.score.mean);
        }
    }
    CHECK(fits == one.confirmation_fits);
    // The winner ran every round; a round is all the leaders still in the race.
    CHECK(one.leaderboard[0].repeat_fold_scores.size() == 3 * static_cast<std::size_t>(one.confirmation_rounds));
    // The first round is the one round of --confirm-splits 1: the same fresh folds.
    REQUIRE(single_round.confirmation_rounds == 1);
    for (const auto& c : single_round.leaderboard) {
        if (!c.confirmed()) continue;
        const auto same = std::find_if(one.leaderboard.begin(), one.leaderboard.end(),
                                       [&](const AutoCandidate& x) { return x.order == c.order; });
        REQUIRE(same != one.leaderboard.end());
        REQUIRE(same->repeat_fold_scores.size() >= 3);
        CHECK(std::vector<double>(same->repeat_fold_scores.begin(), same->repeat_fold_scores.begin() + 3) ==
              c.repeat_fold_scores);
    }
    // A fresh split, not the first again: some leader scores differently on it.
    bool differs = false;
    for (std::size_t i = 0; i < one.confirmed; ++i)
        differs = differs || std::vector<double>(one.leaderboard[i].repeat_fold_scores.begin(),
                                                 one.leaderboard[i].repeat_fold_scores.begin() + 3) !=
                                 one.leaderboard[i].fold_scores;
    CHECK(differs);
    // The same at any thread count.
    REQUIRE(two.leaderboard.size() == one.leaderboard.size());
    for (std::size_t i = 0; i < one.leaderboard.size(); ++i) {
        CHECK(two.leaderboard[i].point == one.leaderboard[i].point);
        CHECK(two.leaderboard[i].repeat_fold_scores == one.leaderboard[i].repeat_fold_scores);
    }
}

TEST_CASE("auto_search: a short --time-budget is respected within budget x 1.5 + 1 s (docs/auto.md)") {
    // 1500 rows: the trees are quick, svc's defaults on every fold are not; round 0 must
    // not start a family whose first evaluation is estimated not to fit.
    const Dataset d = noisy_two_classes(1500);
    AutoOptions o;
    o.metric = "accuracy";
    o.models = {"tree", "knn", "forest", "gbdt", "svc"};
    o.time_budget = 1.0;
    const auto t0 = std::chrono::steady_clock::now();
    const AutoResult r = auto_search(d, o, context(1));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(r.stopped_by == "time-budget");
    CHECK(wall <= 1.0 * 1.5 + 1.0);
    CHECK(r.seconds <= 1.0 * 1.5 + 1.0);
    // Every candidate ended by the budget's end, or was the one that started before it.
    int late = 0;
    for (const auto& c : r.leaderboard) late += c.finished_at > o.time_budget ? 1 : 0;
    CHECK(late <= 1);
    // Where the time went adds up to the search's wall time; nothing is saved, nothing kept.
    const AutoTimes& t = r.times;
    CHECK(t.reading == 0.0);
    CHECK(t.final_fits_reserved == 0.0);
    CHECK(t.search + t.confirmation + t.ensemble + t.stack == doctest::Approx(r.seconds).epsilon(0.01));
    CHECK(t.total <= wall);
    CHECK(t.total >= t.search);
}

TEST_CASE("kestrel-auto --ensemble in the search: the pool, the weights and the rule that keeps it") {
    const Dataset d = noisy_two_classes(300);
    AutoOptions o;
    o.split.k = 3;
    o.metric = "accuracy";
    o.models = {"logistic", "tree", "knn", "linear_svm"};
    o.max_evals = 8;
    o.base.missing = "auto";
    o.ensemble_size = 20;
    o.ensemble_nbest = 2;
    const AutoResult r = auto_search(d, o, context(1, 7));
    REQUIRE(r.ensemble.has_value());
    const AutoEnsemble& e = *r.ensemble;
    CHECK(e.rounds == 20);
    CHECK(e.best_single == summarize(r.leaderboard.front().fold_scores).mean);  // on the folds the ensemble is scored on
    // linear_svm gives no probabilities: never in the pool. The candidates holding
    // out-of-fold predictions at the end are the best 2 of those that can join, then each
    // family's best beyond them; every family that can join has one.
    std::size_t holders = 0;
    std::set<std::string> held_families;
    for (const auto& c : r.leaderboard) {
        if (c.model == "linear_svm") CHECK(c.oof.empty());
        if (c.oof.empty()) continue;
        if (holders >= 2) CHECK_MESSAGE(held_families.count(c.model) == 0, c.model);  // beyond 2: its family's best
        held_families.insert(c.model);
        ++holders;
    }
    CHECK(held_families == std::set<std::string>{"logistic", "tree", "knn"});
    CHECK(e.pool == holders);
    REQUIRE(!e.members.empty());
    double total = 0;
    for (std::size_t i = 0; i < e.members.size(); ++i) {
        CHECK(r.leaderboard[e.members[i]].model != "linear_svm");
        // Weights are picks over 20 rounds.
        CHECK(std::abs(e.weights[i] * 20 - std::round(e.weights[i] * 20)) < 1e-12);
        total += e.weights[i];
    }
    CHECK(total == doctest::Approx(1.0).epsilon(1e-12));
    // The selection again on the kept predictions gives the same score; the keep rule
    // compares the held-out figures of the selection and of picking one candidate.
    std::vector<std::vector<Predictions>> oof;
    std::vector<std::vector<double>> fold_scores;
    for (const auto& c : r.leaderboard) {
        if (!c.oof.empty()) oof.push_back(c.oof);
        fold_scores.push_back(c.fold_scores);
    }
    CHECK(select_ensemble(oof, "accuracy", 20).score.mean == e.score.mean);
    CHECK(e.held_out_scores == held_out_ensemble_scores(oof, "accuracy", 20));
    CHECK(e.held_out_single_scores == held_out_best_scores(fold_scores, true));
    REQUIRE(e.held_out_scores.size() == 3);
    CHECK(e.held_out.mean == summarize(e.held_out_scores).mean);
    // The ensemble must also beat the winner's own mean on the same folds.
    CHECK(e.kept == (e.held_out.mean > e.held_out_single.mean && e.held_out.mean > e.best_single));
}

}  // TEST_SUITE

}  // namespace unit_model_selection_auto_search_test
}  // namespace
