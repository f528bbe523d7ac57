#pragma once
// Grows one CART tree (docs/models/tree.md) over a column store: DenseColumnStore
// (dense_columns.hpp) or SparseColumnStore (sparse_columns.hpp). The store owns the
// columns' sorted order within each node and the per-feature split scan; the sample,
// the node statistics, the stopping rules, the feature draws and the growth order are
// written once here, so both stores grow the same tree on the same data. The store is
// a template parameter: the scans' inner loops are compiled for each, no virtual call.
//
// The builder is separate from the estimators so that `tree`, `forest` and boosting
// share it: they choose the rows (through per-row weights, 0 = not in the sample) and
// the growth limits.
#include <cfloat>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/tree/frontier_queue.hpp"
#include "kestrel/common/tree.hpp"
#include "kestrel/tree/tree_params.hpp"
#include "split_scan.hpp"
#include "tree_sample.hpp"

namespace kestrel {

// Rows x candidate features of a node below which its scan stays on one thread.
inline constexpr Index kParallelScanWork = 1 << 15;

template <class Columns>
class TreeBuilder {
public:
    // y: class index 0..n_classes-1, or the target when n_classes == 0 (regression,
    // criterion variance). y and the store's columns are borrowed: they must outlive
    // the builder.
    // threads > 1: a large node's features are scanned in parallel when all are candidates
    // and the store allows it (the split found is the same at any thread count).
    TreeBuilder(Columns columns, const Vector& y, Index n_classes, TreeParams params, int threads = 1)
        : columns_(std::move(columns)), y_(y), n_classes_(n_classes), p_(params), threads_(threads) {
        if (y.size() != columns_.rows()) throw InternalError("tree builder: features and targets differ in rows");
        if ((n_classes_ > 0) != is_classification(p_.criterion))
            throw InternalError("tree builder: criterion does not match the task");
    }

    // Grows a tree, emptied first, on the rows with weight > 0 (a bootstrap count times
    // a sample weight, say). `rng` draws the candidate features when max_features < cols.
    void build(std::span<const double> row_weights, Rng& rng, Tree& tree);

private:
    struct Frontier {
        int node = 0;
        Index begin = 0, end = 0;
        int depth = 0;
        Split split;
        NodeStats left, right;  // of the split, when valid
    };

    NodeStats stats_of(std::span<const int> locals) const;
    bool may_split(const NodeStats& s, int depth) const {
        return (p_.max_depth == 0 || depth < p_.max_depth) && s.n >= p_.min_samples_split &&
               s.n >= 2 * p_.min_samples_leaf && s.impurity > DBL_EPSILON;
    }
    Split find_split(Index begin, Index end, const NodeStats& s, Rng& rng);
    bool scan(Index f, Index begin, Index end, const NodeStats& s, Split& best) {
        const ScanInputs in{sample_, s, p_.min_samples_leaf, p_.cat_smooth};
        if (p_.criterion == Criterion::gini)
            return columns_.template scan<ClassScan<Criterion::gini>>(in, f, begin, end, best);
        if (p_.criterion == Criterion::entropy)
            return columns_.template scan<ClassScan<Criterion::entropy>>(in, f, begin, end, best);
        return columns_.template scan<VarianceScan>(in, f, begin, end, best);
    }
    Frontier make(Index begin, Index end, int depth, const NodeStats& s, Rng& rng, Tree& tree);
    void set_categories(Tree& tree, int node, const Split& sp, bool missing_left);

    Columns columns_;
    const Vector& y_;
    Index n_classes_;
    TreeParams p_;
    int threads_ = 1;

    TreeSample sample_;
    std::vector<Split> per_feature_;  // the parallel scan's best split of each candidate
    std::vector<int> features_;  // the identity permutation between nodes
    std::vector<int> touched_;   // positions of features_ a node's draws swapped
    std::vector<int> left_rows_, right_rows_, codes_;  // a general split's sides; a category set
    double root_weight_ = 0;
};

template <class Columns>
NodeStats TreeBuilder<Columns>::stats_of(std::span<const int> locals) const {
    NodeStats s;
    s.n = static_cast<Index>(locals.size());
    const double* weight = sample_.weight.data();
    if (n_classes_ > 0) {
        s.counts.assign(static_cast<std::size_t>(n_classes_), 0.0);
        for (int l : locals) s.counts[static_cast<std::size_t>(sample_.klass[l])] += weight[l];
        for (double c : s.counts) s.w += c;
        s.impurity = class_impurity(p_.criterion, s.counts);
    } else {
        for (int l : locals) {
            const double w = weight[l], y = sample_.target[l];
            s.w += w;
            s.wy += w * y;
            s.wyy += w * y * y;
        }
        s.impurity = variance_impurity(s.w, s.wy, s.wyy);
    }
    return s;
}

template <class Columns>
Split TreeBuilder<Columns>::find_split(Index begin, Index end, const NodeStats& s, Rng& rng) {
    Split best;
    columns_.open_node(begin, end);
    const Index d = columns_.cols();
    if (p_.max_features == 0 || p_.max_features >= d) {
        const std::span<const int> candidates = columns_.all_candidates();
        const auto nc = static_cast<Index>(candidates.size());
        // Each feature's best boundary, then the first feature whose best is strictly
        // the highest: the serial scan's choice (first feature, then first boundary, of
        // the highest proxy), whatever the thread count.
        if (Columns::kConcurrentScans && threads_ > 1 && nc > 1 && (end - begin) * nc >= kParallelScanWork) {
            per_feature_.assign(static_cast<std::size_t>(nc), Split{});
#pragma omp parallel for schedule(dynamic) num_threads(threads_)
            for (Index i = 0; i < nc; ++i)
                scan(candidates[static_cast<std::size_t>(i)], begin, end, s, per_feature_[static_cast<std::size_t>(i)]);
            for (const Split& sp : per_feature_)
                if (sp.proxy > best.proxy) best = sp;
            return best;
        }
        for (int f : candidates) scan(f, begin, end, s, best);
        return best;
    }
    // Features drawn without replacement until max_features were looked at and at
    // least one of them was not constant in the node (as scikit-learn does). The
    // permutation is the identity between nodes: only the positions a node touched are
    // reset, so a node costs its draws, not the column count.
    touched_.clear();
    Index visited = 0, non_constant = 0;
    for (Index i = 0; i < d && (visited < p_.max_features || non_constant == 0); ++i) {
        const Index j = i + static_cast<Index>(rng.below(static_cast<std::uint64_t>(d - i)));
        std::swap(features_[static_cast<std::size_t>(i)], features_[static_cast<std::size_t>(j)]);
        touched_.push_back(static_cast<int>(i));
        touched_.push_back(static_cast<int>(j));
        ++visited;
        if (scan(features_[static_cast<std::size_t>(i)], begin, end, s, best)) ++non_constant;
    }
    for (int k : touched_) features_[static_cast<std::size_t>(k)] = k;
    return best;
}

// A node is added as a leaf; its best split (if any passes the limits) is kept in the
// frontier and applied when the node is taken out.
template <class Columns>
typename TreeBuilder<Columns>::Frontier TreeBuilder<Columns>::make(Index begin, Index end, int depth,
                                                                   const NodeStats& s, Rng& rng, Tree& tree) {
    Frontier fr;
    TreeNode node;
    node.impurity = s.impurity;
    node.weight = s.w;
    node.samples = s.n;
    if (n_classes_ > 0) {
        fr.node = tree.add_node(node, s.counts.data());
    } else {
        const double mean = s.wy / s.w;
        fr.node = tree.add_node(node, &mean);
    }
    fr.begin = begin;
    fr.end = end;
    fr.depth = depth;
    if (!may_split(s, depth)) return fr;
    Split sp = find_split(begin, end, s, rng);
    if (!sp.valid()) return fr;
    // The children's sums in the split feature's sorted order.
    NodeStats l, r;
    if (sp.by_prefix()) {
        const std::span<const int> order = columns_.node_order(sp.feature, begin, end);
        const auto nl = static_cast<std::size_t>(sp.pos - begin);
        l = stats_of(order.first(nl));
        r = stats_of(order.subspan(nl));
    } else if constexpr (Columns::kGeneralSplits) {
        columns_.sides(sp, begin, end, left_rows_, right_rows_);
        l = stats_of(left_rows_);
        r = stats_of(right_rows_);
        sp.pos = begin + static_cast<Index>(left_rows_.size());
    } else {
        throw InternalError("tree builder: a column store without missing values or categories made such a split");
    }
    sp.improvement = (s.w / root_weight_) * (s.impurity - l.w / s.w * l.impurity - r.w / s.w * r.impurity);
    if (sp.improvement + DBL_EPSILON < p_.min_impurity_decrease) return fr;
    fr.split = sp;
    fr.left = std::move(l);
    fr.right = std::move(r);
    return fr;
}

// The node's left set: the codes sent left, and the codes no row of the node had when
// missing values go left (they follow the missing direction).
template <class Columns>
void TreeBuilder<Columns>::set_categories(Tree& tree, int node, const Split& sp, bool missing_left) {
    codes_.clear();
    for (std::size_t c = 0; c < sp.category_side.size(); ++c)
        if (sp.category_side[c] == 1 || (missing_left && sp.category_side[c] < 0)) codes_.push_back(static_cast<int>(c));
    tree.set_categories(node, static_cast<Index>(sp.category_side.size()), codes_);
}

template <class Columns>
void TreeBuilder<Columns>::build(std::span<const double> row_weights, Rng& rng, Tree& tree) {
    sample_.gather(row_weights, y_, n_classes_);
    const Index m = sample_.size();
    if (m == 0) throw DataError("tree: no training row has a positive weight");
    columns_.gather(sample_);
    features_.resize(static_cast<std::size_t>(columns_.cols()));
    for (std::size_t k = 0; k < features_.size(); ++k) features_[k] = static_cast<int>(k);
    tree.reset(columns_.cols(), n_classes_ > 0 ? n_classes_ : 1);

    const NodeStats root = stats_of(columns_.root_order());
    root_weight_ = root.w;
    FrontierQueue<Frontier> frontier(p_.max_leaf_nodes);
    frontier.push(make(0, m, 0, root, rng, tree));
    Frontier fr;
    while (frontier.pop(fr)) {
        const Split& sp = fr.split;
        // Partition only when a child may split again: the last level is free.
        if (may_split(fr.left, fr.depth + 1) || may_split(fr.right, fr.depth + 1))
            columns_.partition(fr.begin, fr.end, sp);
        Frontier left = make(fr.begin, sp.pos, fr.depth + 1, fr.left, rng, tree);
        Frontier right = make(sp.pos, fr.end, fr.depth + 1, fr.right, rng, tree);
        TreeNode& parent = tree.node(fr.node);
        parent.feature = static_cast<int>(sp.feature);
        parent.threshold = sp.threshold;
        parent.left = left.node;
        parent.right = right.node;
        // Where missing values go when the node had none: the heavier child (ties left).
        parent.missing_left = sp.saw_missing ? sp.missing_left : fr.left.w >= fr.right.w;
        if (!sp.category_side.empty()) set_categories(tree, fr.node, sp, parent.missing_left);
        // Depth-first pops the left child next.
        frontier.push(std::move(right));
        frontier.push(std::move(left));
    }
}

}  // namespace kestrel
