// gbdt's min_data_in_leaf (docs/models/gbdt.md, "Growing a tree"): each child of a split keeps
// at least that many rows, counted from the Hessian as LightGBM counts them:
// left = round(H_L · n / H), right = n − left.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "estimator_test_util.hpp"
#include "gbdt_test_util.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/pipeline/model.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_min_data_in_leaf_test {

using namespace kestrel;
using gbdt_test::fit_gbdt;
using gbdt_test::make_data;

namespace {

// x = 1, 2, 3, 4; y = 0, 0, 1, 3; squared loss from F = 0, λ = 0: g = (0, 0, −1, −3), h = 1,
// G = −4, H = 4. Gains G_L²/H_L + G_R²/H_R − G²/H: x <= 1.5: 16/3 − 4 = 1.33;
// x <= 2.5: 16/2 − 4 = 4; x <= 3.5: 1/3 + 9/1 − 4 = 5.33 (three rows left, one right).
Dataset four_rows() {
    DenseMatrix X(4, 1);
    X << 1, 2, 3, 4;
    Vector y(4);
    y << 0, 0, 1, 3;
    return make_data(X, y, Task::regression);
}

Params stump(long long min_data_in_leaf) {
    return {{"n_estimators", 1}, {"max_depth", 1}, {"learning_rate", 1.0}, {"lambda", 0.0},
            {"min_child_weight", 0.0}, {"base_score", 0.0}, {"min_data_in_leaf", min_data_in_leaf}};
}

// Rows in y = sin(2 x0) + x1 x2 + noise.
Dataset smooth_target(Index n, std::uint64_t seed) {
    Rng rng(seed);
    DenseMatrix X(n, 4);
    Vector y(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < 4; ++j) X(i, j) = rng.normal();
        y[i] = std::sin(2 * X(i, 0)) + X(i, 1) * X(i, 2) + 0.3 * rng.normal();
    }
    return make_data(std::move(X), std::move(y), Task::regression);
}

}  // namespace

TEST_SUITE("gbdt") {
    TEST_CASE("gbdt min_data_in_leaf: a split that leaves a child too few rows is not made") {
        const Dataset d = four_rows();
        // 0 (no rule) and 1: the best gain, x <= 3.5 (3 rows / 1 row).
        CHECK(fit_gbdt(d, stump(0))->trees()[0].node(0).threshold == 3.5);
        CHECK(fit_gbdt(d, stump(1))->trees()[0].node(0).threshold == 3.5);
        // 2: the one-row child is forbidden; the next best, x <= 2.5, whose leaves are
        // η · −G/H = 0 and 4/2 = 2.
        const auto two = fit_gbdt(d, stump(2));
        const Tree& t = two->trees()[0];
        REQUIRE(t.size() == 3);
        CHECK(t.node(0).threshold == 2.5);
        CHECK(t.node(0).impurity == doctest::Approx(4.0).epsilon(1e-12));
        CHECK(t.value(t.node(0).left)[0] == doctest::Approx(0.0));
        CHECK(t.value(t.node(0).right)[0] == doctest::Approx(2.0).epsilon(1e-12));
        // 3: no split of 4 rows leaves 3 on each side; the root is a leaf, −G/H = 1.
        const auto three = fit_gbdt(d, stump(3));
        REQUIRE(three->trees()[0].size() == 1);
        CHECK(three->trees()[0].value(0)[0] == doctest::Approx(1.0).epsilon(1e-12));
    }

    TEST_CASE("gbdt min_data_in_leaf: rows are counted from the Hessian, as LightGBM counts them") {
        // Weights 1, 1, 1, 3: h = s = (1, 1, 1, 3), H = 6, g = (0, 0, −1, −9), G = −10.
        // Gains: x <= 2.5: 100/4 − 100/6 = 8.33; x <= 3.5: 1/3 + 81/3 − 100/6 = 10.67.
        // x <= 3.5 leaves H_L = 3 of 6: round(3 · 4/6) = 2 rows left, 4 − 2 = 2 right, so
        // min_data_in_leaf=2 allows it although one row lies on the right.
        Dataset d = four_rows();
        d.weights.resize(4);
        d.weights << 1, 1, 1, 3;
        const auto g = fit_gbdt(d, stump(2));
        CHECK(g->trees()[0].node(0).threshold == 3.5);
        CHECK(g->trees()[0].node(0).impurity == doctest::Approx(1.0 / 3 + 27 - 100.0 / 6).epsilon(1e-12));
        // 3 rows each side cannot be had from 4.
        CHECK(fit_gbdt(d, stump(3))->trees()[0].size() == 1);
    }

    TEST_CASE("gbdt min_data_in_leaf: every leaf of a squared-loss model has that many rows") {
        const Dataset d = smooth_target(600, 4);
        const auto g = fit_gbdt(d, {{"n_estimators", 10}, {"min_data_in_leaf", 25}});
        Index smallest = d.rows();
        bool split = false;
        for (const Tree& t : g->trees())
            for (int i = 0; i < t.size(); ++i) {
                if (t.node(i).is_leaf()) smallest = std::min(smallest, t.node(i).samples);
                else split = true;
            }
        CHECK(split);
        CHECK(smallest >= 25);
        // Without the rule the same data has smaller leaves.
        const auto free = fit_gbdt(d, {{"n_estimators", 10}});
        Index free_smallest = d.rows();
        for (const Tree& t : free->trees())
            for (int i = 0; i < t.size(); ++i)
                if (t.node(i).is_leaf()) free_smallest = std::min(free_smallest, t.node(i).samples);
        CHECK(free_smallest < 25);
    }

    TEST_CASE("gbdt min_data_in_leaf: auto, the default, is min(20, floor(training rows / 20))") {
        const auto same = [](const Dataset& d, long long rows) {
            const Params p{{"n_estimators", 5}};
            Params q = p;
            q["min_data_in_leaf"] = rows;
            return fit_gbdt(d, p)->save_state().dump() == fit_gbdt(d, q)->save_state().dump();
        };
        const Dataset small = smooth_target(219, 2);  // floor(219 / 20) = 10
        CHECK(same(small, 10));
        CHECK_FALSE(same(small, 11));
        CHECK_FALSE(same(small, 0));
        const Dataset large = smooth_target(1000, 2);  // floor(1000 / 20) = 50, capped at 20
        CHECK(same(large, 20));
        CHECK_FALSE(same(large, 0));
        // The rows of a fit with an early-stopping hold-out are the rows left to train on:
        // 10 % of 219 held out leaves 197, so 9.
        const Params es{{"n_estimators", 5}, {"early_stopping_rounds", 2}};
        Params es9 = es;
        es9["min_data_in_leaf"] = 9;
        CHECK(fit_gbdt(small, es)->save_state().dump() == fit_gbdt(small, es9)->save_state().dump());
    }

    TEST_CASE("gbdt min_data_in_leaf: bad values are parameter errors") {
        const ModelInfo info = gbdt_model_info();
        CHECK_THROWS_AS(info.spec.resolve({{"min_data_in_leaf", -1}}, "gbdt"), ParamError);
        CHECK_THROWS_AS(info.spec.resolve({{"min_data_in_leaf", 2.5}}, "gbdt"), ParamError);
        CHECK_THROWS_AS(info.spec.resolve({{"min_data_in_leaf", "many"}}, "gbdt"), ParamError);
        CHECK_THROWS_AS(info.spec.resolve({{"min_data_in_leaf", "Auto"}}, "gbdt"), ParamError);
        CHECK_NOTHROW(info.spec.resolve({{"min_data_in_leaf", 0}}, "gbdt"));
        CHECK(info.spec.resolve({}, "gbdt")["min_data_in_leaf"] == "auto");
    }

    TEST_CASE("gbdt min_data_in_leaf: the same model at 1 and 2 threads, and through save and load") {
        const Dataset d = smooth_target(9000, 6);
        const Params p{{"n_estimators", 4}, {"min_data_in_leaf", 40}, {"subsample", 0.7}};
        CHECK(fit_gbdt(d, p, 2, 5)->save_state().dump() == fit_gbdt(d, p, 1, 5)->save_state().dump());

        ModelSpec spec;
        spec.model = "gbdt";
        spec.params = {{"n_estimators", 6}, {"min_data_in_leaf", 30}};
        const Dataset small = smooth_target(300, 9);
        const Model m = Model::train(spec, small, Context{});
        const std::string saved = m.to_json().dump();
        CHECK(saved.find("\"min_data_in_leaf\":30") != std::string::npos);
        const Model back = Model::from_json(Json::parse(saved), "mem");
        CHECK(back.to_json().dump() == saved);
        CHECK(back.predict(small.X) == m.predict(small.X));
    }
}

}  // namespace unit_boosting_gbdt_min_data_in_leaf_test
}  // namespace
