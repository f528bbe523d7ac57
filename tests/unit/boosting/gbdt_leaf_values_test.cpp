// A grown tree's leaf values added to the raw scores (kestrel/boosting/leaf_values.hpp): a
// range of rows a thread, not a leaf a thread; each row gets its leaf's value once, the same
// scores bit for bit as the leaves one after the other, on any thread count, for every row or
// a sample of them, with one raw score or several a row.
#include "kestrel/boosting/leaf_values.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <utility>
#include <vector>

#include "kestrel/boosting/gbdt_tree_learner.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_leaf_values_test {

using namespace kestrel;

namespace {

Features table(Index n, Index d, std::uint64_t seed) {
    Rng rng(seed);
    DenseMatrix X(n, d);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < d; ++j) X(i, j) = rng.normal();
    return Features(std::move(X));
}

// The leaves one after the other, each adding its value to its rows' scores.
void leaf_by_leaf(const GrownTree& g, std::span<const int> grouped, double* F, Index K) {
    for (std::size_t l = 0; l < g.leaves.size(); ++l)
        for (Index k = g.leaf_begin[l]; k < g.leaf_end[l]; ++k)
            F[static_cast<std::size_t>(grouped[static_cast<std::size_t>(k)]) * static_cast<std::size_t>(K)] +=
                g.tree.value(g.leaves[l])[0];
}

}  // namespace

TEST_SUITE("gbdt") {
    TEST_CASE("gbdt leaf values: a range of rows a thread gives each row its leaf's value, as leaf by leaf") {
        const Index n = 5003, d = 4, K = 3;
        const Features X = table(n, d, 21);
        const BinCuts cuts = BinCuts::fit(X, {}, 32, 1, 1);
        const BinnedMatrix bins(cuts, X, {}, 1);
        Rng rng(4);
        std::vector<GradPair> gh(static_cast<std::size_t>(n));
        for (GradPair& p : gh) p = {static_cast<float>(rng.normal()), 1.0f};
        std::vector<int> sample;
        for (Index i = 0; i < n; ++i)
            if (rng.uniform() < 0.7) sample.push_back(static_cast<int>(i));
        HistTreeParams tp;
        tp.max_depth = 5;
        tp.learning_rate = 0.3;
        const std::vector<int> features = {0, 1, 2, 3};
        for (const bool all_rows : {true, false}) {
            HistTreeLearner learner(bins, cuts, tp, 1);
            const GrownTree g =
                all_rows ? learner.grow_all(gh.data(), features) : learner.grow(sample, gh.data(), features);
            REQUIRE(g.leaves.size() > 8);
            std::vector<double> start(static_cast<std::size_t>(n * K));
            for (double& f : start) f = rng.normal();
            std::vector<double> want = start;
            leaf_by_leaf(g, learner.rows(), want.data() + 1, K);
            for (const int threads : {1, 2, 3}) {
                std::vector<double> got = start;
                add_leaf_values(g, learner.rows(), got.data() + 1, K, n, threads);
                CHECK(std::memcmp(got.data(), want.data(), want.size() * sizeof(double)) == 0);
            }
        }
    }
}

}  // namespace unit_boosting_gbdt_leaf_values_test
}  // namespace
