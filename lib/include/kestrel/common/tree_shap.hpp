#pragma once
// Exact Shapley values of one tree's output (TreeSHAP, Lundberg, Erion & Lee 2018,
// "Consistent individualized feature attribution for tree ensembles", Algorithm 2):
// the path-dependent value function v(S) = E[f(x) | x_S], where the expectation
// follows both children of a split on a feature outside S, weighted by the children's
// covers (the training weight that reached them). It is what XGBoost's
// pred_contribs=True, LightGBM's pred_contrib and shap's
// TreeExplainer(feature_perturbation="tree_path_dependent") compute. Cost per row and
// tree: O(L·D²) for L leaves and depth D. The tree, forest and gbdt models share it.
#include <cstdint>
#include <functional>
#include <vector>

#include "kestrel/common/tree.hpp"
#include "kestrel/core/estimator.hpp"

namespace kestrel {

// Whether a row goes left at internal node `node` (a model with its own splits, gbdt's
// category sets); by default the tree's own rule (TreeNode::sends_left).
using TreeRoute = std::function<bool(int node, const double* row)>;

class TreeExplainer {
public:
    // The deepest tree explained: the walk recurses once per level (docs/explanations.md).
    static constexpr int kMaxTreeShapDepth = 8192;
    // Throws DataError for a tree deeper than kMaxTreeShapDepth or whose per-thread path
    // buffers exceed the memory available (both before any row is explained).
    // `cover`: per node, its training weight; only the ratio of a child's cover to the sum
    // of its parent's two children's is used (both children get ½ when that sum is 0).
    // `leaf_values`: per node, n_outputs numbers (only the leaves' are read): what the
    // tree outputs for a row reaching that leaf. `route`: empty for the tree's own rule.
    TreeExplainer(const Tree& tree, std::vector<double> cover, std::vector<double> leaf_values,
                  TreeRoute route = {});

    Index n_outputs() const { return n_outputs_; }
    // Per output, the cover-weighted mean of the leaf values: the tree's expected output
    // (the bias).
    const std::vector<double>& expected() const { return expected_; }
    // Adds the row's Shapley values to phi, laid out per output o as n_features values
    // then the bias: phi[o·(n_features+1) + j], the bias at j = n_features. For every
    // output, the added values sum to the tree's output for the row.
    void add(const double* row, double* phi) const;

private:
    struct PathElement {
        int feature;
        double zero, one, weight;
    };
    void recurse(int node, const double* row, double* phi, PathElement* path, int length, double zero, double one,
                 int feature) const;
    double fraction(int parent, int child) const;
    bool goes_left(int node, const double* row) const;

    const Tree& tree_;
    std::vector<double> cover_, values_;
    TreeRoute route_;
    std::uint64_t path_bytes() const;  // one thread's path buffer

    Index n_outputs_ = 1;
    int depth_ = 0;
    std::uint64_t path_elements_ = 1;  // one thread's path buffer, in elements
    std::vector<double> expected_;
};

// The contributions of every row of X, `width` numbers each (zeroed, then given to
// `add_row` with the row's n_features values; a sparse row's absent entries read as
// `absent`). Rows in parallel: a row's numbers do not depend on the thread count.
Matrix contributions_by_row(const Features& X, Index width, double absent,
                            const std::function<void(const double* row, double* phi)>& add_row);

// Per node, the sum of the covers of the leaves below it, from the leaves' `leaf_cover`
// (a forest's compact trees keep their leaves' statistics only).
std::vector<double> covers_from_leaves(const Tree& tree, const std::function<double(int leaf)>& leaf_cover);

}  // namespace kestrel
