#include "kestrel/tree/pruning.hpp"

#include <limits>

#include "kestrel/common/row_scatter.hpp"

namespace kestrel {
namespace {

int majority(const Tree& t, int node) {
    const double* v = t.value(node);
    int best = 0;
    for (int c = 1; c < t.n_outputs(); ++c)
        if (v[c] > v[best]) best = c;
    return best;
}

// The error a node makes on one row when it predicts as a leaf.
double node_error(const Tree& t, int node, double y, double w, bool classification) {
    if (classification) return majority(t, node) == static_cast<int>(y) ? 0.0 : w;
    const double r = y - t.value(node)[0];
    return w * r * r;
}

}  // namespace

void prune_cost_complexity(Tree& tree, double alpha) {
    if (alpha <= 0 || tree.size() == 0) return;
    const double root_w = tree.node(0).weight;
    const int m = tree.size();
    std::vector<double> r_branch(static_cast<std::size_t>(m));
    std::vector<int> leaves(static_cast<std::size_t>(m));
    for (;;) {
        // Children have larger indices than their parent: one backward pass sums subtrees.
        int weakest = -1;
        double weakest_g = std::numeric_limits<double>::infinity();
        for (int i = m - 1; i >= 0; --i) {
            const TreeNode& n = tree.node(i);
            const double r_node = n.weight / root_w * n.impurity;
            const auto k = static_cast<std::size_t>(i);
            if (n.is_leaf()) {
                r_branch[k] = r_node;
                leaves[k] = 1;
                continue;
            }
            const auto l = static_cast<std::size_t>(n.left), r = static_cast<std::size_t>(n.right);
            r_branch[k] = r_branch[l] + r_branch[r];
            leaves[k] = leaves[l] + leaves[r];
            const double g = (r_node - r_branch[k]) / (leaves[k] - 1);
            // Ties go to the lower index, i.e. the node nearer the root.
            if (g <= weakest_g) {
                weakest_g = g;
                weakest = i;
            }
        }
        if (weakest < 0 || weakest_g > alpha) break;
        tree.node(weakest).left = tree.node(weakest).right = tree.node(weakest).feature = -1;
    }
    tree.compact();
}

void prune_reduced_error(Tree& tree, const Features& X, const Vector& y, const Vector& weights,
                         bool classification) {
    const int m = tree.size();
    if (m == 0) return;
    std::vector<double> as_leaf(static_cast<std::size_t>(m), 0.0);
    RowScatter rows(X);
    for (Index i = 0; i < X.rows(); ++i) {
        const double* x = rows.row(i);
        const double w = weights.size() ? weights[i] : 1.0;
        int node = 0;
        for (;;) {
            as_leaf[static_cast<std::size_t>(node)] += node_error(tree, node, y[i], w, classification);
            const TreeNode& n = tree.node(node);
            if (n.is_leaf()) break;
            node = x[n.feature] <= n.threshold ? n.left : n.right;
        }
    }
    std::vector<double> subtree(static_cast<std::size_t>(m));
    for (int i = m - 1; i >= 0; --i) {
        const auto k = static_cast<std::size_t>(i);
        TreeNode& n = tree.node(i);
        if (n.is_leaf()) {
            subtree[k] = as_leaf[k];
            continue;
        }
        subtree[k] = subtree[static_cast<std::size_t>(n.left)] + subtree[static_cast<std::size_t>(n.right)];
        if (as_leaf[k] <= subtree[k]) {
            n.left = n.right = n.feature = -1;
            subtree[k] = as_leaf[k];
        }
    }
    tree.compact();
}

double tree_error(const Tree& tree, const Features& X, const Vector& y, const Vector& weights, bool classification) {
    double e = 0;
    RowScatter rows(X);
    for (Index i = 0; i < X.rows(); ++i)
        e += node_error(tree, tree.apply(rows.row(i)), y[i], weights.size() ? weights[i] : 1.0, classification);
    return e;
}

}  // namespace kestrel
