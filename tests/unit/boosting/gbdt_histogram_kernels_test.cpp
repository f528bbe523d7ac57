// gbdt's histogram kernel (kestrel/boosting/histogram_kernels.hpp): a feature's cells are the
// same sums, bit for bit, whichever features share its pass, and so the learner, which groups
// a node's features by the thread and node counts, grows the same trees on any thread count.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "kestrel/boosting/gbdt_tree_learner.hpp"
#include "kestrel/boosting/histogram_kernels.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_histogram_kernels_test {

using namespace kestrel;

namespace {

// n rows of d features; feature j has distinct values enough for its max bins, a few (j % 3
// == 1: three values, the repeated bins two chains are for) or NaNs (j % 3 == 2).
Features features(Index n, Index d, std::uint64_t seed) {
    Rng rng(seed);
    DenseMatrix X(n, d);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < d; ++j) {
            const double x = rng.normal();
            X(i, j) = j % 3 == 1 ? std::floor(x) : (j % 3 == 2 && rng.uniform() < 0.1 ? std::nan("") : x);
        }
    return Features(std::move(X));
}

std::vector<GradPair> gradients(Index n, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<GradPair> gh(static_cast<std::size_t>(n));
    for (GradPair& p : gh) p = {static_cast<float>(rng.normal()), static_cast<float>(0.1 + rng.uniform())};
    return gh;
}

bool same_bits(const std::vector<BinStat>& a, const std::vector<BinStat>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(BinStat)) == 0;
}

void require_same_tree(const GrownTree& a, const GrownTree& b) {
    REQUIRE(a.tree.size() == b.tree.size());
    for (int i = 0; i < a.tree.size(); ++i) {
        const TreeNode& x = a.tree.node(i);
        const TreeNode& y = b.tree.node(i);
        CHECK(x.feature == y.feature);
        CHECK(x.left == y.left);
        CHECK(x.missing_left == y.missing_left);
        CHECK(std::memcmp(&x.threshold, &y.threshold, sizeof(double)) == 0);
        CHECK(std::memcmp(&x.impurity, &y.impurity, sizeof(double)) == 0);
        CHECK(std::memcmp(&x.weight, &y.weight, sizeof(double)) == 0);
        CHECK(x.samples == y.samples);
        if (x.is_leaf()) CHECK(std::memcmp(a.tree.value(i), b.tree.value(i), sizeof(double)) == 0);
    }
    CHECK(a.leaf_begin == b.leaf_begin);
    CHECK(a.leaf_end == b.leaf_end);
}

}  // namespace

TEST_SUITE("gbdt") {
    TEST_CASE("gbdt histograms: a feature's cells are the same sums in a pass of one to four features") {
        const Index n = 3001, d = 7;
        const Features X = features(n, d, 3);
        const BinCuts cuts = BinCuts::fit(X, {}, 64, 1, 1);
        const BinnedMatrix bins(cuts, X, {}, 1);
        REQUIRE_FALSE(bins.wide());
        const std::vector<GradPair> gh = gradients(n, 5);
        // A node's rows: a scattered subset (odd and even counts), its gradient pairs in its order.
        Rng rng(9);
        std::vector<int> rows;
        for (Index i = 0; i < n; ++i)
            if (rng.uniform() < 0.4) rows.push_back(static_cast<int>(i));
        const auto listed = [&rows](Index k) { return rows[static_cast<std::size_t>(k)]; };
        const auto cells = [&](Index f) { return cuts.n_bins(f) + 1; };
        // Features first .. first + count − 1 in one pass into hist.
        const auto pass = [&](std::vector<BinStat>& hist, const std::vector<GradPair>& ordered, Index first, int count,
                              Index m, bool two) {
            std::vector<std::vector<BinStat>> spare(static_cast<std::size_t>(count));
            BlockColumns<std::uint8_t> c{};
            for (int q = 0; q < count; ++q) {
                const Index f = first + q;
                spare[static_cast<std::size_t>(q)].resize(static_cast<std::size_t>(cells(f)));
                c.col[q] = bins.column8(f);
                c.hist[q] = hist.data() + cuts.offset(f);
                c.spare[q] = spare[static_cast<std::size_t>(q)].data();
                c.cells[q] = cells(f);
            }
            accumulate_block(c, count, listed, ordered.data(), 0, m, two);
        };
        for (const std::size_t count : {rows.size(), rows.size() - 1, std::size_t{7}, std::size_t{1}})
            for (const bool two : {false, true}) {
                std::vector<GradPair> ordered(count);
                for (std::size_t k = 0; k < count; ++k) ordered[k] = gh[static_cast<std::size_t>(rows[k])];
                const auto m = static_cast<Index>(count);
                std::vector<BinStat> alone(static_cast<std::size_t>(cuts.total_cells()));
                for (Index f = 0; f < d; ++f) pass(alone, ordered, f, 1, m, two);
                for (const int width : {2, 3, 4}) {
                    std::vector<BinStat> grouped(alone.size());
                    for (Index f = 0; f < d; f += width)
                        pass(grouped, ordered, f, static_cast<int>(std::min<Index>(width, d - f)), m, two);
                    CHECK(same_bits(alone, grouped));
                }
            }
    }

    TEST_CASE("gbdt histograms: the learner grows the same trees on 1, 2 and 3 threads") {
        const Index n = 70000, d = 10;  // a root shared by two threads (its histograms and partition)
        const Features X = features(n, d, 17);
        const BinCuts cuts = BinCuts::fit(X, {}, 255, 1, 1);
        const BinnedMatrix bins(cuts, X, {}, 1);
        const std::vector<GradPair> gh = gradients(n, 23);
        std::vector<int> all(static_cast<std::size_t>(n)), some;
        std::iota(all.begin(), all.end(), 0);
        for (Index i = 0; i < n; i += 3) some.push_back(static_cast<int>(i));
        std::vector<int> every(static_cast<std::size_t>(d)), few{0, 2, 5, 6, 9};
        std::iota(every.begin(), every.end(), 0);
        HistTreeParams depth;
        depth.max_depth = 6;
        HistTreeParams leaves;
        leaves.max_depth = 0;
        leaves.max_leaves = 20;
        HistTreeParams monotone;
        monotone.monotone = {1, 0, -1, 0, 0, 0, 0, 0, 0, 0};
        for (const HistTreeParams& p : {depth, leaves, monotone})
            for (const auto* rows : {&all, &some})
                for (const auto* feats : {&every, &few}) {
                    HistTreeLearner one(bins, cuts, p, 1);
                    const GrownTree a = one.grow(*rows, gh.data(), *feats);
                    REQUIRE(a.tree.size() > 1);
                    for (const int threads : {2, 3}) {
                        HistTreeLearner more(bins, cuts, p, threads);
                        const GrownTree b = more.grow(*rows, gh.data(), *feats);
                        require_same_tree(a, b);
                        CHECK(std::equal(one.rows().begin(), one.rows().end(), more.rows().begin()));
                    }
                }
    }
}

}  // namespace unit_boosting_gbdt_histogram_kernels_test
}  // namespace
