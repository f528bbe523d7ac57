// common/tree_walk: on random trees (unbalanced, lone leaves, thresholds at ±0, ±inf and
// ties x == threshold, NaN with either missing direction, depths below, at and past the
// vector path's level tables) every row reaches the leaf Tree::apply finds, on every
// vector path this CPU runs and whatever the size of the groups walked in lockstep; and
// the forest's precomputed leaf outputs add what add_tree_output adds, bit for bit.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kestrel/common/simd.hpp"
#include "kestrel/common/tree.hpp"
#include "kestrel/common/tree_walk.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/tree/decision_tree.hpp"
#include "kestrel/tree/leaf_outputs.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_common_tree_walk_test {

using namespace kestrel;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Values a row or a threshold takes: few, so that rows tie with thresholds often.
double pick_value(Rng& rng, bool allow_nan) {
    static const double values[] = {-1.5, -0.0, 0.0, 0.25, 1.0, 3.0, kInf, -kInf};
    if (allow_nan && rng.uniform() < 0.15) return kNaN;
    return values[rng.below(rng.uniform() < 0.9 ? 6 : 8)];
}

// Every vector path this CPU runs (the tree walk differs on AVX-512: its level tables).
std::vector<SimdPath> walk_paths() {
    std::vector<SimdPath> out{SimdPath::generic};
    for (SimdPath p : {SimdPath::avx2, SimdPath::avx512}) {
        if (simd_supported(p)) out.push_back(p);
        else MESSAGE("this CPU cannot run the " << to_string(p) << " path: not checked");
    }
    return out;
}

// Grows node i's subtree: a split with probability `split` (less deep down), to at most
// max_depth; leaves hold k class counts (or one value).
void grow(Tree& tree, int i, int depth, int max_depth, Index d, Rng& rng) {
    const double split = depth == 0 ? 0.95 : 0.75;
    if (depth >= max_depth || rng.uniform() > split) return;
    TreeNode& n = tree.node(i);
    n.feature = static_cast<int>(rng.below(static_cast<std::uint64_t>(d)));
    n.threshold = pick_value(rng, false);
    n.missing_left = rng.uniform() < 0.5;
    std::vector<double> v(static_cast<std::size_t>(tree.n_outputs()));
    for (double& c : v) c = static_cast<double>(rng.below(4));
    const int l = tree.add_node(TreeNode{}, v.data());
    for (double& c : v) c = static_cast<double>(rng.below(4));
    const int r = tree.add_node(TreeNode{}, v.data());
    tree.node(i).left = l;
    tree.node(i).right = r;
    grow(tree, l, depth + 1, max_depth, d, rng);
    grow(tree, r, depth + 1, max_depth, d, rng);
}

Tree random_tree(Index d, Index k, int max_depth, Rng& rng) {
    Tree tree(d, k);
    std::vector<double> v(static_cast<std::size_t>(k), 1.0);
    tree.add_node(TreeNode{}, v.data());
    grow(tree, 0, 0, max_depth, d, rng);
    // A leaf's weight is the sum of its class counts, as grown.
    for (int i = 0; i < tree.size(); ++i) {
        double w = 0;
        for (Index c = 0; c < k; ++c) w += tree.value(i)[c];
        tree.node(i).weight = w;
    }
    return tree;
}

const Index kGroups[] = {1, 3, 8, 64};

}  // namespace

TEST_SUITE("unit") {
    TEST_CASE("tree walk: a hand-made tree's leaves, ties and NaN by the missing direction") {
        // Root: x0 <= 0 (NaN right), its left child x1 <= 0.25 (NaN left).
        Tree tree(2, 1);
        const double v[] = {0.0, 1.0, 2.0, 3.0, 4.0};
        tree.add_node(TreeNode{}, &v[0]);
        tree.node(0).feature = 0;
        tree.node(0).threshold = 0.0;
        tree.node(0).left = tree.add_node(TreeNode{}, &v[1]);
        tree.node(0).right = tree.add_node(TreeNode{}, &v[2]);
        tree.node(1).feature = 1;
        tree.node(1).threshold = 0.25;
        tree.node(1).missing_left = true;
        tree.node(1).left = tree.add_node(TreeNode{}, &v[3]);
        tree.node(1).right = tree.add_node(TreeNode{}, &v[4]);
        const std::vector<Tree> trees{tree};
        const TreeWalk walk(trees, true);
        // Rows and the node each reaches: -0 <= 0 and 0.25 <= 0.25 go left; NaN at the root
        // goes right, at node 1 left.
        const std::vector<double> x{-0.0, 0.25, 0.0, 0.5, kNaN, 0.0, -3.0, kNaN, 1.0, kNaN, 0.0, 0.2500001};
        const std::vector<int> want{3, 4, 2, 3, 2, 4};
        for (SimdPath path : walk_paths()) {
            CAPTURE(to_string(path));
            for (Index group : kGroups) {
                CAPTURE(group);
                std::vector<std::int32_t> at(want.size());
                walk.leaves(0, x.data(), 2, static_cast<Index>(want.size()), at.data(), group, simd_loops(path));
                for (std::size_t r = 0; r < want.size(); ++r) CHECK(walk.node(at[r]) == want[r]);
            }
        }
    }

    TEST_CASE("tree walk: a tree with categorical splits is never walked (issue 51)") {
        // Such a tree has no level tables; a gbdt file whose tree carried category arrays
        // was walked anyway, and the AVX-512 path read past the tables (ASan: heap-buffer-
        // overflow in TreeWalk::table). Its family routes it; the walk refuses it on every path.
        Tree tree(2, 1);
        const double v[] = {0.0, 1.0, 2.0};
        tree.add_node(TreeNode{}, &v[0]);
        tree.node(0).feature = 0;
        tree.node(0).left = tree.add_node(TreeNode{}, &v[1]);
        tree.node(0).right = tree.add_node(TreeNode{}, &v[2]);
        const int left_codes[] = {1};
        tree.set_categories(0, 3, left_codes);
        const std::vector<Tree> trees{tree};
        const TreeWalk walk(trees, true);
        CHECK_FALSE(walk.numeric(0));
        CHECK(walk.levels(0).depth == 0);
        const std::vector<double> x{1.0, 0.0};
        for (SimdPath path : walk_paths()) {
            CAPTURE(to_string(path));
            std::int32_t at = -1;
            CHECK_THROWS_AS(walk.leaves(0, x.data(), 2, 1, &at, 8, simd_loops(path)), InternalError);
        }
    }

    TEST_CASE("tree walk: every row reaches Tree::apply's leaf on random trees, on every path, in groups of any size") {
        Rng rng(41);
        const Index d = 5;
        std::vector<Tree> trees;
        // Depths 1 to 8 (within, at and past the vector path's kWalkLevels levels) and deep ones.
        for (int t = 0; t < 90; ++t) trees.push_back(random_tree(d, 1, t % 3 == 0 ? 1 + (t / 3) % 8 : 14, rng));
        trees.push_back(Tree(d, 1));  // a lone leaf
        const double zero = 0.0;
        trees.back().add_node(TreeNode{}, &zero);
        // With the level tables (which only the AVX-512 path reads) and without (where every
        // path walks the portable way).
        const TreeWalk walk(trees, true), plain(trees, false);
        // Both ways of walking: shallow trees (depth <= 8) to their depth, deeper ones in
        // groups that stop when no row moves.
        // And on AVX-512 trees within the first tier of level tables, as deep as it, deeper
        // (walked on by the lockstep walk, or with 256 rows or more by the second tier),
        // and deeper than both tiers.
        int depth_zero = 0, shallow = 0, deep = 0, within = 0, at_tables = 0, past = 0, past_tiers = 0;
        for (const Tree& tree : trees) {
            depth_zero += tree.depth() == 0;
            shallow += tree.depth() > 0 && tree.depth() <= 8;
            deep += tree.depth() > 8;
            within += tree.depth() > 0 && tree.depth() < kWalkLevels;
            at_tables += tree.depth() == kWalkLevels;
            past += tree.depth() > kWalkLevels && tree.depth() <= 8;
            past_tiers += tree.depth() > 2 * kWalkLevels;
        }
        CHECK(depth_zero >= 1);
        CHECK(shallow >= 10);
        CHECK(deep >= 10);
        CHECK(within >= 5);
        CHECK(at_tables >= 1);
        CHECK(past >= 1);
        CHECK(past_tiers >= 5);
        // Row counts around the groups of eight, and one long block.
        // (256 and more: the second tier; 1100: past the AVX-512 walk's chunk of 512 rows.)
        const std::vector<SimdPath> paths = walk_paths();
        for (Index n : {1, 7, 8, 9, 16, 23, 255, 256, 300, 1100}) {
            CAPTURE(n);
            // The row stride wider than the features, as a block of a wider table would be.
            const Index stride = d + 2;
            std::vector<double> x(static_cast<std::size_t>(n * stride));
            for (double& c : x) c = pick_value(rng, true);
            for (std::size_t t = 0; t < trees.size(); ++t) {
                std::vector<int> want(static_cast<std::size_t>(n));
                for (Index r = 0; r < n; ++r) want[static_cast<std::size_t>(r)] = trees[t].apply(x.data() + r * stride);
                for (SimdPath path : paths) {
                    CAPTURE(to_string(path));
                    for (Index group : kGroups) {
                        CAPTURE(group);
                        // One guard entry past the rows: a path must not write beyond n.
                        std::vector<std::int32_t> at(static_cast<std::size_t>(n) + 1, -1);
                        walk.leaves(t, x.data(), stride, n, at.data(), group, simd_loops(path));
                        int wrong = 0;
                        for (Index r = 0; r < n; ++r) {
                            const std::int32_t w = at[static_cast<std::size_t>(r)];
                            wrong += !(w >= walk.begin(t) && w < walk.begin(t + 1) &&
                                       walk.node(w) == want[static_cast<std::size_t>(r)]);
                        }
                        CHECK(wrong == 0);
                        CHECK(at.back() == -1);
                        if (group != 8) continue;
                        std::vector<std::int32_t> untabled(static_cast<std::size_t>(n) + 1, -1);
                        plain.leaves(t, x.data(), stride, n, untabled.data(), group, simd_loops(path));
                        CHECK(untabled == at);
                    }
                }
            }
        }
    }

    TEST_CASE("tree walk: walk indices map back to the tree's nodes, children side by side") {
        Rng rng(5);
        std::vector<Tree> trees{random_tree(3, 1, 6, rng), random_tree(3, 1, 6, rng)};
        const TreeWalk walk(trees);
        CHECK(walk.size() == trees[0].size() + trees[1].size());
        for (std::size_t t = 0; t < trees.size(); ++t) {
            CHECK(walk.node(walk.begin(t)) == 0);
            for (int i = 0; i < trees[t].size(); ++i) {
                CHECK(walk.node(walk.index(t, i)) == i);
                const TreeNode& n = trees[t].node(i);
                if (!n.is_leaf()) CHECK(walk.index(t, n.right) == walk.index(t, n.left) + 1);
            }
        }
    }

    TEST_CASE("leaf outputs: a leaf's class probabilities once, the same bits as add_tree_output") {
        // Hand-made: a leaf with counts {1, 0, 2} adds 1/3 and 2/3 and nothing to class 1.
        Tree tree(1, 3);
        const double counts[] = {1.0, 0.0, 2.0};
        tree.add_node(TreeNode{}, counts);
        tree.node(0).weight = 3.0;
        const std::vector<Tree> one{tree};
        const TreeWalk w1(one);
        const LeafOutputs o1(one, w1);
        double out[3] = {0.5, 0.5, 0.5};
        o1.add(w1.index(0, 0), out);
        CHECK(out[0] == 0.5 + 1.0 / 3.0);
        CHECK(out[1] == 0.5);
        CHECK(out[2] == 0.5 + 2.0 / 3.0);

        // Random classification trees: the sums over all trees, in order, bit for bit.
        Rng rng(17);
        std::vector<Tree> trees;
        for (int t = 0; t < 20; ++t) trees.push_back(random_tree(4, 5, 8, rng));
        const TreeWalk walk(trees);
        const LeafOutputs outputs(trees, walk);
        for (int row = 0; row < 50; ++row) {
            std::vector<double> x(4);
            for (double& c : x) c = pick_value(rng, true);
            std::vector<double> want(5, 0.0), got(5, 0.0);
            for (std::size_t t = 0; t < trees.size(); ++t) {
                add_tree_output(trees[t], x.data(), want.data());
                outputs.add(walk.index(t, trees[t].apply(x.data())), got.data());
            }
            for (std::size_t c = 0; c < 5; ++c) CHECK(std::bit_cast<std::uint64_t>(got[c]) == std::bit_cast<std::uint64_t>(want[c]));
        }
    }
}

}  // namespace unit_common_tree_walk_test
}  // namespace
