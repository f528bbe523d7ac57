#include <doctest/doctest.h>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/tree/decision_tree.hpp"
#include "kestrel/tree/pruning.hpp"
#include "kestrel/tree/tree_grower.hpp"
#include "kestrel/tree/tree_params.hpp"
#include "tree_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tree_decision_tree_test {

using namespace kestrel;
using namespace kestrel::tree_test;

namespace {

std::unique_ptr<DecisionTree> fit_tree(const Dataset& d, const Params& given, std::uint64_t seed = 1) {
    auto t = make<DecisionTree>(tree_model_info(), given);
    Context ctx;
    ctx.seed = seed;
    ctx.threads = 1;
    t->fit(d, ctx);
    return t;
}

}  // namespace

TEST_SUITE("tree") {
    // scikit-learn 1.2.1 (Debian python3-sklearn), tests/unit/tree/make_references.py:
    //   DecisionTreeClassifier(criterion=c, max_depth=m, random_state=0).fit(X, y) on iris/train.csv.
    // Its splits are not unique on iris (petal length and petal width tie at the root and
    // scikit-learn picks between them at random), so the comparison is on what the ties
    // leave unchanged here: leaf count, depth and training accuracy.
    TEST_CASE("tree: agrees with scikit-learn on iris (leaves, training accuracy)") {
        struct Ref {
            int max_depth, leaves;
            double train_acc;
        };
        const Ref refs[] = {{1, 2, 0.666667}, {2, 3, 0.966667}, {3, 5, 0.983333}, {4, 7, 0.991667}, {0, 8, 1.0}};
        const Dataset& d = iris_train();
        for (const std::string crit : {"gini", "entropy"}) {
            for (const Ref& r : refs) {
                CAPTURE(crit);
                CAPTURE(r.max_depth);
                auto t = fit_tree(d, {{"criterion", crit}, {"max_depth", r.max_depth}});
                CHECK(t->tree().n_leaves() == r.leaves);
                CHECK(accuracy(t->predict(d.X), d.y) == doctest::Approx(r.train_acc).epsilon(1e-5));
            }
        }
        // max_depth=2, both criteria, scikit-learn's test predictions
        // "021101002122210001120211221020" and importances (0, 0, 0, 1) with petal width at
        // the root; kestrel takes petal length (the first of the tied features) at the
        // root, which sends every row the same way.
        const std::string expected = "021101002122210001120211221020";
        auto t = fit_tree(d, {{"max_depth", 2}});
        const Vector pred = t->predict(iris_test().X);
        std::string got;
        for (Index i = 0; i < pred.size(); ++i) got += std::to_string(static_cast<int>(pred[i]));
        CHECK(got == expected);
        CHECK(t->feature_importances().sum() == doctest::Approx(1.0));
    }

    // scikit-learn 1.2.1, DecisionTreeRegressor(max_depth=m, random_state=rs) on diabetes/train.csv:
    // the same tree for all random_state 0..19 at depths 1-3 (unique splits), so kestrel
    // must find the same tree: R² on the training rows and the test predictions.
    TEST_CASE("tree: agrees with scikit-learn on diabetes (unique splits, depths 1-3)") {
        struct Ref {
            int max_depth, leaves;
            double train_r2, test_pred_sum;
        };
        const Ref refs[] = {{1, 2, 0.304309427656, 13393.2864832536},
                            {2, 4, 0.447267052934, 13475.6143009904},
                            {3, 8, 0.516977070509, 13199.3706911263}};
        const Dataset& d = diabetes_train();
        for (const Ref& r : refs) {
            CAPTURE(r.max_depth);
            auto t = fit_tree(d, {{"max_depth", r.max_depth}});
            CHECK(t->tree().n_leaves() == r.leaves);
            CHECK(r2(t->predict(d.X), d.y) == doctest::Approx(r.train_r2).epsilon(1e-10));
            CHECK(t->predict(diabetes_test().X).sum() == doctest::Approx(r.test_pred_sum).epsilon(1e-12));
        }
        // Depth 2: root f3 (BMI, index 2) <= 26.85, then f9 <= 4.7095 / f3 <= 33.15
        // (scikit-learn's thresholds are float32 midpoints: 26.84999942779541, ...).
        auto t = fit_tree(d, {{"max_depth", 2}});
        const Tree& tr = t->tree();
        CHECK(tr.node(0).feature == 2);
        CHECK(tr.node(0).threshold == doctest::Approx(26.85).epsilon(1e-7));
        CHECK(tr.node(tr.node(0).left).feature == 8);
        CHECK(tr.node(tr.node(0).right).feature == 2);
        const Vector first = t->predict(diabetes_test().X).head(5);
        const double expected[] = {164.66666666666666, 191.10169491525423, 164.66666666666666, 191.10169491525423,
                                   100.5592105263158};
        for (int i = 0; i < 5; ++i) CHECK(first[i] == doctest::Approx(expected[i]).epsilon(1e-13));
    }

    // scikit-learn 1.2.1 on iris/train.csv: DecisionTreeClassifier(max_leaf_nodes=m) gives
    // 3 leaves / train accuracy 0.966667 and 5 / 0.983333; DecisionTreeClassifier(ccp_alpha=a)
    // gives 4 / 0.983333 (a = 0.01 and 0.02) and 3 / 0.966667 (a = 0.05).
    TEST_CASE("tree: best-first growth and cost-complexity pruning agree with scikit-learn on iris") {
        const Dataset& d = iris_train();
        auto b3 = fit_tree(d, {{"max_leaf_nodes", 3}});
        CHECK(b3->tree().n_leaves() == 3);
        CHECK(accuracy(b3->predict(d.X), d.y) == doctest::Approx(0.966667).epsilon(1e-5));
        auto b5 = fit_tree(d, {{"max_leaf_nodes", 5}});
        CHECK(b5->tree().n_leaves() == 5);
        CHECK(accuracy(b5->predict(d.X), d.y) == doctest::Approx(0.983333).epsilon(1e-5));
        const std::pair<double, std::pair<int, double>> ccp[] = {
            {0.01, {4, 0.983333}}, {0.02, {4, 0.983333}}, {0.05, {3, 0.966667}}};
        for (const auto& [alpha, ref] : ccp) {
            CAPTURE(alpha);
            auto t = fit_tree(d, {{"ccp_alpha", alpha}});
            CHECK(t->tree().n_leaves() == ref.first);
            CHECK(accuracy(t->predict(d.X), d.y) == doctest::Approx(ref.second).epsilon(1e-5));
        }
    }

    TEST_CASE("tree: reduced-error pruning never increases the validation error") {
        // Grow on the even rows of diabetes, prune on the odd ones.
        const Dataset& d = diabetes_train();
        Vector grow_w = Vector::Zero(d.rows());
        std::vector<Index> val_rows;
        for (Index i = 0; i < d.rows(); ++i) (i % 2 == 0 ? grow_w[i] = 1 : (val_rows.push_back(i), 0.0));
        const Dataset val = d.subset(val_rows);
        TreeParams p;
        p.criterion = Criterion::variance;
        const TreeGrower grower(d.X, d.y, 0, p, 1);
        Rng rng(1);
        Tree t = grower.build({grow_w.data(), static_cast<std::size_t>(grow_w.size())}, rng);
        const double before = tree_error(t, val.X, val.y, Vector(), false);
        const int leaves_before = t.n_leaves();
        prune_reduced_error(t, val.X, val.y, Vector(), false);
        const double after = tree_error(t, val.X, val.y, Vector(), false);
        CHECK(after <= before);
        CHECK(t.n_leaves() < leaves_before);  // a fully grown regression tree overfits: much is cut

        // Through the estimator, classification: fewer leaves than the unpruned tree, seeded holdout.
        auto full = fit_tree(iris_train(), Params::object());
        auto rep = fit_tree(iris_train(), {{"prune", "reduced_error"}, {"validation_fraction", 0.3}});
        auto rep2 = fit_tree(iris_train(), {{"prune", "reduced_error"}, {"validation_fraction", 0.3}});
        CHECK(rep->tree().n_leaves() < full->tree().n_leaves());
        CHECK(rep->save_state() == rep2->save_state());
        CHECK(accuracy(rep->predict(iris_test().X), iris_test().y) >= 0.9);
    }

    TEST_CASE("tree: predict_proba is the leaf's class frequencies") {
        // x = 1..5, y = (0, 0, 1, 0, 1), max_depth 1: the best gini split is x <= 2.5
        // ({0,0} | {1,0,1}: ⅗ · 4/9 = 0.2667, against x <= 4.5: ⅘ · ⅜ = 0.3 and others),
        // so x = 3 gets (⅓, ⅔).
        DenseMatrix X(5, 1);
        X << 1, 2, 3, 4, 5;
        const Dataset d = tiny(X, Vector{{0.0, 0.0, 1.0, 0.0, 1.0}}, Task::classification);
        auto t = fit_tree(d, {{"max_depth", 1}});
        CHECK(t->tree().node(0).threshold == 2.5);
        const Matrix p = t->predict_proba(d.X);
        CHECK(p(2, 0) == doctest::Approx(1.0 / 3.0));
        CHECK(p(2, 1) == doctest::Approx(2.0 / 3.0));
        CHECK(p(0, 0) == 1.0);
        CHECK(t->predict(d.X)[3] == 1.0);
    }

    TEST_CASE("tree: save/load round trip is bit-identical, sparse input gives the same tree") {
        for (const Dataset* d : {&iris_train(), &diabetes_train()}) {
            auto t = fit_tree(*d, {{"max_depth", 6}, {"max_features", "sqrt"}}, 42);
            const std::string text = t->save_state().dump();
            auto u = make<DecisionTree>(tree_model_info(), {{"max_depth", 6}, {"max_features", "sqrt"}});
            u->load_state(Json::parse(text));
            CHECK(u->save_state().dump() == text);
            CHECK(u->predict(d->X) == t->predict(d->X));
            CHECK(u->report("tree", {d->feature_names, d->classes}) ==
                  t->report("tree", {d->feature_names, d->classes}));

            Dataset sparse = *d;
            sparse.X = Features(SparseMatrix(d->X.dense_ref().sparseView()));
            auto s = fit_tree(sparse, {{"max_depth", 6}, {"max_features", "sqrt"}}, 42);
            CHECK(s->save_state().dump() == text);
            CHECK(s->predict(sparse.X) == t->predict(d->X));
        }
        auto bad = make<DecisionTree>(tree_model_info(), Params::object());
        Json broken = fit_tree(iris_train(), {{"max_depth", 2}})->save_state();
        broken["tree"]["left"][0] = 0;  // the root as its own child
        CHECK_THROWS(bad->load_state(broken));
    }

    TEST_CASE("tree: dump_tree renders features, thresholds and leaf values") {
        DenseMatrix X(4, 2);
        X << 1, 10, 2, 30, 3, 20, 4, 40;
        Dataset d = tiny(X, Vector{{0.0, 0.0, 1.0, 1.0}}, Task::classification);
        d.classes = {"no", "yes"};
        d.feature_names = {"age", "income"};
        auto t = fit_tree(d, Params::object());
        // Two rows each side: missing values go left (ties to the left child).
        CHECK(t->report("tree", {d.feature_names, d.classes}) ==
              "|--- age <= 2.5 or missing\n"
              "|   |--- class: no [2, 0] (samples=2, impurity=0)\n"
              "|--- age >  2.5\n"
              "|   |--- class: yes [0, 2] (samples=2, impurity=0)\n");
        DenseMatrix Xr(4, 1);
        Xr << 1, 2, 3, 4;
        auto r = fit_tree(tiny(Xr, Vector{{1.0, 1.0, 5.0, 7.0}}, Task::regression), {{"max_depth", 1}});
        CHECK(r->report("tree", {{}, {}}) ==
              "|--- x0 <= 2.5 or missing\n"
              "|   |--- value: 1 (samples=2, impurity=0)\n"
              "|--- x0 >  2.5\n"
              "|   |--- value: 6 (samples=2, impurity=1)\n");
    }

    TEST_CASE("tree: bad parameters and data are clear errors") {
        const ModelInfo info = tree_model_info();
        CHECK_THROWS_AS(info.spec.resolve({{"max_depth", -1}}, "tree"), ParamError);
        CHECK_THROWS_AS(info.spec.resolve({{"criterion", "mse"}}, "tree"), ParamError);
        CHECK_THROWS_AS(info.spec.resolve({{"max_features", "half"}}, "tree"), ParamError);
        CHECK_THROWS_AS(info.spec.resolve({{"validation_fraction", 1.0}}, "tree"), ParamError);
        CHECK_THROWS_AS(fit_tree(diabetes_train(), {{"criterion", "gini"}}), ParamError);
        CHECK_THROWS_AS(fit_tree(iris_train(), {{"criterion", "variance"}}), ParamError);
        CHECK_THROWS_AS(fit_tree(iris_train(), {{"max_features", 5}}), ParamError);
        CHECK_THROWS_AS(fit_tree(iris_train(), {{"max_features", 2.5}}), ParamError);
        CHECK_THROWS_AS(fit_tree(iris_train(), {{"max_leaf_nodes", 1}}), ParamError);
        // A dense NaN is a missing value (native_categories_test.cpp); an infinity is an error.
        Dataset inf = iris_train();
        inf.X.dense_mut()(3, 1) = std::numeric_limits<double>::infinity();
        CHECK_THROWS_AS(fit_tree(inf, Params::object()), DataError);
    }

}  // TEST_SUITE

}  // namespace unit_tree_decision_tree_test
}  // namespace
