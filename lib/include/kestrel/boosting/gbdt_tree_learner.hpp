#pragma once
// Grows one regression tree of `gbdt` on binned features from per-row gradients and
// Hessians (docs/models/gbdt.md, "Growing a tree"): XGBoost's second-order split gain
//   gain = G_L²/(H_L + λ) + G_R²/(H_R + λ) − G²/(H + λ)
// over every bin boundary of every candidate feature, with the node's missing values sent
// left or right, whichever gains more (the learned default direction), and leaf weights
// w = −G/(H + λ). On a categorical feature the candidates are subsets of categories
// (LightGBM's rule, docs/models/gbdt.md "Categorical features"): one category against the
// rest for few categories, else prefixes of the categories sorted by G/(H + cat_smooth),
// scanned from both ends. Depth-wise (level by level, up to max_depth) or leaf-wise (best gain
// first, up to max_leaves) growth.
//
// Speed: the rows of a node are one range of a partitioned row list; a node's histogram
// (per feature and bin, Σg and Σh) is built for the smaller child only, the larger being
// parent − smaller (the subtraction trick); histograms are built (in memory up to four
// features of a node a task, one pass over its rows) and splits searched in parallel, each
// feature summed by one thread in row order, so the tree is the same for any number of
// threads.
//
// Constraints (docs/models/gbdt.md, "Constraints"), as XGBoost's TreeEvaluator and
// FeatureInteractionConstraintHost: with monotone constraints every node carries bounds
// [lower, upper] on its weight; candidate child weights are clamped into the node's
// bounds and gains computed at the clamped weights; a split on a constrained feature whose
// weights break the order gains nothing; its children's bounds are cut at the midpoint of
// the two weights. With interaction constraints a node may split only on the features
// allowed_features() gives for its path.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "kestrel/boosting/histogram.hpp"
#include "kestrel/boosting/losses.hpp"
#include "kestrel/common/tree.hpp"

namespace kestrel {

struct HistTreeParams {
    int max_depth = 6;      // 0 = unlimited (leaf-wise growth only)
    int max_leaves = 0;     // > 0: leaf-wise growth up to this many leaves
    double min_child_weight = 1;
    // > 0: each child of a split keeps at least this many rows, counted as LightGBM's
    // min_data_in_leaf counts them: the child's Hessian sum times the node's rows per unit of
    // Hessian, rounded (exact for the squared loss without weights).
    int min_data_in_leaf = 0;
    double lambda = 1;
    double gamma = 0;       // a split must gain more than this
    double learning_rate = 0.1;
    // > 0: leaf weights clipped to ±this before the learning rate, and gains computed at
    // the clipped weights (XGBoost's max_delta_step; count:poisson's default 0.7).
    double max_delta_step = 0;
    // Categorical splits (LightGBM's names and defaults).
    double cat_smooth = 10;        // added to H in the sort key; a category needs this many rows
    int min_data_per_group = 100;  // rows per step of the prefix scan, and on the right
    int max_cat_threshold = 32;    // categories in the left set at most
    int max_cat_to_onehot = 4;     // up to this many categories: one against the rest
    // Per feature +1 (non-decreasing), −1 (non-increasing) or 0; empty: no constraint.
    std::vector<int> monotone;
    // Sets of features (ascending) that may be used together on a path; empty: any.
    std::vector<std::vector<int>> interactions;
    // The rows are spread over MPI ranks (kestrel-train --shard, docs/distributed.md):
    // each histogram built and each node's row count is summed over the ranks before any
    // decision, so every rank grows the same tree from its own rows.
    bool rows_sharded = false;
};

// A grown tree in the shared Tree format: thresholds in feature units (a row goes left
// when x <= threshold, NaN where missing_left says), values already multiplied by the
// learning rate, impurity = the split's gain (0 at leaves), weight = ΣH, samples = rows.
struct GrownTree {
    Tree tree;
    std::vector<int> split_bin;  // per node: the split is "bin <= split_bin" (−1 at leaves)
    // Categorical splits: per node (resized only when a tree has one) the bins going left,
    // one bit per bin (empty: not a categorical split). The missing bin follows missing_left.
    std::vector<std::vector<std::uint32_t>> left_bins;
    std::vector<int> leaves;     // leaf node ids, with their rows in the learner's row list:
    std::vector<Index> leaf_begin, leaf_end;
    // With monotone constraints, per leaf the bounds of its weight (before the learning
    // rate): a value renewed after growth must stay within them. Empty otherwise.
    std::vector<double> leaf_lower, leaf_upper;
};

class ColumnReads;

class HistTreeLearner {
public:
    // All arguments are borrowed and must outlive the learner.
    HistTreeLearner(const BinnedMatrix& bins, const BinCuts& cuts, HistTreeParams params, int threads);
    HistTreeLearner(HistTreeLearner&&) noexcept;
    ~HistTreeLearner();

    // Grows a tree on the rows `rows` (ascending indices into the binned matrix) from the
    // gradient pairs gh[0..n) of every row, trying only the features in `features`
    // (ascending). After the call, rows() lists the rows grouped by leaf.
    GrownTree grow(std::span<const int> rows, const GradPair* gh, std::span<const int> features);
    // grow on every row of the binned matrix, without a list of them from the caller (4
    // bytes a row fewer held through the fit).
    GrownTree grow_all(const GradPair* gh, std::span<const int> features);
    std::span<const int> rows() const { return rows_; }

private:
    GrownTree grow_listed(const GradPair* gh, std::span<const int> features);  // on the rows in rows_

    struct Split {
        double gain = 0, gl = 0, hl = 0;
        int feature = -1, bin = -1;
        bool missing_left = false;
        int set = -1;  // a categorical split: its left bins are sets_[set] (trivially copyable)
        double wl = 0, wr = 0;  // with monotone constraints: the children's clamped weights
    };
    struct Node {
        int id = 0, depth = 0, slot = -1;
        int minus_slot = -1;  // holds the parent's histogram until this sibling's is subtracted
        Index begin = 0, end = 0;  // this rank's rows of the node: rows_[begin, end)
        Index count = 0;           // the node's rows on every rank
        double g = 0, h = 0;
        // Monotone constraints: the bounds of this node's weight (XGBoost's lower/upper).
        double lower = -std::numeric_limits<double>::infinity(), upper = std::numeric_limits<double>::infinity();
        std::vector<int> path;  // interaction constraints: the features split on above (ascending)
        Split best;
    };

    // XGBoost's CalcWeight / CalcGain: w = −G/(H + λ), clipped to ±max_delta_step, and the
    // objective decrease −(2Gw + (H + λ)w²) it buys (G²/(H + λ) unclipped).
    double leaf_weight(double g, double h) const {
        const double w = -g / (h + p_.lambda);
        return p_.max_delta_step > 0 ? std::clamp(w, -p_.max_delta_step, p_.max_delta_step) : w;
    }
    double node_score(double g, double h) const {
        if (p_.max_delta_step <= 0) return g * g / (h + p_.lambda);
        const double w = leaf_weight(g, h);
        return -(2 * g * w + (h + p_.lambda) * w * w);
    }
    // The objective decrease −(2Gw + (H + λ)w²) at a given weight (XGBoost's
    // CalcGainGivenWeight), what gains are computed from under monotone constraints.
    double score_at(double g, double h, double w) const {
        return h <= 0 ? 0.0 : -(2 * g * w + (h + p_.lambda) * w * w);
    }
    // A node's score: at its weight clamped into its bounds when constrained.
    double parent_score(const Node& n) const {
        return constrained_ ? score_at(n.g, n.h, std::clamp(leaf_weight(n.g, n.h), n.lower, n.upper))
                            : node_score(n.g, n.h);
    }
    // The gain of splitting node n (scoring `parent`) into (gl, hl) and (gr, hr) on a
    // feature with monotone sign c; −1 when the order the sign asks for is broken. Under
    // constraints wl, wr receive the children's clamped weights.
    double split_gain(const Node& n, int c, double parent, double gl, double hl, double gr, double hr, double& wl,
                      double& wr) const {
        if (!constrained_) return node_score(gl, hl) + node_score(gr, hr) - parent;
        wl = std::clamp(leaf_weight(gl, hl), n.lower, n.upper);
        wr = std::clamp(leaf_weight(gr, hr), n.lower, n.upper);
        if ((c > 0 && wl > wr) || (c < 0 && wl < wr)) return -1;
        return score_at(gl, hl, wl) + score_at(gr, hr, wr) - parent;
    }
    int sign_of(Index f) const { return constrained_ ? p_.monotone[static_cast<std::size_t>(f)] : 0; }
    // min_data_in_leaf over one node's candidate splits, its numbers worked out once a node
    // (rows_rule): the left child's rows are hl·rows_per_h rounded to the nearest (halves
    // away from zero) and both children need min_data_in_leaf of the node's count, which for
    // that rounding is lo <= hl·rows_per_h < hi, lo = min_data_in_leaf − ½ and
    // hi = count − min_data_in_leaf + ½ (exact: both are integers plus ½). A NaN or an
    // infinite product fails it, as it failed the rounding to an integer.
    struct RowsRule {
        bool on = false;
        double rows_per_h = 0, lo = 0, hi = 0;
        bool allows(double hl) const {
            const double x = hl * rows_per_h;
            return !on || (x >= lo && x < hi);
        }
    };
    bool may_split(const Node& n) const;
    RowsRule rows_rule(const Node& n) const;
    void add_tree_node(Node& n, GrownTree& out) const;
    void build_histograms(std::span<Node* const> nodes, const GradPair* gh);
    void sum_histograms_over_ranks(std::span<Node* const> nodes);
    void find_splits(std::span<Node* const> nodes);
    // A numeric feature's candidate splits in the order the scan meets them (per thread).
    struct Candidates {
        std::vector<double> gl, hl, gain;
        std::vector<int> bin_side;  // 2 · bin + (1 when the missing rows go left)
    };
    Split best_split_of(const BinStat* hist, Index f, const Node& n, Candidates& c) const;
    void candidate_gains(const Node& n, int sign, Candidates& c, int count) const;
    Split best_categorical_split(const BinStat* hist, Index f, const Node& n,
                                 std::vector<std::uint32_t>& left_bins) const;
    std::vector<Node> expand(std::span<Node* const> batch, const GradPair* gh, GrownTree& out);
    int acquire_slot();
    void release_slot(int slot);
    BinStat* hist(int slot) { return pool_[static_cast<std::size_t>(slot)].data(); }

    const BinnedMatrix& bins_;
    const BinCuts& cuts_;
    HistTreeParams p_;
    int threads_;
    bool constrained_ = false;  // some feature has a monotone constraint

    std::vector<int> rows_;
    std::vector<GradPair> ordered_;  // gradient pairs in rows_ order, per built node
    // The partition's scratch rows (expand) live in ordered_'s bytes: ordered_ is written and
    // read only while a level's histograms are built, the scratch only while its nodes are
    // partitioned, so one buffer of 8 bytes a row serves both (4 bytes a row fewer through
    // the fit, docs/large-data.md).
    int* partition_scratch() { return reinterpret_cast<int*>(ordered_.data()); }
    std::vector<int> features_;
    bool contiguous_root_ = false;
    std::size_t histogram_batches_ = 0;  // build_histograms calls so far (the column order's turn)
    // Codes on disk: the columns a histogram pass sums, read into buffers of the learner's.
    std::unique_ptr<ColumnReads> reads_;
    std::vector<std::vector<BinStat>> pool_;
    std::vector<int> free_;
    std::vector<std::vector<std::uint32_t>> sets_;  // left bins of the chosen categorical splits
};

// The leaf a row of a binned matrix falls into.
int apply_binned(const GrownTree& t, const BinnedMatrix& bins, const BinCuts& cuts, Index row);

}  // namespace kestrel
