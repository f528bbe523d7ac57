// The forest's histogram mode (tree_method=hist, the forest that trains on shards;
// docs/models/forest.md, "On shards") in one process: its per-row bootstrap draw, a tree
// worked by hand, thread independence, save/load, its accuracy next to the exact forest and
// its out-of-bag results.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/tree/hist_forest.hpp"
#include "kestrel/tree/random_forest.hpp"
#include "kestrel/tree/row_bagging.hpp"
#include "tree_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tree_hist_forest_test {

using namespace kestrel;
using namespace kestrel::tree_test;

namespace {

std::unique_ptr<RandomForest> fit_hist_forest(const Dataset& d, Params given, int threads = 1) {
    given["tree_method"] = "hist";
    auto f = make<RandomForest>(forest_model_info(), given);
    Context ctx;
    ctx.seed = 1;
    ctx.threads = threads;
    f->fit(d, ctx);
    return f;
}

// n rows of 4 uniform features; each row's class from label(row, rng).
template <class Label>
Dataset four_uniform_features(Index n, Index n_classes, std::uint64_t seed, Label label) {
    DenseMatrix X(n, 4);
    Vector y(n);
    Rng rng(seed);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < 4; ++j) X(i, j) = rng.uniform();
        y[i] = label(X.row(i), rng);
    }
    return tiny(std::move(X), std::move(y), Task::classification, n_classes);
}

}  // namespace

TEST_SUITE("tree") {
    TEST_CASE("hist forest: the per-row draw is a function of (seed, row) with the Poisson(f) or Bernoulli(f) law") {
        CHECK(row_bag_count(7, 12345, 1.0, true) == row_bag_count(7, 12345, 1.0, true));
        const Index n = 200000;
        for (const double f : {1.0, 0.5}) {
            CAPTURE(f);
            double sum = 0, zeros = 0, twos = 0;
            bool differs_by_seed = false;
            for (Index g = 0; g < n; ++g) {
                const double k = row_bag_count(42, g, f, true);
                REQUIRE(k == std::floor(k));
                sum += k;
                zeros += k == 0;
                twos += k == 2;
                differs_by_seed |= k != row_bag_count(43, g, f, true);
            }
            CHECK(differs_by_seed);
            // Poisson(f): mean f (sd of the mean √(f/n) <= 0.0023), P(0) = e^−f, P(2) = f² e^−f / 2.
            CHECK(std::abs(sum / n - f) < 0.01);
            CHECK(std::abs(zeros / n - std::exp(-f)) < 0.005);
            CHECK(std::abs(twos / n - f * f * std::exp(-f) / 2) < 0.005);
        }
        double kept = 0;
        for (Index g = 0; g < n; ++g) {
            const double k = row_bag_count(5, g, 0.3, false);
            REQUIRE((k == 0 || k == 1));
            kept += k;
        }
        CHECK(std::abs(kept / n - 0.3) < 0.005);
        for (Index g = 0; g < 1000; ++g) CHECK(row_bag_count(5, g, 1.0, false) == 1);
    }

    TEST_CASE("hist forest: a stump worked by hand, thresholds at the bins' upper edges") {
        // x0 = 1, 2, 3, 4 (four distinct values: one bin each, edges at the midpoints), x1
        // constant; classes 0, 0, 1, 1. Every row, every feature: the split is x0 <= 2.5.
        DenseMatrix X(4, 2);
        X << 1, 7, 2, 7, 3, 7, 4, 7;
        Vector y(4);
        y << 0, 0, 1, 1;
        const Dataset d = tiny(std::move(X), std::move(y), Task::classification);
        auto f = fit_hist_forest(d, {{"n_estimators", 2}, {"bootstrap", false}, {"max_features", "all"}});
        for (const Tree& t : f->trees()) {
            REQUIRE(t.size() == 3);
            CHECK(t.node(0).feature == 0);
            CHECK(t.node(0).threshold == 2.5);
            const TreeNode& l = t.node(t.node(0).left);
            const TreeNode& r = t.node(t.node(0).right);
            CHECK(t.value(t.node(0).left)[0] == 2);
            CHECK(t.value(t.node(0).left)[1] == 0);
            CHECK(t.value(t.node(0).right)[1] == 2);
            CHECK(l.samples == 2);
            CHECK(r.samples == 2);
        }
        CHECK(f->feature_importances()[0] == 1.0);
        CHECK(f->feature_importances()[1] == 0.0);
        // A missing x0 goes where the heavier child is (ties left), as in the exact forest.
        DenseMatrix Q(1, 2);
        Q << std::nan(""), 7;
        CHECK(f->predict(Features(Q))[0] == 0);
    }

    TEST_CASE("hist forest: the same forest for 1 and 2 threads, and a bit-identical save/load") {
        for (const Dataset* d : {&iris_train(), &diabetes_train()}) {
            const Params p{{"n_estimators", 10}, {"max_samples", 0.8}};
            auto one = fit_hist_forest(*d, p, 1);
            auto two = fit_hist_forest(*d, p, 2);
            const std::string text = one->save_state().dump();
            CHECK(text == two->save_state().dump());
            auto g = make<RandomForest>(forest_model_info(), Params{{"tree_method", "hist"}});
            g->load_state(Json::parse(text));
            CHECK(g->save_state().dump() == text);
            CHECK(g->predict(d->X) == one->predict(d->X));
        }
    }

    TEST_CASE("hist forest: levels large enough for several threads give the one-thread forest") {
        // 40000 rows x 4 features, every row in every tree: the histograms (rows x features)
        // and the partition (rows) pass the one-thread threshold of 2^15.
        const Dataset d = four_uniform_features(40000, 2, 3, [](const auto& x, Rng& rng) {
            return x[0] + (x[1] - 0.5) * (x[2] - 0.5) + 0.1 * rng.normal() > 0.5 ? 1.0 : 0.0;
        });
        const Params p{{"n_estimators", 2}, {"bootstrap", false}, {"max_features", "all"}, {"max_depth", 6}};
        CHECK(fit_hist_forest(d, p, 1)->save_state().dump() == fit_hist_forest(d, p, 2)->save_state().dump());
    }

    TEST_CASE("hist forest: levels summed in pieces give the trees of levels summed whole") {
        // 2000 rows, 5 random classes, 255 bins: a node's histograms are 4 x 256 x 6 numbers,
        // more than a piece of 4096, so with that piece size every node of every level
        // is summed on its own; with the default piece (2^22) a level goes whole.
        const Dataset d = four_uniform_features(2000, 5, 11, [](const auto&, Rng& rng) {
            return static_cast<double>(rng.below(5));
        });
        HistForestSetup s;
        s.n_classes = 5;
        s.tree.max_features = 2;
        s.n_trees = 3;
        s.seed = 4;
        const Vector w = Vector::Ones(d.rows());
        const HistForest whole = grow_hist_forest(d.X, d.y, w, s);
        s.piece_cells = 4096;
        const HistForest pieces = grow_hist_forest(d.X, d.y, w, s);
        REQUIRE(pieces.trees.size() == 3);
        for (std::size_t t = 0; t < 3; ++t) {
            CHECK(pieces.trees[t].n_leaves() > 300);  // random labels: a deep, wide tree
            CHECK(pieces.trees[t].to_json(TreeLayout::compact) == whole.trees[t].to_json(TreeLayout::compact));
            CHECK(pieces.importance[t] == whole.importance[t]);
        }
    }

    // Measured at this commit (seed 1, 100 trees): iris test accuracy exact 0.9667, hist 0.9667;
    // diabetes test R² exact 0.4397, hist 0.4551.
    TEST_CASE("hist forest: accuracy within 2 points of the exact forest on iris and diabetes") {
        auto exact = make<RandomForest>(forest_model_info(), Params::object());
        Context ctx;
        ctx.seed = 1;
        exact->fit(iris_train(), ctx);
        const double acc_exact = accuracy(exact->predict(iris_test().X), iris_test().y);
        const double acc_hist = accuracy(fit_hist_forest(iris_train(), {})->predict(iris_test().X), iris_test().y);
        MESSAGE("iris test accuracy: exact " << acc_exact << ", hist " << acc_hist);
        CHECK(acc_hist >= acc_exact - 0.02);
        exact->fit(diabetes_train(), ctx);
        const double r2_exact = r2(exact->predict(diabetes_test().X), diabetes_test().y);
        const double r2_hist = r2(fit_hist_forest(diabetes_train(), {})->predict(diabetes_test().X), diabetes_test().y);
        MESSAGE("diabetes test R2: exact " << r2_exact << ", hist " << r2_hist);
        CHECK(r2_hist >= r2_exact - 0.02);
    }

    // The exact forest's out-of-bag accuracy on iris is 0.95 (forest_test.cpp; scikit-learn's
    // 0.9417..0.9583); the histogram forest's out-of-bag rows are those with a count of 0.
    TEST_CASE("hist forest: out-of-bag accuracy and permutation importances from the per-row draw") {
        auto f = fit_hist_forest(iris_train(), {{"oob", true}, {"importance", "permutation"}}, 2);
        REQUIRE(f->oob_score().has_value());
        MESSAGE("hist forest iris out-of-bag accuracy " << *f->oob_score());
        CHECK(*f->oob_score() >= 0.9417 - 0.035);
        CHECK(*f->oob_score() <= 1.0);
        REQUIRE(f->permutation_importances().has_value());
        const Vector& perm = *f->permutation_importances();
        // Petal length and width carry the classes: permuting either costs more than the sepals.
        CHECK(std::min(perm[2], perm[3]) > std::max(perm[0], perm[1]));
        auto again = fit_hist_forest(iris_train(), {{"oob", true}, {"importance", "permutation"}}, 1);
        CHECK(*again->oob_score() == *f->oob_score());
        CHECK(*again->permutation_importances() == perm);
    }

    TEST_CASE("hist forest: what it does not do is a parameter error") {
        CHECK_THROWS_AS(fit_hist_forest(iris_train(), {{"max_leaf_nodes", 8}}), ParamError);
        // No row is out of the sample without the bootstrap and with max_samples = 1.
        CHECK_THROWS_AS(fit_hist_forest(iris_train(), {{"oob", true}, {"bootstrap", false}}), ParamError);
    }
}

}  // namespace unit_tree_hist_forest_test
}  // namespace
