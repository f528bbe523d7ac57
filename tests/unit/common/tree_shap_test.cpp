// TreeSHAP (common/tree_shap.hpp) against the Shapley values by definition: every subset
// S of the features, its path-dependent value v(S) = E[f | x_S] by a cover-weighted walk
// (both children of a split on a feature outside S, the row's child otherwise), and
// φ_j = Σ_S |S|!(M−|S|−1)!/M! (v(S ∪ {j}) − v(S)).
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "command_error.hpp"
#include "kestrel/common/tree_shap.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_common_tree_shap_test {

using namespace kestrel;

namespace {

struct RandomTree {
    Tree tree;
    std::vector<double> cover, values;
};

// A random tree over d features (features repeat along paths, so that TreeSHAP's
// unwinding is exercised), k outputs, random covers and values, random missing sides.
RandomTree random_tree(Rng& rng, Index d, Index k, int max_depth) {
    RandomTree r{Tree(d, k), {}, {}};
    std::vector<double> value(static_cast<std::size_t>(k), 0.0);
    const std::function<int(int)> grow = [&](int depth) -> int {
        TreeNode n;
        const bool split = depth < max_depth && (depth < 2 || rng.uniform() < 0.7);
        for (auto& v : value) v = 4 * rng.uniform() - 2;
        if (split) {
            n.feature = static_cast<int>(rng.below(static_cast<std::uint64_t>(d)));
            n.threshold = 2 * rng.uniform() - 1;
            n.missing_left = rng.uniform() < 0.5;
        }
        const int i = r.tree.add_node(n, value.data());
        r.cover.push_back(0.5 + 3 * rng.uniform());
        if (split) {
            const int left = grow(depth + 1);
            const int right = grow(depth + 1);
            r.tree.node(i).left = left;
            r.tree.node(i).right = right;
        }
        return i;
    };
    grow(0);
    for (int i = 0; i < r.tree.size(); ++i)
        for (Index o = 0; o < k; ++o) r.values.push_back(r.tree.value(i)[o]);
    return r;
}

// v(S) for output o: the walk that knows the features in `known` (a bit mask).
double value_of(const RandomTree& r, const double* row, unsigned known, Index o, int node = 0) {
    const TreeNode& n = r.tree.node(node);
    if (n.is_leaf()) return r.values[static_cast<std::size_t>(node * r.tree.n_outputs() + o)];
    if (known & (1u << n.feature))
        return value_of(r, row, known, o, n.sends_left(row[n.feature]) ? n.left : n.right);
    const double cl = r.cover[static_cast<std::size_t>(n.left)], cr = r.cover[static_cast<std::size_t>(n.right)];
    return (cl * value_of(r, row, known, o, n.left) + cr * value_of(r, row, known, o, n.right)) / (cl + cr);
}

std::vector<double> brute_force(const RandomTree& r, const double* row) {
    const auto d = static_cast<unsigned>(r.tree.n_features());
    const Index k = r.tree.n_outputs();
    std::vector<double> phi(static_cast<std::size_t>(k * (d + 1)), 0.0);
    std::vector<double> factorial(d + 1, 1.0);
    for (unsigned i = 1; i <= d; ++i) factorial[i] = factorial[i - 1] * i;
    for (Index o = 0; o < k; ++o) {
        for (unsigned j = 0; j < d; ++j)
            for (unsigned s = 0; s < (1u << d); ++s) {
                if (s & (1u << j)) continue;
                const auto size = static_cast<unsigned>(__builtin_popcount(s));
                const double w = factorial[size] * factorial[d - size - 1] / factorial[d];
                phi[o * (d + 1) + j] += w * (value_of(r, row, s | (1u << j), o) - value_of(r, row, s, o));
            }
        phi[o * (d + 1) + d] = value_of(r, row, 0, o);
    }
    return phi;
}

// A stump over d features: x0 <= 0 to a leaf of value 1, else to one of value 5.
Tree stump(Index d) {
    Tree t(d, 1);
    TreeNode root;
    root.feature = 0;
    const double v0 = 0, v1 = 1, v5 = 5;
    t.add_node(root, &v0);
    t.node(0).left = t.add_node(TreeNode{}, &v1);
    t.node(0).right = t.add_node(TreeNode{}, &v5);
    return t;
}

}  // namespace

TEST_CASE("TreeSHAP equals the Shapley values by subset enumeration on random small trees") {
    Rng rng(2018);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int trial = 0; trial < 60; ++trial) {
        const Index d = 1 + static_cast<Index>(rng.below(5)), k = 1 + static_cast<Index>(rng.below(3));
        const RandomTree r = random_tree(rng, d, k, 1 + static_cast<int>(rng.below(6)));
        const TreeExplainer shap(r.tree, r.cover, r.values);
        for (int row_trial = 0; row_trial < 8; ++row_trial) {
            std::vector<double> row(static_cast<std::size_t>(d));
            for (auto& x : row) x = rng.uniform() < 0.15 ? nan : 2.4 * rng.uniform() - 1.2;
            std::vector<double> phi(static_cast<std::size_t>(k * (d + 1)), 0.0);
            shap.add(row.data(), phi.data());
            const std::vector<double> expected = brute_force(r, row.data());
            const int leaf = r.tree.apply(row.data());
            for (Index o = 0; o < k; ++o) {
                double sum = 0;
                for (Index j = 0; j <= d; ++j) {
                    CAPTURE(trial);
                    CAPTURE(j);
                    CHECK(phi[static_cast<std::size_t>(o * (d + 1) + j)] ==
                          doctest::Approx(expected[static_cast<std::size_t>(o * (d + 1) + j)]).epsilon(1e-12));
                    CHECK(std::abs(phi[static_cast<std::size_t>(o * (d + 1) + j)] -
                                   expected[static_cast<std::size_t>(o * (d + 1) + j)]) < 1e-12);
                    sum += phi[static_cast<std::size_t>(o * (d + 1) + j)];
                }
                // Additivity: the contributions and the bias sum to the leaf's output.
                CHECK(std::abs(sum - r.values[static_cast<std::size_t>(leaf * k + o)]) < 1e-12);
            }
        }
    }
}

TEST_CASE("TreeSHAP by hand: a stump and a tree splitting the same feature twice") {
    // Stump on x0 <= 0: covers 3 (left, value 1) and 1 (right, value 5). Bias = (3+5)/4 = 2;
    // a row going left gets 1 - 2 = -1 on x0, one going right 5 - 2 = 3.
    const Tree t = stump(2);
    const TreeExplainer stump(t, {4, 3, 1}, {0, 1, 5});
    CHECK(stump.expected()[0] == 2);
    const double left_row[] = {-1, 7}, right_row[] = {1, 7};
    std::vector<double> phi(3, 0.0);
    stump.add(left_row, phi.data());
    CHECK(phi == std::vector<double>{-1, 0, 2});
    phi.assign(3, 0.0);
    stump.add(right_row, phi.data());
    CHECK(phi == std::vector<double>{3, 0, 2});
}

TEST_CASE("TreeSHAP follows a given route and cover-free splits") {
    // The route sends every row right: the contribution is the right leaf's minus the bias.
    const Tree t = stump(1);
    const TreeExplainer routed(t, {2, 1, 1}, {0, 1, 5}, [](int, const double*) { return false; });
    const double row[] = {-10};
    std::vector<double> phi(2, 0.0);
    routed.add(row, phi.data());
    CHECK(phi == std::vector<double>{2, 3});
    // Zero covers: both children count half.
    const TreeExplainer zero(t, {0, 0, 0}, {0, 1, 5});
    phi.assign(2, 0.0);
    zero.add(row, phi.data());
    CHECK(phi == std::vector<double>{-2, 3});
    // A child without cover: the expectation is the other child's value.
    const TreeExplainer one_sided(t, {1, 1, 0}, {0, 1, 5});
    phi.assign(2, 0.0);
    const double right_row[] = {10};
    one_sided.add(right_row, phi.data());
    CHECK(phi == std::vector<double>{4, 1});
}

// Issue 51: a tree read from a model file may be deep. A chain tree (each split's left
// child a leaf) over few features needs a path buffer linear in its depth, explains like
// any tree, and past kMaxTreeShapDepth is refused before a row is explained.
TEST_CASE("TreeSHAP on chain trees: deep trees explain, deeper than the limit are refused") {
    const auto chain = [](int levels, Index d) {
        Tree t(d, 1);
        const double leaf = 1.0, zero = 0.0;
        std::vector<double> cover;
        int prev = -1;
        for (int k = 0; k < levels; ++k) {
            TreeNode n;
            n.feature = k % static_cast<int>(d);
            n.threshold = 0.5;
            const int i = t.add_node(n, &zero);
            cover.push_back(static_cast<double>(levels - k + 1));
            if (prev >= 0) t.node(prev).right = i;
            const int l = t.add_node(TreeNode{}, &leaf);
            cover.push_back(1.0);
            t.node(i).left = l;
            prev = i;
        }
        const int last = t.add_node(TreeNode{}, &zero);
        cover.push_back(1.0);
        t.node(prev).right = last;
        return std::make_pair(t, cover);
    };
    const auto [deep, deep_cover] = chain(3000, 3);
    CHECK(deep.depth() == 3000);
    std::vector<double> values;
    for (int i = 0; i < deep.size(); ++i) values.push_back(deep.value(i)[0]);
    const TreeExplainer e(deep, deep_cover, values);
    const std::vector<double> row{1.0, 1.0, 1.0};  // > 0.5: right at every split, the last leaf (0)
    std::vector<double> phi(4, 0.0);
    e.add(row.data(), phi.data());
    CHECK(phi[0] + phi[1] + phi[2] + phi[3] == doctest::Approx(0.0).epsilon(1e-9));
    CHECK(phi[3] == doctest::Approx(e.expected()[0]));

    const auto [too_deep, too_deep_cover] = chain(TreeExplainer::kMaxTreeShapDepth + 1, 3);
    std::vector<double> v2(static_cast<std::size_t>(too_deep.size()), 0.0);
    CHECK_COMMAND_THROWS_WITH_AS(TreeExplainer(too_deep, too_deep_cover, v2),
                         "--contrib: a tree 8193 levels deep is deeper than TreeSHAP's 8192 levels", DataError);
}

// An exception raised while explaining rows (in the parallel region) reaches the caller
// instead of ending the process (std::terminate, SIGABRT before issue 51).
TEST_CASE("contributions_by_row carries an exception out of its parallel region") {
    DenseMatrix X = DenseMatrix::Zero(1000, 2);
    X(700, 0) = 1;
    CHECK_THROWS_WITH_AS(contributions_by_row(Features(X), 3, 0.0,
                                              [](const double* row, double*) {
                                                  if (row[0] == 1) throw DataError("row 701 failed");
                                              }),
                         "row 701 failed", DataError);
}

}  // namespace unit_common_tree_shap_test
}  // namespace
