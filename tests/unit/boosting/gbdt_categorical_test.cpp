// gbdt's native categorical splits (docs/models/gbdt.md, "Categorical features").
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "gbdt_test_util.hpp"
#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/boosting/histogram.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/json_packed.hpp"
#include "kestrel/core/json_text.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_categorical_test {

using namespace kestrel;
using gbdt_test::fit_gbdt;
using gbdt_test::make_gbdt;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Dataset make_data(DenseMatrix X, Vector y, Task task, std::vector<Index> counts, Index k = 0) {
    Dataset d;
    d.X = Features(std::move(X));
    d.y = std::move(y);
    d.task = task;
    d.category_counts = std::move(counts);
    for (Index c = 0; c < k; ++c) d.classes.push_back("c" + std::to_string(c));
    return d;
}

// The codes a categorical split sends left, and whether they are `a` or its complement
// among the codes 0..k-1.
bool splits_off(const std::vector<int>& left, const std::set<int>& a, int k) {
    const std::set<int> l(left.begin(), left.end());
    std::set<int> rest;
    for (int c = 0; c < k; ++c)
        if (!a.count(c)) rest.insert(c);
    return l == a || l == rest;
}

// 8 categories, 100 rows each (column 0), y = 10 for {1, 4, 6} and 0 else; column 1 is noise.
Dataset eight_categories() {
    DenseMatrix X(800, 2);
    Vector y(800);
    Rng rng(5);
    for (Index i = 0; i < 800; ++i) {
        const int c = static_cast<int>(i % 8);
        X(i, 0) = c;
        X(i, 1) = rng.normal();
        y[i] = c == 1 || c == 4 || c == 6 ? 10.0 : 0.0;
    }
    return make_data(std::move(X), std::move(y), Task::regression, {8, 0});
}

Matrix raw(const Gbdt& g, const DenseMatrix& X) { return g.raw_scores(Features(X)); }

}  // namespace

TEST_SUITE("gbdt categorical") {
    TEST_CASE("gbdt categorical: one split of depth 1 isolates the categories of a known partition") {
        const Dataset d = eight_categories();
        const Params p{{"n_estimators", 1}, {"max_depth", 1}, {"learning_rate", 1.0}, {"lambda", 0.0}};
        auto g = fit_gbdt(d, p);
        REQUIRE(g->trees().size() == 1);
        const Tree& t = g->trees()[0];
        CHECK(t.node(0).feature == 0);
        REQUIRE(g->categorical_splits().size() == 1);
        REQUIRE(g->categorical_splits()[0].size() == 1);
        const Gbdt::CategoricalSplit& s = g->categorical_splits()[0][0];
        CHECK(s.node == 0);
        CHECK(splits_off(s.left, {1, 4, 6}, 8));
        DenseMatrix q(8, 2);
        for (int c = 0; c < 8; ++c) q.row(c) << c, 0.0;
        const Vector pred = g->predict(Features(q));
        for (int c = 0; c < 8; ++c) CHECK(pred[c] == doctest::Approx(c == 1 || c == 4 || c == 6 ? 10.0 : 0.0));
        // The same with the codes permuted: the set follows the codes, not their order.
        Dataset e = d;
        const int perm[8] = {5, 2, 7, 0, 3, 6, 1, 4};
        for (Index i = 0; i < e.rows(); ++i) e.X.dense_mut()(i, 0) = perm[static_cast<int>(d.X.dense_ref()(i, 0))];
        auto h = fit_gbdt(e, p);
        CHECK(splits_off(h->categorical_splits()[0][0].left, {perm[1], perm[4], perm[6]}, 8));
    }

    TEST_CASE("gbdt categorical: few categories split one against the rest") {
        // 3 categories (<= max_cat_to_onehot): y = 5 for category 2 only.
        DenseMatrix X(300, 1);
        Vector y(300);
        for (Index i = 0; i < 300; ++i) {
            X(i, 0) = static_cast<double>(i % 3);
            y[i] = i % 3 == 2 ? 5.0 : 0.0;
        }
        auto g = fit_gbdt(make_data(X, y, Task::regression, {3}),
                          {{"n_estimators", 1}, {"max_depth", 1}, {"learning_rate", 1.0}, {"lambda", 0.0}});
        REQUIRE(g->categorical_splits()[0].size() == 1);
        CHECK(g->categorical_splits()[0][0].left == std::vector<int>{2});
    }

    TEST_CASE("gbdt categorical: binary classification learns the category set") {
        // P(y = 1) = 0.9 for categories {0, 3, 5}, 0.1 for {1, 2, 4}; a numeric noise column.
        const Index n = 1800;
        DenseMatrix X(n, 2);
        Vector y(n);
        Rng rng(7);
        for (Index i = 0; i < n; ++i) {
            const int c = static_cast<int>(i % 6);
            X(i, 0) = rng.normal();
            X(i, 1) = c;
            const bool hot = c == 0 || c == 3 || c == 5;
            y[i] = rng.uniform() < (hot ? 0.9 : 0.1) ? 1.0 : 0.0;
        }
        const Dataset d = make_data(X, y, Task::classification, {0, 6}, 2);
        auto g = fit_gbdt(d, {{"n_estimators", 5}, {"max_depth", 2}});
        const Gbdt::CategoricalSplit& root = g->categorical_splits()[0].at(0);
        CHECK(root.node == 0);
        CHECK(g->trees()[0].node(0).feature == 1);
        CHECK(splits_off(root.left, {0, 3, 5}, 6));
        DenseMatrix q(6, 2);
        for (int c = 0; c < 6; ++c) q.row(c) << 0.0, c;
        const Matrix proba = g->predict_proba(Features(q));
        for (int c = 0; c < 6; ++c) {
            CAPTURE(c);
            CHECK((proba(c, 1) > 0.5) == (c == 0 || c == 3 || c == 5));
        }
    }

    TEST_CASE("gbdt categorical: softmax grows one categorical tree per class") {
        // 9 categories, class = code % 3: class c's first tree splits {c, c+3, c+6} off.
        const Index n = 1800;
        DenseMatrix X(n, 1);
        Vector y(n);
        for (Index i = 0; i < n; ++i) {
            X(i, 0) = static_cast<double>(i % 9);
            y[i] = static_cast<double>(i % 3);
        }
        const Dataset d = make_data(X, y, Task::classification, {9}, 3);
        auto g = fit_gbdt(d, {{"n_estimators", 3}, {"max_depth", 1}});
        REQUIRE(g->trees().size() == 9);
        for (int c = 0; c < 3; ++c) {
            CAPTURE(c);
            REQUIRE(g->categorical_splits()[static_cast<std::size_t>(c)].size() == 1);
            CHECK(splits_off(g->categorical_splits()[static_cast<std::size_t>(c)][0].left, {c, c + 3, c + 6}, 9));
        }
        CHECK(g->predict(d.X) == d.y);
    }

    TEST_CASE("gbdt categorical: missing and unseen codes follow the learned missing direction") {
        // Rows with the category missing have y = 10 (then 0): they go with {1, 4, 6} (then the others).
        for (double missing_y : {10.0, 0.0}) {
            CAPTURE(missing_y);
            Dataset d = eight_categories();
            DenseMatrix& X = d.X.dense_mut();
            for (Index i = 0; i < d.rows(); ++i) {
                if (i % 8 == 7) X(i, 0) = kNaN;  // category 7: never seen in training
                if (i % 8 == 7) d.y[i] = missing_y;
            }
            const Params p{{"n_estimators", 1}, {"max_depth", 1}, {"learning_rate", 1.0}, {"lambda", 0.0}};
            auto g = fit_gbdt(d, p);
            CHECK(g->unseen_categories()[0] == std::vector<int>{7});
            CHECK(g->unseen_categories()[1].empty());
            REQUIRE(g->categorical_splits()[0].size() == 1);
            const Gbdt::CategoricalSplit& s = g->categorical_splits()[0][0];
            const TreeNode& root = g->trees()[0].node(0);
            const std::set<int> left(s.left.begin(), s.left.end());
            const bool hot_left = left.count(1) == 1;
            CHECK(root.missing_left == (hot_left == (missing_y == 10.0)));
            // Missing, the unseen code 7, and every invalid code: the missing direction,
            // finite, without reading out of range.
            const std::vector<double> odd = {kNaN,  7.0,  -1.0, 8.0, 2.5, -0.5, 1e300, -1e300,
                                             std::numeric_limits<double>::infinity(), 9.0e18};
            DenseMatrix q(static_cast<Index>(odd.size()), 2);
            for (Index i = 0; i < q.rows(); ++i) q.row(i) << odd[static_cast<std::size_t>(i)], 0.0;
            const Vector pred = g->predict(Features(q));
            for (Index i = 0; i < q.rows(); ++i) {
                CAPTURE(odd[static_cast<std::size_t>(i)]);
                CHECK(std::isfinite(pred[i]));
                CHECK(pred[i] == doctest::Approx(missing_y));
            }
        }
    }

    TEST_CASE("gbdt categorical: invalid codes in training rows count as missing") {
        Dataset d = eight_categories();
        Dataset e = d;
        for (Index i = 0; i < d.rows(); i += 8) {
            d.X.dense_mut()(i, 0) = kNaN;
            e.X.dense_mut()(i, 0) = i % 16 == 0 ? -3.0 : 0.5;
        }
        const Params p{{"n_estimators", 3}, {"max_depth", 2}};
        CHECK(fit_gbdt(e, p)->save_state().dump() == fit_gbdt(d, p)->save_state().dump());
    }

    TEST_CASE("gbdt categorical: more categories than max_bins share a bin beyond the most frequent") {
        // 8 categories with counts 80, 70, ..., 10: with max_bins=4, categories 0, 1, 2 keep
        // their bins and 3..7 share one, so they predict alike.
        std::vector<double> codes;
        for (int c = 0; c < 8; ++c)
            for (int r = 0; r < 10 * (8 - c); ++r) codes.push_back(c);
        const auto n = static_cast<Index>(codes.size());
        DenseMatrix X(n, 1);
        Vector y(n);
        for (Index i = 0; i < n; ++i) {
            X(i, 0) = codes[static_cast<std::size_t>(i)];
            y[i] = codes[static_cast<std::size_t>(i)] * 2.0 + (i % 2);
        }
        const Dataset d = make_data(X, y, Task::regression, {8});
        auto g = fit_gbdt(d, {{"n_estimators", 5}, {"max_bins", 4}, {"min_data_per_group", 10}, {"max_cat_to_onehot", 1}});
        DenseMatrix q(8, 1);
        for (int c = 0; c < 8; ++c) q(c, 0) = c;
        const Vector pred = g->predict(Features(q));
        for (int c = 4; c < 8; ++c) CHECK(pred[c] == pred[3]);
        CHECK(pred[0] != pred[3]);
        for (const auto& tree : g->categorical_splits())
            for (const auto& s : tree) {
                const std::set<int> l(s.left.begin(), s.left.end());
                for (int c = 4; c < 8; ++c) CHECK(l.count(c) == l.count(3));
            }
    }

    TEST_CASE("gbdt categorical: save and load, through the packed reader too, give identical predictions") {
        Dataset d = eight_categories();
        for (Index i = 0; i < d.rows(); i += 11) d.X.dense_mut()(i, 0) = kNaN;
        for (Index i = 0; i < d.rows(); i += 13) d.X.dense_mut()(i, 1) = kNaN;
        for (Index i = 0; i < d.rows(); i += 3) d.y[i] += d.X.dense_ref()(i, 1) > 0 ? 1.0 : 0.0;
        auto g = fit_gbdt(d, {{"n_estimators", 8}, {"max_depth", 3}, {"subsample", 0.8}});
        DenseMatrix q(12, 2);
        for (Index i = 0; i < 12; ++i) q.row(i) << (i < 8 ? static_cast<double>(i) : i == 8 ? kNaN : -1.0 * i), 0.3 * i - 1;
        const Matrix expected = raw(*g, q);

        const Json state = g->save_state();
        CHECK(state.at("state_version") == 3);
        CHECK(state.contains("categorical_splits"));
        auto back = make_gbdt({{"n_estimators", 8}, {"max_depth", 3}, {"subsample", 0.8}});
        back->load_state(Json::parse(state.dump()));
        CHECK(raw(*back, q) == expected);
        CHECK(back->save_state().dump() == state.dump());

        // The model file path: trees written as a text slot, read back packed.
        JsonTextSlots slots;
        const std::string text = model_json_text(g->save_state(slots), &slots);
        const std::optional<Json> packed = parse_model_json(text);
        REQUIRE(packed.has_value());
        auto again = make_gbdt({});
        again->load_state(*packed);
        CHECK(raw(*again, q) == expected);
        CHECK(again->categorical_splits() == g->categorical_splits());
        CHECK(again->unseen_categories() == g->unseen_categories());
        JsonTextSlots slots2;
        CHECK(model_json_text(again->save_state(slots2), &slots2) == text);
    }

    TEST_CASE("gbdt categorical: a damaged categorical state is refused") {
        const Dataset d = eight_categories();
        const Json good = fit_gbdt(d, {{"n_estimators", 2}, {"max_depth", 1}})->save_state();
        const auto refused = [](Json s) {
            auto g = make_gbdt({});
            CHECK_THROWS(g->load_state(s));
        };
        Json s = good;
        s["categorical_splits"][0]["left"] = Json::array({1, 8});  // code out of range
        refused(s);
        s = good;
        s["categorical_splits"][0]["left"] = Json::array({4, 1});  // not ascending
        refused(s);
        s = good;
        s["categorical_splits"] = Json::array();  // a categorical node without its set
        refused(s);
        s = good;
        s["categorical_splits"][0]["node"] = 1;  // a leaf
        refused(s);
        s = good;
        s.erase("categorical_features");
        refused(s);
        s = good;
        s["categorical_features"][0]["feature"] = 1;  // the split's feature is then numeric
        refused(s);
    }

    TEST_CASE("gbdt categorical: state version 1 (numeric only) still loads") {
        Dataset d = eight_categories();
        d.category_counts.clear();
        auto g = fit_gbdt(d, {{"n_estimators", 3}});
        Json s = g->save_state();
        CHECK_FALSE(s.contains("categorical_features"));
        s["state_version"] = 1;  // version 1 wrote the trees in the full layout
        s["trees"] = Json::array();
        for (const Tree& t : g->trees()) s["trees"].push_back(t.to_json(TreeLayout::full));
        auto back = make_gbdt({});
        back->load_state(s);
        CHECK(back->predict(d.X) == g->predict(d.X));
        CHECK(back->category_counts().empty());
    }

    TEST_CASE("gbdt categorical: all-numeric category counts are the numeric path") {
        Dataset d = eight_categories();
        d.category_counts.clear();
        const Params p{{"n_estimators", 4}, {"subsample", 0.9}};
        const std::string plain = fit_gbdt(d, p)->save_state().dump();
        d.category_counts = {0, 0};
        CHECK(fit_gbdt(d, p)->save_state().dump() == plain);
    }

    TEST_CASE("gbdt categorical: the same seed gives the same model at 1 and 2 threads") {
        // Enough rows for parallel histograms; categorical and numeric features mixed.
        const Index n = 9000;
        DenseMatrix X(n, 4);
        Vector y(n), yc(n);
        Rng rng(21);
        for (Index i = 0; i < n; ++i) {
            const auto a = static_cast<int>(rng.below(12)), b = static_cast<int>(rng.below(40));
            X(i, 0) = rng.uniform() < 0.05 ? kNaN : a;
            X(i, 1) = rng.normal();
            X(i, 2) = b;
            X(i, 3) = rng.normal();
            const double s = (a % 4 == 1 ? 1.5 : -0.5) + (b % 7 < 3 ? 1.0 : 0.0) + X(i, 1) + 0.3 * rng.normal();
            y[i] = s;
            yc[i] = s < 0 ? 0 : s < 1 ? 1 : s < 2 ? 2 : s < 2.6 ? 3 : 4;
        }
        const Dataset r = make_data(X, y, Task::regression, {12, 0, 40, 0});
        const Params p{{"n_estimators", 4}, {"subsample", 0.7}, {"colsample", 0.8}, {"early_stopping_rounds", 2}};
        const std::string one = fit_gbdt(r, p, 1, 11)->save_state().dump();
        CHECK(one.find("categorical_splits") != std::string::npos);
        CHECK(fit_gbdt(r, p, 2, 11)->save_state().dump() == one);
        const Params q{{"n_estimators", 3}, {"max_leaves", 12}, {"max_depth", 0}};
        CHECK(fit_gbdt(r, q, 1)->save_state().dump() == fit_gbdt(r, q, 2)->save_state().dump());
        // Five classes: at 2 threads the round's trees grow in parallel.
        const Dataset c = make_data(X, yc, Task::classification, {12, 0, 40, 0}, 5);
        const Params p5{{"n_estimators", 3}, {"subsample", 0.8}};
        CHECK(fit_gbdt(c, p5, 2)->save_state().dump() == fit_gbdt(c, p5, 1)->save_state().dump());
    }

    TEST_CASE("gbdt categorical: a sparse matrix with absent cells is the dense one with NaN") {
        Dataset d = eight_categories();
        for (Index i = 0; i < d.rows(); i += 5) d.X.dense_mut()(i, 0) = kNaN;
        const Params p{{"n_estimators", 3}, {"max_depth", 2}};
        auto g = fit_gbdt(d, p);
        Dataset s = d;
        std::vector<Eigen::Triplet<double>> entries;
        for (Index i = 0; i < d.rows(); ++i)
            for (Index j = 0; j < 2; ++j)
                if (!std::isnan(d.X.dense_ref()(i, j)))
                    entries.emplace_back(static_cast<int>(i), static_cast<int>(j), d.X.dense_ref()(i, j));
        SparseMatrix S(d.rows(), 2);
        S.setFromTriplets(entries.begin(), entries.end());
        s.X = Features(S);
        auto gs = fit_gbdt(s, p);
        CHECK(gs->save_state().dump() == g->save_state().dump());
        CHECK(gs->predict(s.X) == g->predict(d.X));
    }

    TEST_CASE("gbdt categorical: the tree report prints category sets") {
        const Dataset d = eight_categories();
        auto g = fit_gbdt(d, {{"n_estimators", 1}, {"max_depth", 1}, {"learning_rate", 1.0}, {"lambda", 0.0}});
        const std::vector<std::string> features{"colour", "size"}, classes;
        const std::string text = g->report("tree", {features, classes});
        const bool hot_left = g->categorical_splits()[0][0].left == std::vector<int>{1, 4, 6};
        const std::string set = hot_left ? "{1, 4, 6}" : "{0, 2, 3, 5, 7}";
        CHECK(text.find("|--- colour in " + set) != std::string::npos);
        CHECK(text.find("|--- colour not in " + set) != std::string::npos);
    }

    TEST_CASE("gbdt categorical: parameters are validated and the model declares native categories") {
        CHECK(gbdt_model_info().capabilities.native_categories);
        CHECK(make_gbdt({})->native_categories());
        const ModelInfo info = gbdt_model_info();
        CHECK_THROWS(info.spec.resolve({{"min_data_per_group", 0}}, "gbdt"));
        CHECK_THROWS(info.spec.resolve({{"cat_smooth", -1.0}}, "gbdt"));
        Dataset d = eight_categories();
        d.category_counts = {8};  // one count for two features
        CHECK_THROWS_AS(fit_gbdt(d, {}), DataError);
    }
}

}  // namespace unit_boosting_gbdt_categorical_test
}  // namespace
