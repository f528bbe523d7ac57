#include "kestrel/tree/forest_permutation_importance.hpp"

#include <limits>
#include <span>

#include "kestrel/core/error.hpp"
#include "kestrel/core/process_group.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {
namespace {

constexpr std::uint64_t kPermutationStream = 0x7065726d;  // "perm": apart from the trees' own streams

// The tree's walk for row i, reading `value` for feature `f` instead of the row's own:
// predict's walk (Tree::goes_left: category sets, and NaN the way the split learned).
template <class Value>
int leaf_with(const Tree& tree, Index i, Index f, double value, const Value& x) {
    int node = 0;
    while (!tree.node(node).is_leaf()) {
        const TreeNode& n = tree.node(node);
        const double v = n.feature == f ? value : x(i, n.feature);
        node = tree.goes_left(node, v) ? n.left : n.right;
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

// tree_importance on rows spread over ranks (a collective step): each rank holds its
// part of the tree's out-of-bag rows, which in rank order are the whole data's in row
// order. Every rank gathers the out-of-bag values of the features the tree uses (the one
// message), shuffles each feature's whole list as tree_importance does, and walks its own
// rows with its slice of it; the error counts and the rows are then summed over the ranks.
template <class Value>
Vector tree_importance_over_ranks(const Tree& tree, const std::vector<char>& bag, const Value& x, Index d,
                                  const Vector& y, bool classification, std::uint64_t seed) {
    std::vector<Index> oob;
    for (Index i = 0; i < static_cast<Index>(bag.size()); ++i)
        if (!bag[static_cast<std::size_t>(i)]) oob.push_back(i);
    std::vector<Index> used;
    {
        std::vector<char> seen(static_cast<std::size_t>(d), 0);
        for (int k = 0; k < tree.size(); ++k)
            if (!tree.node(k).is_leaf()) seen[static_cast<std::size_t>(tree.node(k).feature)] = 1;
        for (Index f = 0; f < d; ++f)
            if (seen[static_cast<std::size_t>(f)]) used.push_back(f);
    }
    // This rank's out-of-bag values, feature after feature.
    std::vector<double> mine;
    mine.reserve(oob.size() * used.size());
    for (const Index f : used)
        for (const Index i : oob) mine.push_back(x(i, f));
    ProcessGroup* group = process_group();
    if (group == nullptr) throw InternalError("forest: rows spread over ranks, but this run has no process group");
    std::vector<std::vector<double>> parts;  // per rank: its values, feature after feature
    if (!used.empty()) parts = share_numbers_with_all(*group, mine);
    std::size_t before = 0, m = 0;  // out-of-bag rows of the ranks before this one; of all
    for (std::size_t r = 0; r < parts.size(); ++r) {
        const std::size_t rows = parts[r].size() / used.size();
        if (static_cast<int>(r) < group->rank()) before += rows;
        m += rows;
    }
    // Per rank: its base error, then its error with each used feature permuted.
    std::vector<double> errors(1 + used.size(), 0.0);
    for (const Index i : oob) errors[0] += leaf_error(tree, leaf_with(tree, i, -1, 0.0, x), y[i], classification);
    std::vector<double> values(m);
    for (std::size_t u = 0; u < used.size(); ++u) {
        std::size_t at = 0;
        for (const auto& part : parts) {
            const std::size_t rows = part.size() / used.size();
            std::copy_n(part.begin() + static_cast<std::ptrdiff_t>(u * rows), rows, values.begin() + static_cast<std::ptrdiff_t>(at));
            at += rows;
        }
        const Index f = used[u];
        Rng rng(derive_seed(seed, static_cast<std::uint64_t>(f)));
        rng.shuffle(std::span<double>(values));
        for (std::size_t r = 0; r < oob.size(); ++r)
            errors[1 + u] += leaf_error(tree, leaf_with(tree, oob[r], f, values[before + r], x), y[oob[r]], classification);
    }
    std::vector<double> rows{static_cast<double>(oob.size())};
    errors.insert(errors.begin(), rows.begin(), rows.end());
    allreduce_sum(*group, std::span<double>(errors));
    Vector out = Vector::Zero(d);
    const double total = errors[0];
    if (total == 0) return out;
    const double base = errors[1] / total;
    for (std::size_t u = 0; u < used.size(); ++u) out[used[u]] = errors[2 + u] / total - base;
    return out;
}

// The importances of every tree, d features: with_values(walk) calls walk with the rows'
// value accessor x(i, f).
template <class WithValues>
Vector importance_of_trees(const std::vector<Tree>& trees, const std::vector<std::vector<char>>& in_bag, Index d,
                           const Vector& y, bool classification, std::uint64_t seed, int threads, bool rows_sharded,
                           const WithValues& with_values) {
    const auto n_trees = static_cast<Index>(trees.size());
    std::vector<Vector> per_tree(trees.size());
    const std::uint64_t base_seed = derive_seed(seed, kPermutationStream);
    const auto one_tree = [&](Index t) {
        const auto k = static_cast<std::size_t>(t);
        const std::uint64_t tree_seed = derive_seed(base_seed, static_cast<std::uint64_t>(t));
        with_values([&](const auto& x) {
            per_tree[k] = rows_sharded ? tree_importance_over_ranks(trees[k], in_bag[k], x, d, y, classification, tree_seed)
                                       : tree_importance(trees[k], in_bag[k], x, d, y, classification, tree_seed);
        });
    };
    if (rows_sharded) {  // one tree after another: the messages in the same order on every rank
        for (Index t = 0; t < n_trees; ++t) one_tree(t);
    } else {
#pragma omp parallel for schedule(dynamic) num_threads(std::max(1, threads))
        for (Index t = 0; t < n_trees; ++t) one_tree(t);
    }
    Vector sum = Vector::Zero(d);
    for (const Vector& v : per_tree) sum += v;  // in tree order: the same for any thread count
    return n_trees > 0 ? Vector(sum / static_cast<double>(n_trees)) : sum;
}

}  // namespace

Vector oob_permutation_importance(const std::vector<Tree>& trees, const std::vector<std::vector<char>>& in_bag,
                                  const Features& X, const Vector& y, bool classification, std::uint64_t seed,
                                  int threads, bool rows_sharded) {
    return importance_of_trees(trees, in_bag, X.cols(), y, classification, seed, threads, rows_sharded,
                               [&](const auto& walk) {
                                   if (X.is_sparse()) {
                                       const SparseMatrix& S = X.sparse_ref();
                                       walk([&](Index i, Index f) { return S.coeff(i, f); });
                                   } else {
                                       const DenseView D = X.dense_ref();
                                       walk([&](Index i, Index f) { return D(i, f); });
                                   }
                               });
}

Vector oob_permutation_importance(const std::vector<Tree>& trees, const std::vector<std::vector<char>>& in_bag,
                                  const QuantizedTable& store, const Vector& y, bool classification,
                                  std::uint64_t seed, int threads) {
    const BinCuts& cuts = store.cuts();
    const BinnedMatrix& bins = store.bins();
    return importance_of_trees(trees, in_bag, bins.cols(), y, classification, seed, threads, false,
                               [&](const auto& walk) {
                                   walk([&](Index i, Index f) {
                                       const int b = bins.bin(f, i);
                                       return b == cuts.missing_bin(f) ? std::numeric_limits<double>::quiet_NaN()
                                                                       : cuts.upper(f, b);
                                   });
                               });
}

}  // namespace kestrel
