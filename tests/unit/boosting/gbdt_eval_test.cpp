// gbdt's validation sets (Context::eval_sets, `kestrel-train --valid`), eval_metric and
// early stopping on the last metric of the last set.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "gbdt_test_util.hpp"
#include "kestrel/boosting/eval_metrics.hpp"
#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_eval_test {

using namespace kestrel;
using gbdt_test::fit_gbdt;
using gbdt_test::make_gbdt;

namespace {

Vector vec(std::initializer_list<double> v) {
    Vector out(static_cast<Index>(v.size()));
    Index i = 0;
    for (double x : v) out[i++] = x;
    return out;
}

double metric(const char* name, LossKind kind, const std::vector<double>& F, Index K, const Vector& y, const Vector& w) {
    const Loss loss{kind};
    const std::vector<EvalMetric> m = parse_eval_metrics(name, loss);
    REQUIRE(m.size() == 1);
    return evaluate_metric(m[0], loss, F.data(), K, y, w, 1);
}

// k classes (k = 0: regression) from a noisy score of 5 features.
Dataset noisy(Index n, Index k, std::uint64_t seed) {
    Rng rng(seed);
    Dataset d;
    DenseMatrix X(n, 5);
    d.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < 5; ++j) X(i, j) = rng.normal();
        const double s = std::sin(2 * X(i, 0)) + X(i, 1) * X(i, 2) + 0.8 * rng.normal();
        const double c = std::floor((s + 2) / 4 * static_cast<double>(k));
        d.y[i] = k == 0 ? s : std::clamp(c, 0.0, static_cast<double>(k - 1));
    }
    d.X = Features(std::move(X));
    d.task = k == 0 ? Task::regression : Task::classification;
    for (Index c = 0; c < k; ++c) d.classes.push_back("c" + std::to_string(c));
    return d;
}

}  // namespace

TEST_SUITE("unit") {
    // Reference values: scikit-learn 1.2.1 (Debian python3-sklearn) on the same arrays,
    // roc_auc_score / average_precision_score / log_loss with sample_weight=w;
    // multiclass roc_auc_score(multi_class="ovr", average="weighted");
    // mean_squared_error (sqrt), mean_absolute_error, mean_absolute_percentage_error.
    TEST_CASE("gbdt eval metrics agree with scikit-learn on weighted hand-made scores") {
        const std::vector<double> F{0.3, -1.2, 2.0, 0.3, -0.4, 1.1, -2.5, 0.0};  // logits
        const Vector y = vec({1, 0, 1, 0, 0, 1, 1, 0}), w = vec({1, 2, 1, 0.5, 1, 3, 1, 1.5});
        CHECK(metric("auc", LossKind::logistic, F, 1, y, w) == doctest::Approx(0.8250000000000001).epsilon(1e-12));
        CHECK(metric("aucpr", LossKind::logistic, F, 1, y, w) == doctest::Approx(0.9090909090909091).epsilon(1e-12));
        CHECK(metric("logloss", LossKind::logistic, F, 1, y, w) == doctest::Approx(0.602605231390958).epsilon(1e-12));
        CHECK(metric("error", LossKind::logistic, F, 1, y, w) == doctest::Approx(0.13636363636363635).epsilon(1e-12));

        const std::vector<double> G{0.1, 0.5, -0.2, 1.0, 0.2, 0.3, -0.5, 0.0, 0.8,
                                    0.3, 0.3, 0.1,  2.0, -1.0, 0.0, 0.0, 0.1, 0.2};
        const Vector yc = vec({1, 0, 2, 2, 0, 1}), wc = vec({1, 2, 1, 1, 0.5, 1});
        CHECK(metric("mlogloss", LossKind::softmax, G, 3, yc, wc) == doctest::Approx(0.7802033836635816).epsilon(1e-12));
        CHECK(metric("auc", LossKind::softmax, G, 3, yc, wc) == doctest::Approx(0.9316239316239316).epsilon(1e-12));
        CHECK(metric("merror", LossKind::softmax, G, 3, yc, wc) == doctest::Approx(0.3076923076923077).epsilon(1e-12));

        const std::vector<double> fr{1.5, 1.0, -2.0, 4.0, 1.0};
        const Vector yr = vec({1.0, 2.0, -3.0, 4.0, 0.5}), wr = vec({1, 2, 1, 1, 3});
        CHECK(metric("rmse", LossKind::squared, fr, 1, yr, wr) == doctest::Approx(0.7071067811865476).epsilon(1e-12));
        CHECK(metric("mae", LossKind::squared, fr, 1, yr, wr) == doctest::Approx(0.625).epsilon(1e-12));
        CHECK(metric("mape", LossKind::squared, fr, 1, yr, wr) == doctest::Approx(0.6041666666666666).epsilon(1e-12));
        // "loss" is the objective: ½ weighted mean squared residual here.
        CHECK(metric("loss", LossKind::squared, fr, 1, yr, wr) == doctest::Approx(0.25).epsilon(1e-12));
    }

    TEST_CASE("gbdt eval_metric: defaults by loss, bad names and misfits are ParamErrors") {
        CHECK(parse_eval_metrics("auto", Loss{LossKind::squared})[0].name == "rmse");
        CHECK(parse_eval_metrics("auto", Loss{LossKind::absolute})[0].name == "mae");
        CHECK(parse_eval_metrics("auto", Loss{LossKind::huber})[0].name == "loss");
        CHECK(parse_eval_metrics("auto", Loss{LossKind::logistic})[0].name == "logloss");
        CHECK(parse_eval_metrics("auto", Loss{LossKind::softmax})[0].name == "mlogloss");
        const auto two = parse_eval_metrics("auc,logloss,auc", Loss{LossKind::logistic});
        REQUIRE(two.size() == 2);
        CHECK(two[0].maximize);
        CHECK_FALSE(two[1].maximize);
        CHECK_THROWS_AS(parse_eval_metrics("accuracy", Loss{LossKind::logistic}), ParamError);
        CHECK_THROWS_AS(parse_eval_metrics("rmse", Loss{LossKind::logistic}), ParamError);
        CHECK_THROWS_AS(parse_eval_metrics("auc", Loss{LossKind::squared}), ParamError);
        CHECK_THROWS_AS(parse_eval_metrics("aucpr", Loss{LossKind::softmax}), ParamError);
        CHECK_THROWS_AS(parse_eval_metrics(",", Loss{LossKind::squared}), ParamError);
    }

    TEST_CASE("gbdt eval: the recorded per-round values are the metrics of the truncated models") {
        const Dataset train = noisy(400, 3, 5), valid = noisy(200, 3, 6);
        Context ctx;
        ctx.threads = 1;
        ctx.eval_sets = {{"validation_0", &valid}};
        auto g = make_gbdt({{"n_estimators", 12}, {"eval_metric", "merror,mlogloss"}});
        g->fit(train, ctx);
        REQUIRE(g->eval_columns() == std::vector<std::string>{"validation_0-merror", "validation_0-mlogloss"});
        REQUIRE(g->eval_history()[1].size() == 12);
        CHECK(g->best_iteration() == -1);
        CHECK(g->rounds() == 12);
        for (long long r : {1, 5, 12}) {
            auto short_model = fit_gbdt(train, {{"n_estimators", r}});
            const Matrix P = short_model->predict_proba(valid.X);
            double ll = 0, wrong = 0;
            for (Index i = 0; i < valid.rows(); ++i) {
                const auto yi = static_cast<Index>(valid.y[i]);
                ll -= std::log(P(i, yi));
                Index arg = 0;
                P.row(i).maxCoeff(&arg);
                wrong += arg != yi;
            }
            const auto n = static_cast<double>(valid.rows());
            CHECK(g->eval_history()[1][static_cast<std::size_t>(r - 1)] == doctest::Approx(ll / n).epsilon(1e-9));
            CHECK(g->eval_history()[0][static_cast<std::size_t>(r - 1)] == doctest::Approx(wrong / n).epsilon(1e-12));
        }
        // The trace carries them after the loss columns.
        CHECK(g->report("trace", {{}, {}}).rfind("round,train_loss,validation_loss,validation_0-merror,"
                                                 "validation_0-mlogloss\n1,", 0) == 0);
    }

    TEST_CASE("gbdt eval: early stopping watches the last metric of the last set and keeps best_iteration") {
        // Noise labels: every metric soon gets worse on fresh rows.
        Dataset train = noisy(300, 0, 7), other = noisy(150, 0, 8), last = noisy(150, 0, 9);
        Rng rng(4);
        for (Dataset* d : {&train, &other, &last})
            for (Index i = 0; i < d->rows(); ++i) d->y[i] = rng.normal();
        Context ctx;
        ctx.threads = 1;
        ctx.eval_sets = {{"validation_0", &other}, {"validation_1", &last}};
        const Params p{{"n_estimators", 300}, {"learning_rate", 0.5}, {"early_stopping_rounds", 4},
                       {"eval_metric", "rmse,mae"}};
        auto g = make_gbdt(p);
        g->fit(train, ctx);
        const auto& watched = g->eval_history().back();  // validation_1-mae
        REQUIRE(g->eval_columns().back() == "validation_1-mae");
        const auto best = static_cast<Index>(std::min_element(watched.begin(), watched.end()) - watched.begin());
        CHECK(g->best_iteration() == best);
        CHECK(g->rounds() == best + 1);
        CHECK(static_cast<Index>(watched.size()) == best + 1 + 4);
        // No training row is held out when sets are given: the kept rounds are the first
        // rounds of a fit on all rows.
        auto all = fit_gbdt(train, {{"n_estimators", best + 1}, {"learning_rate", 0.5}});
        CHECK((g->predict(last.X) - all->predict(last.X)).cwiseAbs().maxCoeff() == 0.0);
        // The state keeps the history and the choice.
        auto copy = make_gbdt(p);
        copy->load_state(g->save_state());
        CHECK(copy->best_iteration() == g->best_iteration());
        CHECK(copy->eval_history() == g->eval_history());
        CHECK(copy->report("trace", {{}, {}}) == g->report("trace", {{}, {}}));
    }

    TEST_CASE("gbdt eval: larger is better for auc, and 1 thread equals 2") {
        const Dataset train = noisy(500, 2, 11), valid = noisy(300, 2, 12);
        Context ctx;
        ctx.eval_sets = {{"validation_0", &valid}};
        const Params p{{"n_estimators", 200}, {"learning_rate", 0.8}, {"early_stopping_rounds", 6},
                       {"eval_metric", "logloss,auc"}};
        ctx.threads = 1;
        auto one = make_gbdt(p);
        one->fit(train, ctx);
        ctx.threads = 2;
        auto two = make_gbdt(p);
        two->fit(train, ctx);
        const auto& auc = one->eval_history().back();
        const auto best = static_cast<Index>(std::max_element(auc.begin(), auc.end()) - auc.begin());
        CHECK(one->best_iteration() == best);
        CHECK(one->save_state().dump() == two->save_state().dump());
    }

    TEST_CASE("gbdt eval: bad eval sets are DataErrors naming the set") {
        const Dataset train = noisy(100, 2, 1);
        Dataset narrow = noisy(50, 2, 2);
        narrow.X = Features(DenseMatrix(narrow.X.dense_ref().leftCols(3)));
        Dataset bad_class = noisy(50, 2, 3);
        bad_class.y[7] = 2;
        Dataset one_class = noisy(50, 2, 4);
        one_class.y.setZero();
        const auto fails = [&](const Dataset& v, const Params& p, const std::string& needle) {
            Context ctx;
            ctx.threads = 1;
            ctx.eval_sets = {{"validation_0", &v}};
            auto g = make_gbdt(p);
            try {
                g->fit(train, ctx);
                FAIL("no error");
            } catch (const DataError& e) {
                CHECK(std::string(e.what()).find(needle) != std::string::npos);
            }
        };
        fails(narrow, {{"n_estimators", 2}}, "validation_0 has 3 features");
        fails(bad_class, {{"n_estimators", 2}}, "row 8 of validation_0");
        fails(one_class, {{"n_estimators", 2}, {"eval_metric", "auc"}}, "auc on validation_0");
    }
}

TEST_SUITE("unit") {
    // Reference values: the formulas of XGBoost 1.7's EvalPoissonNegLogLik,
    // EvalGammaNLogLik, EvalGammaDeviance and EvalTweedieNLogLik evaluated by hand in numpy
    // on these arrays (μ = e^F).
    TEST_CASE("gbdt eval metrics of the log-link losses follow XGBoost's formulas") {
        const std::vector<double> F{0.2, -0.5, 1.3, 0.0};
        const Vector y = vec({1, 0, 4, 2}), w = vec({1, 2, 1, 0.5});
        Loss poisson{LossKind::poisson};
        Loss tweedie{LossKind::tweedie};
        tweedie.tweedie_power = 1.5;
        const auto eval = [&](const Loss& loss, const char* name, const Vector& labels) {
            return evaluate_metric(parse_eval_metrics(name, loss)[0], loss, F.data(), 1, labels, w, 1);
        };
        CHECK(eval(poisson, "poisson-nloglik", y) == doctest::Approx(1.0507529257405777).epsilon(1e-12));
        CHECK(eval(tweedie, "tweedie-nloglik", y) == doctest::Approx(4.0317039281388345).epsilon(1e-12));
        const Vector yg = vec({1.5, 0.3, 4, 2});
        CHECK(eval(poisson, "gamma-nloglik", yg) == doctest::Approx(1.0683235698162443).epsilon(1e-12));
        CHECK(eval(poisson, "gamma-deviance", yg) == doctest::Approx(0.25647405504724724).epsilon(1e-9));
        // rmse on the predicted mean e^F, not the margin.
        CHECK(eval(poisson, "rmse", y) == doctest::Approx(0.556605337482204).epsilon(1e-12));
        CHECK(parse_eval_metrics("auto", poisson)[0].name == "poisson-nloglik");
        CHECK_THROWS_AS(parse_eval_metrics("poisson-nloglik", Loss{LossKind::squared}), ParamError);
        CHECK_THROWS_AS(parse_eval_metrics("quantile", Loss{LossKind::squared}), ParamError);
    }
}

}  // namespace unit_boosting_gbdt_eval_test
}  // namespace
