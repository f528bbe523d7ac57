// gbdt continued from a fitted model (Context::init_model, `kestrel-train --init-model`):
// R rounds then S more equal R + S rounds at once, to the last bit.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "gbdt_test_util.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/pipeline/registry.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_continue_test {

using namespace kestrel;
using gbdt_test::fit_gbdt;
using gbdt_test::make_gbdt;

namespace {

// k classes (k = 0: regression, a positive target) from 4 features, some cells missing;
// with `categorical`, feature 3 holds 5 category codes.
Dataset continuation_rows(Index n, Index k, std::uint64_t seed, bool categorical = false) {
    Rng rng(seed);
    Dataset d;
    DenseMatrix X(n, 4);
    d.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < 4; ++j) X(i, j) = rng.normal();
        if (categorical) X(i, 3) = static_cast<double>(rng.below(5));
        const double s = X(i, 0) + 0.7 * X(i, 1) * X(i, 2) + (categorical ? 0.4 * X(i, 3) : 0.0) + 0.4 * rng.normal();
        if (rng.uniform() < 0.05) X(i, 1) = std::numeric_limits<double>::quiet_NaN();
        d.y[i] = k == 0 ? std::exp(0.5 * s)
                        : std::fmin(static_cast<double>(k - 1), std::fmax(0.0, std::floor((s + 1.5) / 3 * static_cast<double>(k))));
    }
    d.X = Features(std::move(X));
    d.task = k == 0 ? Task::regression : Task::classification;
    for (Index c = 0; c < k; ++c) d.classes.push_back("c" + std::to_string(c));
    if (categorical) {
        d.category_counts = {0, 0, 0, 5};
        d.categories = {{}, {}, {}, {"a", "b", "c", "d", "e"}};
    }
    return d;
}

Params with_rounds(Params p, int rounds) {
    p["n_estimators"] = std::to_string(rounds);
    return p;
}

// `first` rounds, saved and loaded back (as a model file would be), then `more` rounds.
std::unique_ptr<Gbdt> continued(const Dataset& d, const Params& p, int first, int more, int threads,
                                const std::vector<EvalSet>& sets = {}) {
    Context ctx;
    ctx.threads = threads;
    ctx.seed = 11;
    ctx.eval_sets = sets;
    auto old = make_gbdt(with_rounds(p, first));
    old->fit(d, ctx);
    auto loaded = make_gbdt(with_rounds(p, first));
    loaded->load_state(Json::parse(old->save_state().dump()));
    auto g = make_gbdt(with_rounds(p, more));
    ctx.init_model = loaded.get();
    g->fit(d, ctx);
    return g;
}

void check_continuation_equals_one_fit(const Dataset& d, const Params& p) {
    for (int threads : {1, 2}) {
        CAPTURE(threads);
        const auto once = fit_gbdt(d, with_rounds(p, 15), threads, 11);
        const auto twice = continued(d, p, 8, 7, threads);
        CHECK(twice->rounds() == 15);
        CHECK(twice->save_state().dump() == once->save_state().dump());
        const Matrix a = once->raw_scores(d.X), b = twice->raw_scores(d.X);
        CHECK((a - b).cwiseAbs().maxCoeff() == 0.0);
    }
}

}  // namespace

TEST_SUITE("unit") {
    TEST_CASE("gbdt continued from 8 rounds by 7 is the 15-round model bit for bit, threads 1 and 2") {
        const Params sampled{{"subsample", "0.7"}, {"colsample", "0.75"}};
        SUBCASE("squared, subsampled") { check_continuation_equals_one_fit(continuation_rows(400, 0, 1), sampled); }
        SUBCASE("absolute (leaves renewed)") {
            Params p = sampled;
            p["loss"] = "absolute";
            check_continuation_equals_one_fit(continuation_rows(400, 0, 2), p);
        }
        SUBCASE("poisson (log link, max_delta_step)") {
            check_continuation_equals_one_fit(continuation_rows(400, 0, 3), {{"loss", "poisson"}});
        }
        SUBCASE("logistic, subsampled") { check_continuation_equals_one_fit(continuation_rows(400, 2, 4), sampled); }
        SUBCASE("softmax, 3 classes") { check_continuation_equals_one_fit(continuation_rows(400, 3, 5), sampled); }
        SUBCASE("a categorical feature") {
            check_continuation_equals_one_fit(continuation_rows(400, 2, 6, true), {{"max_cat_to_onehot", "1"}});
        }
        SUBCASE("leaf-wise growth under a monotone constraint") {
            check_continuation_equals_one_fit(continuation_rows(400, 0, 7),
                                              {{"max_leaves", "8"}, {"max_depth", "0"}, {"monotone_constraints", "(1,0,0,0)"}});
        }
    }

    TEST_CASE("gbdt continued with early stopping keeps the histories of the same sets and counts best_iteration from round 1") {
        const Dataset d = continuation_rows(400, 2, 8), v = continuation_rows(200, 2, 9);
        const std::vector<EvalSet> sets{{"validation_0", &v}};
        const Params p{{"early_stopping_rounds", "3"}, {"learning_rate", "0.3"}};
        Context ctx;
        ctx.threads = 1;
        ctx.seed = 11;
        ctx.eval_sets = sets;
        auto old = make_gbdt(Params{{"n_estimators", "6"}});
        old->fit(d, ctx);
        REQUIRE(old->rounds() == 6);
        auto g = make_gbdt(with_rounds(p, 200));
        ctx.init_model = old.get();
        g->fit(d, ctx);
        // The best round is one of the new ones, counted from the model's first round.
        CHECK(g->best_iteration() >= 6);
        CHECK(g->rounds() == g->best_iteration() + 1);
        const std::size_t run = g->train_loss().size();
        CHECK(run == static_cast<std::size_t>(g->best_iteration() + 1 + 3));
        REQUIRE(g->eval_history().size() == 1);
        CHECK(g->eval_history()[0].size() == run);
        CHECK(g->validation_loss().size() == run);
        for (std::size_t t = 0; t < 6; ++t) {
            CHECK(g->eval_history()[0][t] == old->eval_history()[0][t]);
            CHECK(g->validation_loss()[t] == old->validation_loss()[t]);
        }
        for (std::size_t t = 0; t + 1 < 6; ++t) CHECK(g->train_loss()[t] == old->train_loss()[t]);
        // The best value is the last metric's minimum over the new rounds (logloss).
        const std::vector<double>& h = g->eval_history()[0];
        const auto best = static_cast<std::size_t>(g->best_iteration());
        for (std::size_t t = 6; t < run; ++t) CHECK(h[best] <= h[t]);
        // Its trees are the old ones first.
        for (std::size_t t = 0; t < old->trees().size(); ++t)
            CHECK(g->trees()[t].to_json().dump() == old->trees()[t].to_json().dump());
    }

    TEST_CASE("gbdt continued without the old model's validation set: the trace leaves the old rounds blank") {
        const Dataset d = continuation_rows(300, 0, 10), v = continuation_rows(100, 0, 11);
        auto old = fit_gbdt(d, {{"n_estimators", "4"}}, 1, 11);
        Context ctx;
        ctx.threads = 1;
        ctx.eval_sets = {{"validation_0", &v}};
        ctx.init_model = old.get();
        auto g = make_gbdt({{"n_estimators", "3"}});
        g->fit(d, ctx);
        CHECK(g->train_loss().size() == 7);
        CHECK(g->validation_loss().size() == 3);
        const std::vector<std::string> names{"x1", "x2", "x3", "x4"}, classes;
        const std::string trace = g->report("trace", Estimator::ReportNames(names, classes));
        // Rounds 1-4 have train_loss only: "k,<loss>,," (blank validation_loss and rmse).
        std::size_t blank_rows = 0, full_rows = 0;
        std::size_t at = trace.find('\n') + 1;
        while (at < trace.size()) {
            const std::string line = trace.substr(at, trace.find('\n', at) - at);
            (line.size() >= 2 && line.substr(line.size() - 2) == ",," ? blank_rows : full_rows)++;
            at = trace.find('\n', at) + 1;
        }
        CHECK(blank_rows == 4);
        CHECK(full_rows == 3);
        // The file loads back with the shorter history.
        auto loaded = make_gbdt({{"n_estimators", "3"}});
        loaded->load_state(g->save_state());
        CHECK(loaded->report("trace", Estimator::ReportNames(names, classes)) == trace);
    }

    TEST_CASE("gbdt refuses to continue another loss or shape; other models refuse to continue at all") {
        const Dataset d = continuation_rows(200, 0, 12);
        auto old = fit_gbdt(d, {{"n_estimators", "3"}});
        Context ctx;
        ctx.init_model = old.get();
        CHECK_THROWS_WITH_AS(make_gbdt({{"loss", "poisson"}})->fit(d, ctx),
                             "gbdt: the model to continue was trained with loss=squared, this fit has loss=poisson",
                             UsageError);
        Dataset wider = d;
        DenseMatrix X(d.rows(), 5);
        X << d.X.dense_ref(), DenseMatrix::Zero(d.rows(), 1);
        wider.X = Features(std::move(X));
        CHECK_THROWS_AS(make_gbdt({})->fit(wider, ctx), DataError);
        CHECK_THROWS_AS(make_gbdt({})->fit(continuation_rows(200, 2, 13), ctx), DataError);
        CHECK_THROWS_WITH_AS(registry().create("ridge", Params::object())->fit(d, ctx),
                             "model ridge cannot continue training", UsageError);
        CHECK_FALSE(registry().capabilities("ridge", Params::object()).continue_training);
        CHECK(registry().capabilities("gbdt", Params::object()).continue_training);
    }
}

}  // namespace unit_boosting_gbdt_continue_test
}  // namespace
