// kestrel-auto's bagged models (docs/auto.md, "Bagging"): a candidate's fold models are the
// models its cross-validation scored (each predicts its fold's held-out rows exactly as the
// search's out-of-fold predictions), the saved bag predicts their equal-weight average, and
// out-of-fold predictions never saw their rows: a tree that memorizes its training rows
// scores them perfectly, but not the rows held out from it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "auto_tables.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/model_selection/auto_search.hpp"
#include "kestrel/model_selection/fold_models.hpp"
#include "kestrel/tasks/auto_task.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_auto_bag_test {

using namespace kestrel;
using test::wave;

namespace {

// Labels drawn at random, independent of the 3 features: nothing generalizes, so an honest
// out-of-fold accuracy is near 1/2 while a tree grown to single rows fits its training
// rows perfectly (the features are distinct reals, so every row can be isolated).
Dataset coin_flips(Index n) {
    Rng rng(17);
    Dataset d;
    DenseMatrix X(n, 3);
    d.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < 3; ++j) X(i, j) = rng.uniform();
        d.y[i] = rng.below(2) == 1 ? 1 : 0;
    }
    d.X = Features(std::move(X));
    d.task = Task::classification;
    d.classes = {"heads", "tails"};
    d.feature_names = {"a", "b", "c"};
    return d;
}


Context context(int threads) {
    Context c;
    c.threads = threads;
    c.seed = 11;
    return c;
}

AutoOptions options(const std::string& metric, const std::vector<std::string>& models, int max_evals) {
    AutoOptions o;
    o.metric = metric;
    o.models = models;
    o.max_evals = max_evals;
    o.split.k = 4;
    o.confirm_leaders = 0;
    o.ensemble_size = 5;  // keeps the candidates' out-of-fold predictions
    o.ensemble_nbest = 50;
    return o;
}

}  // namespace

TEST_SUITE("tasks.auto_bag") {
    TEST_CASE("fold models are the models the search scored: each gives its fold's out-of-fold predictions exactly") {
        const Dataset d = coin_flips(240);
        const AutoResult r = auto_search(d, options("accuracy", {"tree", "logistic"}, 4), context(2));
        REQUIRE(r.folds.size() == 4);
        for (const AutoCandidate& c : r.leaderboard) {
            CAPTURE(c.order);
            REQUIRE(c.oof.size() == 4);
            const std::vector<Model> bag = fit_fold_models(d, r.folds, c.spec, context(1), c.model);
            REQUIRE(bag.size() == 4);
            for (std::size_t k = 0; k < 4; ++k) {
                const Features test_X = d.X.rows_subset(r.folds[k].test);
                const Matrix p = bag[k].predict_proba(test_X);
                REQUIRE(p.rows() == c.oof[k].proba.rows());
                CHECK((p - c.oof[k].proba).cwiseAbs().maxCoeff() == 0.0);
            }
        }
    }

    TEST_CASE("out-of-fold predictions never saw their rows: a memorizing tree is perfect on its rows, not on the folds") {
        const Dataset d = coin_flips(240);
        AutoOptions o = options("accuracy", {"tree"}, 1);  // the defaults: grown until leaves are pure
        const AutoResult r = auto_search(d, o, context(1));
        const AutoCandidate& tree = r.best();
        REQUIRE(tree.point.empty());
        // Honest: about a coin's 1/2 on the held-out rows, nowhere near the training fit.
        CHECK(tree.score.mean < 0.62);
        CHECK(tree.score.mean > 0.38);
        const std::vector<Model> bag = fit_fold_models(d, r.folds, tree.spec, context(1), "tree");
        for (std::size_t k = 0; k < bag.size(); ++k) {
            const Dataset train = d.subset(r.folds[k].train);
            const Vector fitted = bag[k].predict(train.X);
            Index right = 0;
            for (Index i = 0; i < train.rows(); ++i) right += fitted[i] == train.y[i] ? 1 : 0;
            CHECK(right == train.rows());  // each fold model memorized its own rows
            // ...and never had its fold's test rows: none of them is among its training rows.
            for (Index row : r.folds[k].test)
                CHECK(!std::binary_search(r.folds[k].train.begin(), r.folds[k].train.end(), row));
        }
    }

    TEST_CASE("the bag predicts the equal-weight average of the fold models, the same at 1 and 2 threads") {
        const Dataset d = wave(200);
        const AutoResult r = auto_search(d, options("r2", {"tree", "ridge"}, 3), context(1));
        const AutoCandidate& best = r.best();
        const Model bag1 = auto_bag(r, best, d, context(1));
        const Model bag2 = auto_bag(r, best, d, context(2));
        CHECK(bag1.to_json().dump() == bag2.to_json().dump());
        REQUIRE(bag1.ensemble_members() != nullptr);
        REQUIRE(bag1.ensemble_members()->size() == 4);
        for (const auto& m : *bag1.ensemble_members()) CHECK(m.weight == 0.25);
        const std::vector<Model> folds = fit_fold_models(d, r.folds, best.spec, context(1), best.model);
        const Vector got = bag1.predict(d.X);
        Vector expected = Vector::Zero(d.rows());
        for (const Model& m : folds) expected += 0.25 * m.predict(d.X);
        CHECK((got - expected).cwiseAbs().maxCoeff() <= 1e-12);
        // An average of four models fitted on different rows is none of them.
        CHECK((got - folds[0].predict(d.X)).cwiseAbs().maxCoeff() > 1e-6);
        // What the saved file holds: bagged unless --refit-full, or a classifier without probabilities.
        CHECK(auto_bags(r, false, false));
        CHECK(!auto_bags(r, false, true));
    }
}

}  // namespace unit_tasks_auto_bag_test
}  // namespace
