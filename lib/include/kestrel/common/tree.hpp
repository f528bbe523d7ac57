#pragma once
// A fitted binary decision tree: the learned state shared by `tree`, `forest` and the
// boosting models. Node 0 is the root; an internal node sends a row left when
// x[feature] <= threshold. A grown tree keeps every node's value (not only the
// leaves'), so that pruning can turn any subtree into a leaf:
// classification: the weighted class counts (probabilities are their normalisation);
// regression: the weighted mean of the targets. A forest keeps only its leaves' values
// (leaf_values_only): prediction, the dump and --explain read no other.
// A split on a categorical feature sends a set of category codes left instead (see
// set_categories). A missing value (NaN), and at a categorical split any code outside
// the set's 0..k-1 (kUnknownCategory: a category unseen in training), goes where the
// node's missing_left says: the default direction learned by the tree models and gbdt.
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/json_text.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

struct TreeNode {      // 48 bytes: the integers first, so that no padding sits between the fields
    int feature = -1;  // -1 for a leaf
    int left = -1, right = -1;
    bool missing_left = false;  // where NaN goes; saved only by trees that use it
    double threshold = 0;       // left when x <= threshold
    double impurity = 0;        // of the training rows reaching the node
    double weight = 0;          // their total sample weight
    Index samples = 0;          // their number (distinct rows; bootstrap copies count once)
    bool is_leaf() const { return left < 0; }
    // Whether a row whose split feature is x goes left at a numeric split (NaN: where
    // missing_left says); Tree::goes_left covers categorical splits too.
    bool sends_left(double x) const { return x <= threshold || (missing_left && std::isnan(x)); }
};

// How a tree's nodes are saved (the arrays are listed in docs/models/forest.md).
// full: every node's statistics and value (the `tree` and `gbdt` states, and forest
// state version 1). compact (forest state version 2): what a loaded model reads: each
// split's feature, threshold and children, each leaf's value, impurity and samples,
// class counts sparse, numbers in their shortest form. A tree read from it has zero
// impurity, weight and samples at its internal nodes; a leaf's weight is the sum of
// its class counts (as grown), or 0 for a one-output tree. boosted (gbdt state version
// 3): the compact layout of a one-output tree with what boosting reads besides: every
// node's weight (its Hessian sum, TreeSHAP's cover) and each split's impurity (its gain,
// the feature importances), without the leaves' impurity.
enum class TreeLayout { full, compact, boosted };

class Tree {
public:
    Tree() = default;
    Tree(Index n_features, Index n_outputs) : n_features_(n_features), n_outputs_(n_outputs) {}

    // Appends a node with its value (n_outputs numbers); returns its index. Not in a
    // copy from leaf_values_only().
    int add_node(const TreeNode& node, const double* value);
    TreeNode& node(int i) { return nodes_[static_cast<std::size_t>(i)]; }
    const TreeNode& node(int i) const { return nodes_[static_cast<std::size_t>(i)]; }
    // Node i's value (n_outputs numbers); only a leaf's in a tree without internal
    // values (leaf_values_only, or read from the compact layout).
    const double* value(int i) const { return values_.data() + value_row(i) * static_cast<std::size_t>(n_outputs_); }
    double* value(int i) { return values_.data() + value_row(i) * static_cast<std::size_t>(n_outputs_); }
    int size() const { return static_cast<int>(nodes_.size()); }
    Index n_features() const { return n_features_; }
    Index n_outputs() const { return n_outputs_; }  // k classes, or 1 for regression

    // The leaf a row (n_features values) falls into.
    int apply(const double* row) const;
    // Whether split node i sends the value x of its feature left: the one routing rule
    // of every tree (numeric threshold, category set, missing direction).
    bool goes_left(int i, double x) const;

    // Makes split node i a categorical split over k categories sending the codes `left`
    // left (its threshold is then unused).
    void set_categories(int i, Index k, std::span<const int> left);
    bool has_categories() const { return !cat_offset_.empty(); }
    bool is_categorical(int i) const { return has_categories() && cat_offset_[static_cast<std::size_t>(i)] >= 0; }
    Index category_count(int i) const;             // k of a categorical split
    std::vector<int> left_categories(int i) const;  // its left codes, ascending
    int n_leaves() const;
    int depth() const;  // edges on the longest root-to-leaf path; 0 for a lone leaf
    // Calls visit(i) for every split i reachable from the root, children before parents
    // (an explicit post-order: a loaded tree's children need not come after their parent).
    template <class Visit>
    void for_each_split_children_first(Visit&& visit) const {
        if (nodes_.empty()) return;
        std::vector<std::pair<int, bool>> stack{{0, false}};
        while (!stack.empty()) {
            const auto [i, children_done] = stack.back();
            stack.pop_back();
            const TreeNode& n = node(i);
            if (n.is_leaf()) continue;
            if (children_done) {
                visit(i);
                continue;
            }
            stack.emplace_back(i, true);
            stack.emplace_back(n.left, false);
            stack.emplace_back(n.right, false);
        }
    }

    // Σ over the splits on each feature of W_t·I_t − W_L·I_L − W_R·I_R (not normalised);
    // zeros for a tree read from the compact layout, which keeps no such statistics.
    Vector impurity_decrease_by_feature() const;

    // Keeps only the nodes reachable from the root (after pruning), renumbered in
    // depth-first order, left before right. Needs every node's value.
    void compact();
    // Releases the spare capacity of the node arrays (of a grown tree that is kept).
    void shrink_to_fit() {
        nodes_.shrink_to_fit();
        values_.shrink_to_fit();
    }
    // Empties the tree for growing it again, keeping its arrays' capacity.
    void reset(Index n_features, Index n_outputs);
    // A copy without the internal nodes' values (over half of a classification forest's
    // memory) and without spare capacity; its value() serves leaves only.
    Tree leaf_values_only() const;
    bool has_internal_values() const { return leaf_row_.empty(); }

    // The compact layout needs only the leaves' values; full needs every node's.
    Json to_json(TreeLayout layout = TreeLayout::full) const;
    // The text model_json_text writes for to_json(layout) at nesting level `depth`,
    // written straight from the nodes (a forest's file without a DOM of its nodes).
    void write_json_text(std::string& out, int depth, TreeLayout layout = TreeLayout::full) const;
    // Whether every number of the nodes is finite (JSON cannot hold the others).
    bool all_finite() const;
    // Validates structure (children in range, acyclic, features in range) and values;
    // throws std::runtime_error naming what is wrong. Reads the node arrays as JSON
    // arrays, or packed by parse_model_json (core/json_packed.hpp). A compact tree
    // keeps its leaves' values only. `category_limits` (Estimator::declared_categories):
    // per feature, the most categories a categorical split on it may have (0: none), checked
    // before a split's set is allocated; null: only the cap of 2^30.
    static Tree from_json(const Json& j, Index n_features, Index n_outputs, TreeLayout layout = TreeLayout::full,
                          const std::vector<Index>* category_limits = nullptr);

private:
    static Tree from_full_json(const Json& j, Index n_features, Index n_outputs);
    static Tree from_compact_json(const Json& j, Index n_features, Index n_outputs, bool boosted);
    // The optional categorical splits of either layout (category_limits: as from_json's).
    void read_categories(const Json& j, const std::vector<Index>* category_limits);
    std::size_t value_row(int i) const {
        return static_cast<std::size_t>(leaf_row_.empty() ? i : leaf_row_[static_cast<std::size_t>(i)]);
    }

    Index n_features_ = 0, n_outputs_ = 0;
    std::vector<TreeNode> nodes_;
    std::vector<double> values_;  // value rows x n_outputs, row-major
    std::vector<int> leaf_row_;   // empty: node i's value is row i; else a leaf's row (-1: internal)
    // Categorical splits (empty when the tree has none): per node the offset of its set
    // in cat_words_ (-1: none), where k comes first, then the k bits of the left codes.
    std::vector<int> cat_offset_;
    std::vector<std::uint32_t> cat_words_;
};

// The category code a cell x holds in a column of k categories: x when it is an integer
// in [0, k), else −1 (NaN, kUnknownCategory, fractional or too large: read as missing).
inline int category_code(double x, Index k) {
    if (!(x >= 0 && x < static_cast<double>(k))) return -1;
    const int c = static_cast<int>(x);
    return static_cast<double>(c) == x ? c : -1;
}

// Whether x goes left at a split whose left codes are the bits of `words` over k
// categories: its code's bit, or missing_left for a code category_code reads as missing.
inline bool category_goes_left(const std::uint32_t* words, Index k, double x, bool missing_left) {
    const int c = category_code(x, k);
    return c < 0 ? missing_left : ((words[c >> 5] >> (c & 31)) & 1u) != 0;
}

// A placeholder for a JSON array of the trees' to_json(layout) that model_json_text
// writes straight from the nodes (see JsonTextSlots); nullopt when a tree holds a
// non-finite number (the DOM, through Estimator::save_state, then refuses it by
// name). `trees` must live until the text is written.
std::optional<Json> trees_text_slot(const std::vector<Tree>& trees, JsonTextSlots& slots,
                                    TreeLayout layout = TreeLayout::full);

// The pieces of the text renderings below, for families that render their own nodes
// (gbdt's category sets): a number with 6 significant digits, and a feature's name
// (x<f> when unnamed).
std::string short_number(double x);
std::string feature_label(const std::vector<std::string>& names, int f);
// A category set of feature f as "{Biscoe, Dream}": the names from `categories`
// (ReportNames::categories) when it names that feature's codes, else the codes.
std::string category_set_text(const std::vector<int>& codes, const CategoryLists* categories, int f);
// One cell of feature f for --explain: its category's name (or code) when `k` > 0 (the
// split is categorical over k categories), "missing" for NaN and "unknown" for a code
// outside 0..k-1; short_number otherwise.
std::string cell_text(double x, Index k, const CategoryLists* categories, int f);

// A text rendering like scikit-learn's export_text: one line per node, features by
// name (x0, x1, ... when unnamed), thresholds, and at each leaf the prediction with
// its value (class counts, or the mean) and sample count.
// Category sets are named by `categories` when given (see category_set_text).
std::string dump_tree(const Tree& tree, const std::vector<std::string>& feature_names,
                      const std::vector<std::string>& classes, const CategoryLists* categories = nullptr);

// The decision path of one row (n_features values) in the same rendering: one line per
// split taken (feature = value, <= or > threshold, left or right), then the leaf line
// of dump_tree. Each line starts with `indent`.
// A categorical cell shows its category (cell_text), and a row sent by the missing
// direction says so ("(missing goes left)").
std::string explain_path(const Tree& tree, const double* row, const std::vector<std::string>& feature_names,
                         const std::vector<std::string>& classes, const std::string& indent,
                         const CategoryLists* categories = nullptr);

// Feature importances normalised to sum 1 (left as zeros when the sum is 0), as the
// tree models and gbdt report them.
Vector normalised(Vector v);

}  // namespace kestrel
