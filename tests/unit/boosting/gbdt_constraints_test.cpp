// gbdt's monotone and interaction constraints (docs/models/gbdt.md, "Constraints"): the
// parameter syntax, the monotonicity of predictions along each constrained feature (exact,
// on random rows, with missing values, categorical features, every loss kind and both
// growth policies), the interaction rule on every root-to-leaf path, agreement with
// XGBoost 1.7.4, thread-count independence and save / load.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gbdt_test_util.hpp"
#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/boosting/gbdt_constraints.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/pipeline/model.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_constraints_test {

using namespace kestrel;
using gbdt_test::fit_gbdt;
using gbdt_test::make_gbdt;
using gbdt_test::csv_rows;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// gbdt_test::make_data with feature names f0, f1, ... (constraints may name columns).
Dataset make_data(DenseMatrix X, Vector y, Task task, Index k = 0) {
    Dataset d = gbdt_test::make_data(std::move(X), std::move(y), task, k);
    for (Index j = 0; j < d.cols(); ++j) d.feature_names.push_back("f" + std::to_string(j));
    return d;
}

// A signal that is far from monotone in x0 (rises, falls, rises) and in x1 (falls then
// rises), with interactions and noise; every 9th x0 and every 13th x1 missing. k = 0:
// regression, else k classes cut from the score.
Dataset wavy(Index n, Index k = 0, std::uint64_t seed = 7) {
    Rng rng(seed);
    DenseMatrix X(n, 5);
    Vector y(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < 5; ++j) X(i, j) = 4 * rng.uniform() - 2;
        const double s = 2 * std::sin(3 * X(i, 0)) + 0.5 * X(i, 0) + 1.5 * X(i, 1) * X(i, 1) - 0.5 * X(i, 1) +
                         X(i, 2) * X(i, 3) + 0.3 * rng.normal();
        y[i] = k == 0 ? s : std::clamp(std::floor((s + 3) / 8.0 * static_cast<double>(k)), 0.0, static_cast<double>(k - 1));
        if (i % 9 == 0) X(i, 0) = kNaN;
        if (i % 13 == 0) X(i, 1) = kNaN;
    }
    return make_data(std::move(X), std::move(y), k ? Task::classification : Task::regression, k);
}

// The largest step against the sign along feature f: for 40 random rows of X, f swept
// over a grid of 61 values in [−2.5, 2.5], every raw score compared with the one before.
// 0 when every score moves the way `sign` says (exactly: no tolerance).
double worst_violation(const Gbdt& g, const DenseView& X, Index f, int sign) {
    Rng rng(99);
    double worst = 0;
    for (int r = 0; r < 40; ++r) {
        const Index i = static_cast<Index>(rng.below(static_cast<std::uint64_t>(X.rows())));
        DenseMatrix sweep(61, X.cols());
        for (Index s = 0; s < 61; ++s) {
            sweep.row(s) = X.row(i);
            sweep(s, f) = -2.5 + 5.0 * static_cast<double>(s) / 60.0;
        }
        const Matrix F = g.raw_scores(Features(sweep));
        for (Index s = 1; s < F.rows(); ++s)
            for (Index c = 0; c < F.cols(); ++c)
                worst = std::max(worst, sign * (F(s - 1, c) - F(s, c)));
    }
    return worst;
}

// The features of every root-to-leaf path of every tree, in order from the root.
std::vector<std::vector<int>> paths(const Gbdt& g) {
    std::vector<std::vector<int>> out;
    for (const Tree& t : g.trees()) {
        std::vector<std::pair<int, std::vector<int>>> stack{{0, {}}};
        while (!stack.empty()) {
            auto [i, path] = stack.back();
            stack.pop_back();
            const TreeNode& n = t.node(i);
            if (n.is_leaf()) {
                out.push_back(path);
                continue;
            }
            path.push_back(n.feature);
            stack.push_back({n.left, path});
            stack.push_back({n.right, path});
        }
    }
    return out;
}

// XGBoost's rule, written out independently of the learner: the k-th feature of a path is
// one of the features before it, or it and all of them belong to one set.
bool path_allowed(const std::vector<int>& path, const std::vector<std::set<int>>& sets) {
    for (std::size_t k = 1; k < path.size(); ++k) {
        std::set<int> used(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(k));
        if (used.count(path[k])) continue;
        used.insert(path[k]);
        const bool ok = std::any_of(sets.begin(), sets.end(), [&](const std::set<int>& s) {
            return std::includes(s.begin(), s.end(), used.begin(), used.end());
        });
        if (!ok) return false;
    }
    return true;
}

}  // namespace

TEST_SUITE("gbdt constraints") {
    TEST_CASE("gbdt constraints: monotone_constraints syntax") {
        CHECK(parse_monotone_constraints("").empty());
        CHECK(parse_monotone_constraints("()").empty());
        CHECK(parse_monotone_constraints("(1, 0,-1)").by_index == std::vector<int>{1, 0, -1});
        CHECK(parse_monotone_constraints("[+1,-1]").by_index == std::vector<int>{1, -1});
        const MonotoneSpec named = parse_monotone_constraints("price:-1, 'age':1");
        REQUIRE(named.by_name.size() == 2);
        CHECK(named.by_name[0] == std::pair<std::string, int>{"price", -1});
        CHECK(named.by_name[1] == std::pair<std::string, int>{"age", 1});
        for (const char* bad : {"(1,2)", "(1,0", "1,0,-1", "price:up", ":1", "a:1,a:-1", "(1,,0)"})
            CHECK_THROWS_AS(parse_monotone_constraints(bad), ParamError);

        const std::vector<std::string> names{"price", "age", "colour"};
        CHECK(resolve_monotone_constraints(parse_monotone_constraints("(1)"), {}, 3, {}) == std::vector<int>{1, 0, 0});
        CHECK(resolve_monotone_constraints(parse_monotone_constraints("(0,0)"), {}, 3, {}).empty());
        CHECK(resolve_monotone_constraints(named, names, 3, {}) == std::vector<int>{-1, 1, 0});
        CHECK_THROWS_AS(resolve_monotone_constraints(parse_monotone_constraints("(1,0,0,1)"), names, 3, {}), ParamError);
        CHECK_THROWS_AS(resolve_monotone_constraints(parse_monotone_constraints("size:1"), names, 3, {}), ParamError);
        CHECK_THROWS_AS(resolve_monotone_constraints(named, {}, 3, {}), ParamError);  // no header
        CHECK_THROWS_AS(resolve_monotone_constraints(parse_monotone_constraints("colour:1"), names, 3, {0, 0, 4}),
                        ParamError);
        CHECK(resolve_monotone_constraints(parse_monotone_constraints("colour:0"), names, 3, {0, 0, 4}).empty());
        try {
            resolve_monotone_constraints(parse_monotone_constraints("size:1"), names, 3, {});
        } catch (const ParamError& e) {
            CHECK(std::string(e.what()) ==
                  "parameter monotone_constraints=size:1 of model gbdt: no feature column is named 'size'");
        }
    }

    TEST_CASE("gbdt constraints: interaction_constraints syntax and the allowed features") {
        CHECK(parse_interaction_constraints("[]").empty());
        const InteractionSpec s = parse_interaction_constraints(" [[0, 1], [2,3,4]] ");
        REQUIRE(s.size() == 2);
        CHECK(s[1] == std::vector<std::string>{"2", "3", "4"});
        for (const char* bad : {"[0,1]", "[[0,1]", "[[0,1],]", "[[0,1][2]]", "((0,1))", "[[0,[1]]]", "[[0,,1]]"})
            CHECK_THROWS_AS(parse_interaction_constraints(bad), ParamError);

        const std::vector<std::string> names{"price", "age", "x", "y", "z"};
        CHECK(resolve_interaction_constraints(s, {}, 5) == std::vector<std::vector<int>>{{0, 1}, {2, 3, 4}});
        CHECK(resolve_interaction_constraints(parse_interaction_constraints("[[age,'price'],[z,2]]"), names, 5) ==
              std::vector<std::vector<int>>{{0, 1}, {2, 4}});
        CHECK_THROWS_AS(resolve_interaction_constraints(parse_interaction_constraints("[[0,5]]"), names, 5), ParamError);
        CHECK_THROWS_AS(resolve_interaction_constraints(parse_interaction_constraints("[[0,w]]"), names, 5), ParamError);
        CHECK_THROWS_AS(resolve_interaction_constraints(parse_interaction_constraints("[[0,age]]"), {}, 5), ParamError);

        // XGBoost's FeatureInteractionConstraintHost, by hand: sets {0,1} and {1,2,3}.
        const std::vector<std::vector<int>> sets{{0, 1}, {1, 2, 3}};
        std::vector<char> a;
        allowed_features(sets, {}, 5, a);
        CHECK(a == std::vector<char>{1, 1, 1, 1, 1});  // the root: anything
        allowed_features(sets, {1}, 5, a);
        CHECK(a == std::vector<char>{1, 1, 1, 1, 0});  // both sets hold 1
        allowed_features(sets, {0, 1}, 5, a);
        CHECK(a == std::vector<char>{1, 1, 0, 0, 0});
        allowed_features(sets, {4}, 5, a);
        CHECK(a == std::vector<char>{0, 0, 0, 0, 1});  // in no set: alone
    }

    TEST_CASE("gbdt constraints: bad constraint text is a parameter error when the parameters are set") {
        CHECK_THROWS_AS(make_gbdt({{"monotone_constraints", "(1,2)"}}), ParamError);
        CHECK_THROWS_AS(make_gbdt({{"interaction_constraints", "[0,1]"}}), ParamError);
        CHECK_NOTHROW(make_gbdt({{"monotone", "(1,-1)"}}));  // the alias
        // Names and ranges wait for the data.
        const Dataset d = wavy(200);
        CHECK_THROWS_AS(fit_gbdt(d, {{"monotone_constraints", "(1,0,0,0,0,1)"}}), ParamError);
        CHECK_THROWS_AS(fit_gbdt(d, {{"monotone_constraints", "price:1"}}), ParamError);
        CHECK_THROWS_AS(fit_gbdt(d, {{"interaction_constraints", "[[0,7]]"}}), ParamError);
    }

    TEST_CASE("gbdt constraints: predictions are monotone along each constrained feature") {
        const Dataset reg = wavy(3000);
        const DenseView X = reg.X.dense_ref();
        struct Case {
            const char* what;
            Dataset data;
            Params params;
        };
        const Params base{{"n_estimators", 40}, {"max_depth", 5}, {"learning_rate", 0.3}};
        const auto with = [&](Params p, const Params& extra) {
            for (const auto& [k, v] : extra.items()) p[k] = v;
            return p;
        };
        const std::vector<Case> cases{
            {"squared, depth-wise", reg, base},
            {"squared, leaf-wise", reg, with(base, {{"max_leaves", 24}, {"max_depth", 0}})},
            {"absolute (renewed leaves)", reg, with(base, {{"loss", "absolute"}})},
            {"huber, max_delta_step", reg, with(base, {{"loss", "huber"}, {"max_delta_step", 0.5}})},
            {"subsample, colsample", reg, with(base, {{"subsample", 0.7}, {"colsample", 0.8}})},
            {"logistic", wavy(3000, 2), base},
            {"softmax, 3 classes", wavy(3000, 3), with(base, {{"n_estimators", 20}})},
        };
        for (const Case& c : cases) {
            CAPTURE(c.what);
            Params p = c.params;
            p["monotone_constraints"] = "(1,-1)";
            const auto g = fit_gbdt(c.data, p);
            CHECK(worst_violation(*g, X, 0, 1) == 0.0);
            CHECK(worst_violation(*g, X, 1, -1) == 0.0);
            // The test has teeth: the same fit without constraints follows the waves.
            const auto free = fit_gbdt(c.data, c.params);
            CHECK(worst_violation(*free, X, 0, 1) > 0.01);
            CHECK(worst_violation(*free, X, 1, -1) > 0.01);
        }
    }

    TEST_CASE("gbdt constraints: monotone beside a categorical feature, and the constraint costs fit") {
        // Column 4 becomes a 6-category feature that shifts y; the categorical splits carry the
        // node bounds like any other split.
        Dataset d = wavy(3000);
        DenseMatrix& X = d.X.dense_mut();
        for (Index i = 0; i < d.rows(); ++i) {
            X(i, 4) = static_cast<double>(i % 6);
            d.y[i] += i % 6 == 2 || i % 6 == 5 ? 2.0 : 0.0;
        }
        d.category_counts = {0, 0, 0, 0, 6};
        const Params p{{"n_estimators", 40}, {"max_depth", 5}, {"learning_rate", 0.3}, {"monotone_constraints", "f0:1,f1:-1"}};
        const auto g = fit_gbdt(d, p);
        CHECK(worst_violation(*g, X, 0, 1) == 0.0);
        CHECK(worst_violation(*g, X, 1, -1) == 0.0);
        bool categorical_split = false;
        for (const auto& t : g->categorical_splits()) categorical_split |= !t.empty();
        CHECK(categorical_split);
        // A constraint against the signal costs training loss; the free model fits better.
        const auto free = fit_gbdt(d, {{"n_estimators", 40}, {"max_depth", 5}, {"learning_rate", 0.3}});
        CHECK(free->train_loss().back() < g->train_loss().back());
        CHECK_THROWS_AS(fit_gbdt(d, {{"monotone_constraints", "f4:1"}}), ParamError);
    }

    // XGBoost 1.7.4, tests/unit/boosting/make_xgboost_constraints_reference.py: the rows and
    // labels of xgb_fixture.csv, {tree_method: hist, max_depth: 3, eta: 0.3, max_bin: 255,
    // min_child_weight: 1, lambda: 1, base_score: 0.5, nthread: 1}, 20 rounds, with
    // monotone_constraints (1,-1,0,-1,0,0) (reg:squarederror), (1,-1,0,0,1,0)
    // (binary:logistic margins) and interaction_constraints [[0,1],[2,3,4]] (reg:squarederror).
    // XGBoost keeps weights in float: 1e-4.
    TEST_CASE("gbdt constraints: agree with XGBoost hist on a fixture") {
        const std::vector<std::vector<double>> fx = csv_rows("xgb_fixture.csv");
        const std::vector<std::vector<double>> ref = csv_rows("xgb_constraints_fixture.csv");
        REQUIRE(fx.size() == 300);
        REQUIRE(ref.size() == 300);
        DenseMatrix X(300, 6);
        Vector y_reg(300), y_bin(300), mono_reg(300), mono_margin(300), inter_reg(300);
        for (Index i = 0; i < 300; ++i) {
            const auto ui = static_cast<std::size_t>(i);
            for (Index j = 0; j < 6; ++j) X(i, j) = fx[ui][static_cast<std::size_t>(j)];
            y_reg[i] = fx[ui][6];
            y_bin[i] = fx[ui][7];
            mono_reg[i] = ref[ui][0];
            mono_margin[i] = ref[ui][1];
            inter_reg[i] = ref[ui][2];
        }
        const Params common{{"n_estimators", 20}, {"max_depth", 3}, {"learning_rate", 0.3}, {"max_bins", 255},
                            {"min_child_weight", 1.0}, {"min_data_in_leaf", 0}, {"lambda", 1.0}, {"base_score", 0.5}};
        const auto with = [&](const char* name, const char* value) {
            Params p = common;
            p[name] = value;
            return p;
        };
        const Dataset reg = make_data(X, y_reg, Task::regression);
        const Dataset bin = make_data(X, y_bin, Task::classification, 2);
        const auto m_reg = fit_gbdt(reg, with("monotone_constraints", "(1,-1,0,-1,0,0)"));
        CHECK((m_reg->predict(Features(X)) - mono_reg).cwiseAbs().maxCoeff() < 1e-4);
        const auto m_bin = fit_gbdt(bin, with("monotone_constraints", "(1,-1,0,0,1,0)"));
        CHECK((m_bin->decision_function(Features(X)).col(0) - mono_margin).cwiseAbs().maxCoeff() < 1e-4);
        const auto i_reg = fit_gbdt(reg, with("interaction_constraints", "[[0,1],[2,3,4]]"));
        CHECK((i_reg->predict(Features(X)) - inter_reg).cwiseAbs().maxCoeff() < 1e-4);
        // And they differ from the unconstrained fit, so the agreement says something.
        const auto free = fit_gbdt(reg, common);
        CHECK((free->predict(Features(X)) - mono_reg).cwiseAbs().maxCoeff() > 0.1);
        CHECK((free->predict(Features(X)) - inter_reg).cwiseAbs().maxCoeff() > 0.1);
    }

    TEST_CASE("gbdt constraints: every path of every tree keeps to the interaction sets") {
        const std::vector<std::set<int>> sets{{0, 1}, {1, 2, 3}};
        for (const Index k : {Index{0}, Index{3}}) {
            CAPTURE(k);
            const Dataset d = wavy(2000, k);
            for (const Params& shape : {Params{{"max_depth", 6}}, Params{{"max_depth", 0}, {"max_leaves", 30}}}) {
                Params p = shape;
                p["n_estimators"] = 15;
                p["learning_rate"] = 0.3;
                const auto free = fit_gbdt(d, p);
                const auto all_paths = paths(*free);
                CHECK_FALSE(std::all_of(all_paths.begin(), all_paths.end(),
                                        [&](const std::vector<int>& path) { return path_allowed(path, sets); }));
                p["interaction_constraints"] = "[[f0,f1],[1,2,3]]";
                const auto g = fit_gbdt(d, p);
                std::size_t deep = 0;
                for (const std::vector<int>& path : paths(*g)) {
                    CHECK(path_allowed(path, sets));
                    deep += path.size() >= 3;
                }
                CHECK(deep > 0);  // the rule was exercised below the root
            }
        }
    }

    TEST_CASE("gbdt constraints: the same model at 1 and 2 threads") {
        // Enough rows and features for the parallel histogram and split loops.
        Dataset d = wavy(8000);
        const Params p{{"n_estimators", 6}, {"max_depth", 6}, {"subsample", 0.8},
                       {"monotone_constraints", "(1,-1,0,1)"}, {"interaction_constraints", "[[0,1,2],[2,3,4]]"}};
        const std::string one = fit_gbdt(d, p, 1, 5)->save_state().dump();
        CHECK(fit_gbdt(d, p, 2, 5)->save_state().dump() == one);
        const Dataset c = wavy(4000, 4);
        const std::string c1 = fit_gbdt(c, p, 1, 5)->save_state().dump();
        CHECK(fit_gbdt(c, p, 2, 5)->save_state().dump() == c1);
    }

    TEST_CASE("gbdt constraints: save and load through the pipeline give identical predictions") {
        const Dataset d = wavy(500);
        ModelSpec spec;
        spec.model = "gbdt";
        spec.params = {{"n_estimators", 10}, {"monotone_constraints", "f0:1,f1:-1"},
                       {"interaction_constraints", "[[f0,f1,f2],[f3,f4]]"}};
        const Model m = Model::train(spec, d, Context{});
        const std::string saved = m.to_json().dump();
        CHECK(saved.find("f0:1,f1:-1") != std::string::npos);  // the parameters travel with the model
        const Model back = Model::from_json(Json::parse(saved), "mem");
        CHECK(back.to_json().dump() == saved);
        CHECK(back.predict(d.X) == m.predict(d.X));
    }
}

}  // namespace unit_boosting_gbdt_constraints_test
}  // namespace
