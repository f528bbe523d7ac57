// Sparse input: tree, forest and adaboost grow on the sparse matrix itself
// (SparseColumnStore) and must give exactly the trees of the dense path.
#include <doctest/doctest.h>

#include "kestrel/boosting/adaboost.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/tree/decision_tree.hpp"
#include "kestrel/tree/random_forest.hpp"
#include "tree_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tree_sparse_trees_test {

using namespace kestrel;
using namespace kestrel::tree_test;

namespace {

// Rows of mostly zeros with a few negative and positive values (small integers and
// halves, so ties and equal values occur); the label depends on some features.
Dataset sparse_fixture(Task task, Index n = 240, Index d = 12, std::uint64_t seed = 7) {
    Rng rng(seed);
    DenseMatrix X = DenseMatrix::Zero(n, d);
    Vector y(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < d; ++j)
            if (rng.below(10) < 3) X(i, j) = static_cast<double>(static_cast<int>(rng.below(9)) - 3) / 2.0;
        const double s = X(i, 0) - 2 * X(i, 3) + (X(i, 5) > 0 ? 1.5 : 0) + 0.25 * static_cast<double>(rng.below(4));
        y[i] = task == Task::classification ? static_cast<double>(s > 0.5 ? 2 : (s > -0.5 ? 1 : 0)) : s;
    }
    return tiny(std::move(X), std::move(y), task, 3);
}

Dataset as_sparse(const Dataset& d) {
    Dataset s = d;
    s.X = Features(SparseMatrix(d.X.dense_ref().sparseView()));
    return s;
}

template <class M>
std::unique_ptr<M> fit(const ModelInfo& info, const Dataset& d, const Params& p, int threads = 1) {
    auto m = make<M>(info, p);
    Context ctx;
    ctx.seed = 3;
    ctx.threads = threads;
    m->fit(d, ctx);
    return m;
}

}  // namespace

TEST_SUITE("tree") {
    TEST_CASE("sparse: tree grows the dense path's tree (gini, entropy, variance, limits, pruning)") {
        const Dataset dc = sparse_fixture(Task::classification), dr = sparse_fixture(Task::regression);
        const Dataset sc = as_sparse(dc), sr = as_sparse(dr);
        REQUIRE(sc.X.is_sparse());
        const std::vector<std::pair<const Dataset*, Params>> cases = {
            {&dc, {{"criterion", "gini"}}},
            {&dc, {{"criterion", "entropy"}, {"min_samples_leaf", 3}}},
            {&dc, {{"max_features", "sqrt"}, {"max_leaf_nodes", 9}}},
            {&dc, {{"prune", "reduced_error"}, {"max_depth", 6}}},
            {&dr, {{"criterion", "variance"}}},
            {&dr, {{"max_features", 0.5}, {"min_samples_split", 10}, {"ccp_alpha", 0.01}}},
        };
        for (const auto& [dense, p] : cases) {
            CAPTURE(p.dump());
            const Dataset& sparse = dense == &dc ? sc : sr;
            const auto a = fit<DecisionTree>(tree_model_info(), *dense, p);
            const auto b = fit<DecisionTree>(tree_model_info(), sparse, p);
            CHECK(a->tree().size() > 3);
            CHECK(a->tree().to_json() == b->tree().to_json());
            CHECK(a->feature_importances().isApprox(b->feature_importances(), 1e-12));
            // Predictions on sparse rows walk scattered rows, never a densified matrix.
            CHECK(a->predict(dense->X) == b->predict(sparse.X));
            CHECK(b->predict(sparse.X) == b->predict(dense->X));
        }
    }

    TEST_CASE("sparse: forest and adaboost give the dense path's models") {
        const Dataset dc = sparse_fixture(Task::classification), sc = as_sparse(dc);
        const Params fp{{"n_estimators", 8}, {"oob", true}, {"importance", "permutation"}};
        const auto a = fit<RandomForest>(forest_model_info(), dc, fp, 1);
        const auto b = fit<RandomForest>(forest_model_info(), sc, fp, 2);
        REQUIRE(a->trees().size() == b->trees().size());
        for (std::size_t t = 0; t < a->trees().size(); ++t)
            CHECK(a->trees()[t].to_json(TreeLayout::compact) == b->trees()[t].to_json(TreeLayout::compact));
        CHECK(a->predict_proba(dc.X) == b->predict_proba(sc.X));
        CHECK(*a->oob_score() == *b->oob_score());
        CHECK(*a->permutation_importances() == *b->permutation_importances());

        const auto c = fit<AdaBoost>(adaboost_model_info(registry()), dc, {{"n_estimators", 6}});
        const auto e = fit<AdaBoost>(adaboost_model_info(registry()), sc, {{"n_estimators", 6}});
        CHECK(e->supports_sparse());
        CHECK(c->decision_function(dc.X) == e->decision_function(sc.X));
    }

    // The fixture's columns hold at most 9 values: the dense store sorts such a column per
    // node when a node draws at most a third of the columns (from counts when the weights
    // are whole numbers), where the sparse store partitions every column. The trees must
    // be the same. (Weights that are not whole numbers are left out: the sparse store adds
    // a column's zeros as one block, whose rounding differs from the rows one by one.)
    TEST_CASE("sparse: forests drawing few features give the dense path's trees (ranked columns)") {
        const Dataset dc = sparse_fixture(Task::classification), dr = sparse_fixture(Task::regression);
        const Dataset sc = as_sparse(dc), sr = as_sparse(dr);
        const std::vector<std::pair<const Dataset*, Params>> cases = {
            {&dc, {{"n_estimators", 6}, {"max_features", 2}}},                                // counted, gini
            {&dc, {{"n_estimators", 6}, {"max_features", 4}, {"criterion", "entropy"}}},      // counted, entropy
            {&dc, {{"n_estimators", 6}, {"max_features", 1}, {"min_samples_leaf", 4}}},
            {&dr, {{"n_estimators", 6}, {"max_features", 3}}},                                // sorted: variance
        };
        for (const auto& [dense, p] : cases) {
            CAPTURE(p.dump());
            const Dataset& sparse = dense == &dc ? sc : sr;
            const auto a = fit<RandomForest>(forest_model_info(), *dense, p, 1);
            const auto b = fit<RandomForest>(forest_model_info(), sparse, p, 2);
            REQUIRE(a->trees().size() == b->trees().size());
            CHECK(a->trees().front().size() > 9);
            for (std::size_t t = 0; t < a->trees().size(); ++t)
                CHECK(a->trees()[t].to_json(TreeLayout::compact) == b->trees()[t].to_json(TreeLayout::compact));
        }
    }

    TEST_CASE("forest: permutation importance is seeded, thread-count independent and finds the signal") {
        const Dataset d = sparse_fixture(Task::classification, 300, 8, 11);
        const Params p{{"n_estimators", 20}, {"importance", "permutation"}};
        const auto one = fit<RandomForest>(forest_model_info(), d, p, 1);
        const auto two = fit<RandomForest>(forest_model_info(), d, p, 2);
        REQUIRE(one->permutation_importances());
        const Vector& imp = *one->permutation_importances();
        CHECK(imp == *two->permutation_importances());
        // Features 0, 3 and 5 carry the label; 1, 2, 4, 6, 7 are noise.
        for (Index noise : {1, 2, 4, 6, 7}) {
            CHECK(imp[3] > imp[noise]);
            CHECK(imp[0] > imp[noise]);
        }
        CHECK(imp[3] > 0.05);
        CHECK_FALSE(fit<RandomForest>(forest_model_info(), d, {{"n_estimators", 3}})->permutation_importances());
        // Saved and loaded with the model.
        auto back = make<RandomForest>(forest_model_info(), p);
        back->load_state(one->save_state());
        CHECK(*back->permutation_importances() == imp);
        CHECK_THROWS_AS(
            fit<RandomForest>(forest_model_info(), d, {{"importance", "permutation"}, {"bootstrap", false}}),
            ParamError);
    }
}  // TEST_SUITE

}  // namespace unit_tree_sparse_trees_test
}  // namespace
