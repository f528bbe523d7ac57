#include <doctest/doctest.h>

#include "kestrel/core/error.hpp"
#include "kestrel/tree/decision_tree.hpp"
#include "kestrel/tree/random_forest.hpp"
#include "tree_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tree_forest_test {

using namespace kestrel;
using namespace kestrel::tree_test;

namespace {

std::unique_ptr<RandomForest> fit_forest(const Dataset& d, const Params& given, int threads = 1,
                                         std::uint64_t seed = 1) {
    auto f = make<RandomForest>(forest_model_info(), given);
    Context ctx;
    ctx.seed = seed;
    ctx.threads = threads;
    f->fit(d, ctx);
    return f;
}

}  // namespace

TEST_SUITE("tree") {
    TEST_CASE("forest: the same forest for 1 and 2 threads; another seed, another forest") {
        for (const Dataset* d : {&iris_train(), &diabetes_train()}) {
            const Params p{{"n_estimators", 12}, {"oob", true}};
            auto one = fit_forest(*d, p, 1);
            auto two = fit_forest(*d, p, 2);
            CHECK(one->save_state().dump() == two->save_state().dump());
            CHECK(one->predict(d->X) == two->predict(d->X));
            auto other = fit_forest(*d, p, 2, 2);
            CHECK(other->save_state().dump() != one->save_state().dump());
        }
    }

    // scikit-learn 1.2.1 (tests/unit/tree/make_references.py), iris/train.csv -> iris/test.csv:
    //   RandomForestClassifier(n_estimators=100, random_state=rs), rs = 0..9: test accuracy
    //   0.9333 (7 seeds) or 0.9667 (3 seeds), mean 0.9433; oob_score_ mean 0.9508 (0.9417..0.9583).
    // diabetes/train.csv -> test.csv: RandomForestRegressor(n_estimators=100, max_features=1/3,
    //   random_state=rs), rs = 0..4: test R² 0.4409..0.4757, mean 0.4598.
    TEST_CASE("forest: accuracy and out-of-bag score as good as scikit-learn's on iris and diabetes") {
        auto f = fit_forest(iris_train(), {{"oob", true}}, 2);
        const double acc = accuracy(f->predict(iris_test().X), iris_test().y);
        MESSAGE("kestrel forest iris test accuracy " << acc << ", oob " << *f->oob_score());
        CHECK(acc >= 0.9433 - 0.035);  // at most one test row worse than scikit-learn's mean
        REQUIRE(f->oob_score().has_value());
        CHECK(*f->oob_score() >= 0.9417 - 0.035);
        CHECK(*f->oob_score() <= 1.0);
        const Matrix proba = f->predict_proba(iris_test().X);
        CHECK((proba.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-12);
        CHECK(f->feature_importances().sum() == doctest::Approx(1.0));
        // Petal length and width (features 3, 4) carry most of the impurity decrease.
        CHECK(f->feature_importances()[2] + f->feature_importances()[3] > 0.7);

        auto r = fit_forest(diabetes_train(), {{"oob", true}}, 2);
        const double r2_test = r2(r->predict(diabetes_test().X), diabetes_test().y);
        MESSAGE("kestrel forest diabetes test R2 " << r2_test << ", oob " << *r->oob_score());
        CHECK(r2_test >= 0.4598 - 0.03);
        CHECK(*r->oob_score() > 0.3);
    }

    TEST_CASE("forest: without bootstrap and feature sampling every tree is the CART tree") {
        const Dataset& d = iris_train();
        auto f = fit_forest(d, {{"n_estimators", 3}, {"bootstrap", false}, {"max_features", "all"}, {"max_depth", 3}});
        auto t = make<DecisionTree>(tree_model_info(), {{"max_depth", 3}});
        t->fit(d, Context{});
        CHECK(f->predict_proba(iris_test().X).isApprox(t->predict_proba(iris_test().X), 1e-15));
        for (const Tree& tree : f->trees())
            CHECK(tree.to_json(TreeLayout::compact) == t->tree().to_json(TreeLayout::compact));
    }

    TEST_CASE("forest: save/load round trip is bit-identical") {
        for (const Dataset* d : {&iris_train(), &diabetes_train()}) {
            auto f = fit_forest(*d, {{"n_estimators", 8}, {"oob", true}, {"max_samples", 0.7}});
            const std::string text = f->save_state().dump();
            auto g = make<RandomForest>(forest_model_info(), Params::object());
            g->load_state(Json::parse(text));
            CHECK(g->save_state().dump() == text);
            CHECK(g->predict(d->X) == f->predict(d->X));
            CHECK(g->oob_score() == f->oob_score());
            CHECK(g->report("tree", {d->feature_names, d->classes}) ==
                  f->report("tree", {d->feature_names, d->classes}));
            CHECK(g->report("tree", {d->feature_names, d->classes}).rfind("tree 7:") != std::string::npos);
            for (const Tree& t : g->trees()) CHECK(!t.has_internal_values());  // as fitted: leaves only
        }
    }

    TEST_CASE("forest: bad parameters are clear errors") {
        const ModelInfo info = forest_model_info();
        CHECK_THROWS_AS(info.spec.resolve({{"n_estimators", 0}}, "forest"), ParamError);
        CHECK_THROWS_AS(info.spec.resolve({{"max_samples", 0.0}}, "forest"), ParamError);
        CHECK_THROWS_AS(info.spec.resolve({{"max_samples", 1.5}}, "forest"), ParamError);
        CHECK_THROWS_AS(fit_forest(iris_train(), {{"oob", true}, {"bootstrap", false}}), ParamError);
        CHECK_THROWS_AS(fit_forest(diabetes_train(), {{"criterion", "entropy"}}), ParamError);
    }


    TEST_CASE("forest: thousands of classes are refused before the trees are grown when they cannot fit") {
        // A label column of ids: 3000 rows, 3000 classes. 1000 trees of up to 3000 leaves,
        // each node holding 3000 class values, would need about 144 GB.
        const Index n = 3000;
        DenseMatrix X(n, 1);
        Vector y(n);
        for (Index i = 0; i < n; ++i) {
            X(i, 0) = static_cast<double>(i);
            y[i] = static_cast<double>(i);
        }
        const Dataset d = tiny(std::move(X), std::move(y), Task::classification, n);
        CHECK_THROWS_WITH_AS(fit_forest(d, {{"n_estimators", 1000}}),
                             doctest::Contains("forest with 1000 trees of up to 3000 leaves holding 3000 class values "
                                               "per node needs about"),
                             DataError);
    }
}  // TEST_SUITE

}  // namespace unit_tree_forest_test
}  // namespace
