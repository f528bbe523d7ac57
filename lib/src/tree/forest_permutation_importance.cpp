#include "kestrel/tree/forest_permutation_importance.hpp"

#include "kestrel/core/rng.hpp"

namespace kestrel {
namespace {

constexpr std::uint64_t kPermutationStream = 0x7065726d;  // "perm": apart from the trees' own streams

// The tree's walk for row i, reading `value` for feature `f` instead of the row's own.
template <class Value>
int leaf_with(const Tree& tree, Index i, Index f, double value, const Value& x) {
    int node = 0;
    while (!tree.node(node).is_leaf()) {
        const TreeNode& n = tree.node(node);
        const double v = n.feature == f ? value : x(i, n.feature);
        node = v <= n.threshold ? n.left : n.right;
    }
    return node;
}

double leaf_error(const Tree& tree, int leaf, double y, bool classification) {
    const double* v = tree.value(leaf);
    if (!classification) return (v[0] - y) * (v[0] - y);
    Index best = 0;  // ties to the lowest class, as predict
    for (Index c = 1; c < tree.n_outputs(); ++c)
        if (v[c] > v[best]) best = c;
    return best == static_cast<Index>(y) ? 0.0 : 1.0;
}

template <class Value>
Vector tree_importance(const Tree& tree, const std::vector<char>& bag, const Value& x, Index d, const Vector& y,
                       bool classification, std::uint64_t seed) {
    Vector out = Vector::Zero(d);
    std::vector<Index> oob;
    for (Index i = 0; i < static_cast<Index>(bag.size()); ++i)
        if (!bag[static_cast<std::size_t>(i)]) oob.push_back(i);
    if (oob.empty()) return out;
    std::vector<char> used(static_cast<std::size_t>(d), 0);
    for (int k = 0; k < tree.size(); ++k)
        if (!tree.node(k).is_leaf()) used[static_cast<std::size_t>(tree.node(k).feature)] = 1;
    const auto m = static_cast<double>(oob.size());
    double base = 0;
    for (Index i : oob) base += leaf_error(tree, leaf_with(tree, i, -1, 0.0, x), y[i], classification);
    base /= m;
    std::vector<double> values(oob.size());
    for (Index f = 0; f < d; ++f) {
        if (!used[static_cast<std::size_t>(f)]) continue;  // permuting it changes nothing
        for (std::size_t r = 0; r < oob.size(); ++r) values[r] = x(oob[r], f);
        Rng rng(derive_seed(seed, static_cast<std::uint64_t>(f)));
        rng.shuffle(values);
        double e = 0;
        for (std::size_t r = 0; r < oob.size(); ++r)
            e += leaf_error(tree, leaf_with(tree, oob[r], f, values[r], x), y[oob[r]], classification);
        out[f] = e / m - base;
    }
    return out;
}

}  // namespace

Vector oob_permutation_importance(const std::vector<Tree>& trees, const std::vector<std::vector<char>>& in_bag,
                                  const Features& X, const Vector& y, bool classification, std::uint64_t seed,
                                  int threads) {
    const Index d = X.cols();
    const auto n_trees = static_cast<Index>(trees.size());
    std::vector<Vector> per_tree(trees.size());
    const std::uint64_t base_seed = derive_seed(seed, kPermutationStream);
#pragma omp parallel for schedule(dynamic) num_threads(std::max(1, threads))
    for (Index t = 0; t < n_trees; ++t) {
        const auto k = static_cast<std::size_t>(t);
        const std::uint64_t tree_seed = derive_seed(base_seed, static_cast<std::uint64_t>(t));
        if (X.is_sparse()) {
            const SparseMatrix& S = X.sparse_ref();
            per_tree[k] = tree_importance(
                trees[k], in_bag[k], [&](Index i, Index f) { return S.coeff(i, f); }, d, y, classification, tree_seed);
        } else {
            const DenseMatrix& D = X.dense_ref();
            per_tree[k] = tree_importance(
                trees[k], in_bag[k], [&](Index i, Index f) { return D(i, f); }, d, y, classification, tree_seed);
        }
    }
    Vector sum = Vector::Zero(d);
    for (const Vector& v : per_tree) sum += v;  // in tree order: the same for any thread count
    return n_trees > 0 ? Vector(sum / static_cast<double>(n_trees)) : sum;
}

}  // namespace kestrel
