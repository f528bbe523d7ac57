#include "kestrel/tree/hist_forest.hpp"

#include <algorithm>
#include <cfloat>
#include <limits>
#include <optional>
#include <string>

#include "kestrel/common/bin_cuts.hpp"
#include "kestrel/common/row_shards.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/tree/row_bagging.hpp"
#include "kestrel/tree/split_criteria.hpp"

namespace kestrel {
namespace {

// Sampled rows × features of a level below which its histograms (and rows × 1 below which
// its partition) stay on one thread: waking a team costs more on small levels, and its
// spinning threads would compete with other ranks sharing the cores.
constexpr Index kParallelForestLevelWork = 1 << 15;
// Draws of a tree's sample before an empty one (every count 0, tiny data) is an error.
constexpr int kBagAttempts = 100;

// The statistics of a set of rows, `width` numbers: [n, w_1..w_k] (classification: the
// rows and their weighted class counts) or [n, Σw, Σwy, Σwy²] (regression).
class RowStats {
public:
    RowStats(Index n_classes, Criterion criterion)
        : k_(n_classes), criterion_(criterion), width_(n_classes > 0 ? 1 + static_cast<std::size_t>(n_classes) : 4) {}
    std::size_t width() const { return width_; }
    void add(double* cell, double w, double y) const {
        cell[0] += 1;
        if (k_ > 0) {
            cell[1 + static_cast<std::size_t>(y)] += w;
        } else {
            cell[1] += w;
            cell[2] += w * y;
            cell[3] += w * y * y;
        }
    }
    double rows(const double* s) const { return s[0]; }
    double weight(const double* s) const {
        if (k_ == 0) return s[1];
        double w = 0;
        for (Index c = 0; c < k_; ++c) w += s[1 + c];  // class order, as the exact builder sums
        return w;
    }
    double impurity(const double* s) const {
        if (k_ == 0) return variance_impurity(s[1], s[2], s[3]);
        return class_impurity(criterion_, std::span<const double>(s + 1, static_cast<std::size_t>(k_)));
    }

private:
    Index k_;
    Criterion criterion_;
    std::size_t width_;
};

// A node of the level being split: its place in the tree, its statistics and, when it
// may split, its candidate features and where their cells start in the level's vector.
struct LevelNode {
    int node = 0, depth = 0;
    std::vector<double> stats;
    std::vector<int> features;
    std::vector<std::size_t> offsets;
};

struct BestSplit {
    int feature = -1, bin = 0;
    bool missing_left = false, saw_missing = false;
    double decrease = -std::numeric_limits<double>::infinity();
    std::vector<double> left, right;
};

class HistTreeGrower {
public:
    HistTreeGrower(const BinCuts& cuts, const BinnedMatrix& bins, const Vector& y, const Vector& weights,
                   const HistForestSetup& s, RowSpan span)
        : cuts_(cuts), bins_(bins), y_(y), weights_(weights), s_(s), span_(span),
          stats_(s.n_classes, s.tree.criterion), d_(bins.cols()) {}

    // Tree t; *bag_seed: the seed its sample was drawn from.
    Tree grow(Index t, std::uint64_t* bag_seed) {
        const std::uint64_t tree_seed = derive_seed(s_.seed, static_cast<std::uint64_t>(t));
        Rng rng(tree_seed);
        std::vector<double> root = draw_sample(tree_seed, bag_seed);
        Tree tree(d_, s_.n_classes > 0 ? s_.n_classes : 1);
        std::vector<LevelNode> level(1);
        level[0].node = add_node(tree, root);
        level[0].stats = std::move(root);
        slot_.assign(rows_.size(), 0);
        std::vector<int> perm(static_cast<std::size_t>(d_));
        for (std::size_t f = 0; f < perm.size(); ++f) perm[f] = static_cast<int>(f);
        while (!level.empty()) {
            std::vector<std::size_t> splitting;  // positions in `level` of the nodes that may split
            for (std::size_t j = 0; j < level.size(); ++j) {
                LevelNode& ln = level[j];
                if (!may_split(ln.stats.data(), ln.depth)) continue;
                draw_features(rng, perm, ln.features);
                splitting.push_back(j);
            }
            std::vector<BestSplit> best(level.size());
            for (std::size_t from = 0; from < splitting.size();) {
                std::size_t cells = 0;
                const std::size_t to = lay_out(level, splitting, from, cells);
                const std::vector<double> hist = histograms(level, splitting, from, to, cells);
                for (std::size_t q = from; q < to; ++q) best[splitting[q]] = best_split(level[splitting[q]], hist);
                from = to;
            }
            level = split_level(tree, level, best);
        }
        return tree;
    }

private:
    bool may_split(const double* st, int depth) const {
        const TreeParams& p = s_.tree;
        const double n = stats_.rows(st);
        return (p.max_depth == 0 || depth < p.max_depth) && n >= static_cast<double>(p.min_samples_split) &&
               n >= 2.0 * static_cast<double>(p.min_samples_leaf) && stats_.impurity(st) > DBL_EPSILON;
    }

    // This rank's rows of the tree's sample and their weights; the whole sample's
    // statistics (the root's). A sample with no weight is drawn again from the next bag
    // seed, on every rank alike.
    std::vector<double> draw_sample(std::uint64_t tree_seed, std::uint64_t* used_seed) {
        for (int attempt = 0; attempt < kBagAttempts; ++attempt) {
            const std::uint64_t bag_seed = derive_seed(tree_seed, 0xba9000 + static_cast<std::uint64_t>(attempt));
            *used_seed = bag_seed;
            rows_.clear();
            row_weight_.clear();
            std::vector<double> root(stats_.width(), 0.0);
            for (Index i = 0; i < bins_.rows(); ++i) {
                const double w =
                    row_bag_count(bag_seed, span_.first + i, s_.max_samples, s_.bootstrap) * weights_[i];
                if (!(w > 0)) continue;
                rows_.push_back(i);
                row_weight_.push_back(w);
                stats_.add(root.data(), w, y_[i]);
            }
            sum_over_ranks(s_.rows_sharded, root);
            if (stats_.weight(root.data()) > 0) return root;
        }
        throw DataError("forest: no training row has a positive weight in " + std::to_string(kBagAttempts) +
                        " draws of a tree's sample");
    }

    // max_features candidates drawn without replacement from the tree's generator (all
    // features, in column order, when max_features is 0).
    void draw_features(Rng& rng, std::vector<int>& perm, std::vector<int>& out) const {
        const Index k = s_.tree.max_features;
        if (k == 0 || k >= d_) {
            out = perm;
            return;
        }
        for (Index i = 0; i < k; ++i) {
            const Index j = i + static_cast<Index>(rng.below(static_cast<std::uint64_t>(d_ - i)));
            std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(j)]);
        }
        out.assign(perm.begin(), perm.begin() + k);
        for (std::size_t f = 0; f < perm.size(); ++f) perm[f] = static_cast<int>(f);
    }

    // Sets the offsets of splitting[from..to) (as many nodes as fit one piece, at least
    // one) and returns `to`; `cells`: the piece's length.
    std::size_t lay_out(std::vector<LevelNode>& level, const std::vector<std::size_t>& splitting, std::size_t from,
                        std::size_t& cells) const {
        std::size_t to = from;
        cells = 0;
        for (; to < splitting.size(); ++to) {
            LevelNode& ln = level[splitting[to]];
            std::size_t need = 0;
            for (int f : ln.features) need += static_cast<std::size_t>(cuts_.n_bins(f) + 1) * stats_.width();
            if (to > from && (cells + need > s_.piece_cells || (to - from + 1) * static_cast<std::size_t>(d_) > s_.piece_cells))
                break;
            ln.offsets.clear();
            for (int f : ln.features) {
                ln.offsets.push_back(cells);
                cells += static_cast<std::size_t>(cuts_.n_bins(f) + 1) * stats_.width();
            }
        }
        return to;
    }

    // The histograms of splitting[from..to), summed over the ranks: feature by feature
    // (one thread a feature, each cell summed in row order, so the bits do not depend on
    // the thread count).
    std::vector<double> histograms(const std::vector<LevelNode>& level, const std::vector<std::size_t>& splitting,
                                   std::size_t from, std::size_t to, std::size_t cells) const {
        std::vector<double> hist(cells, 0.0);
        // in_piece[slot]: the node's place q − from in the piece (−1: not in it);
        // cell_at[(q − from) · d + f]: where its cells of feature f start (−1: not a candidate).
        std::vector<int> in_piece(level.size(), -1);
        std::vector<std::int64_t> cell_at((to - from) * static_cast<std::size_t>(d_), -1);
        std::vector<char> used(static_cast<std::size_t>(d_), 0);
        for (std::size_t q = from; q < to; ++q) {
            const LevelNode& ln = level[splitting[q]];
            in_piece[splitting[q]] = static_cast<int>(q - from);
            for (std::size_t c = 0; c < ln.features.size(); ++c) {
                const auto f = static_cast<std::size_t>(ln.features[c]);
                cell_at[(q - from) * static_cast<std::size_t>(d_) + f] = static_cast<std::int64_t>(ln.offsets[c]);
                used[f] = 1;
            }
        }
        const std::size_t width = stats_.width();
        const auto m = static_cast<Index>(rows_.size());
        const Index work = m * static_cast<Index>(std::count(used.begin(), used.end(), 1));
#pragma omp parallel for schedule(dynamic) num_threads(s_.threads) if (s_.threads > 1 && work >= kParallelForestLevelWork)
        for (Index f = 0; f < d_; ++f) {
            if (!used[static_cast<std::size_t>(f)]) continue;
            for (Index r = 0; r < m; ++r) {
                const int slot = slot_[static_cast<std::size_t>(r)];
                if (slot < 0) continue;
                const int q = in_piece[static_cast<std::size_t>(slot)];
                if (q < 0) continue;
                const std::int64_t at =
                    cell_at[static_cast<std::size_t>(q) * static_cast<std::size_t>(d_) + static_cast<std::size_t>(f)];
                if (at < 0) continue;
                const Index i = rows_[static_cast<std::size_t>(r)];
                double* cell = hist.data() + at + static_cast<std::size_t>(bins_.bin(f, i)) * width;
                stats_.add(cell, row_weight_[static_cast<std::size_t>(r)], y_[i]);
            }
        }
        sum_over_ranks(s_.rows_sharded, hist);
        return hist;
    }

    // The candidate boundary with the largest W·I − W_L·I_L − W_R·I_R: features in their
    // draw order, bins ascending, missing values right before left; the first of equals.
    BestSplit best_split(const LevelNode& ln, const std::vector<double>& hist) const {
        const std::size_t width = stats_.width();
        const double* node = ln.stats.data();
        const double node_term = stats_.weight(node) * stats_.impurity(node);
        const auto min_leaf = static_cast<double>(s_.tree.min_samples_leaf);
        BestSplit best;
        std::vector<double> left(width), with_missing(width), right(width);
        const auto consider = [&](int f, int b, bool missing_left, bool saw_missing, const std::vector<double>& l) {
            for (std::size_t c = 0; c < width; ++c) right[c] = node[c] - l[c];
            if (stats_.rows(l.data()) < min_leaf || stats_.rows(right.data()) < min_leaf) return;
            const double decrease = node_term - stats_.weight(l.data()) * stats_.impurity(l.data()) -
                                    stats_.weight(right.data()) * stats_.impurity(right.data());
            if (!(decrease > best.decrease)) return;
            best = {f, b, missing_left, saw_missing, decrease, l, right};
        };
        for (std::size_t c = 0; c < ln.features.size(); ++c) {
            const int f = ln.features[c];
            const int nb = cuts_.n_bins(f);
            const double* cells = hist.data() + ln.offsets[c];
            const double* missing = cells + static_cast<std::size_t>(nb) * width;
            const bool saw_missing = stats_.rows(missing) > 0;
            std::fill(left.begin(), left.end(), 0.0);
            for (int b = 0; b < nb; ++b) {
                for (std::size_t k = 0; k < width; ++k) left[k] += cells[static_cast<std::size_t>(b) * width + k];
                consider(f, b, false, saw_missing, left);
                if (saw_missing && b + 1 < nb) {
                    for (std::size_t k = 0; k < width; ++k) with_missing[k] = left[k] + missing[k];
                    consider(f, b, true, saw_missing, with_missing);
                }
            }
        }
        return best;
    }

    int add_node(Tree& tree, const std::vector<double>& st) const {
        TreeNode node;
        node.impurity = stats_.impurity(st.data());
        node.weight = stats_.weight(st.data());
        node.samples = static_cast<Index>(stats_.rows(st.data()));
        if (s_.n_classes > 0) return tree.add_node(node, st.data() + 1);
        const double mean = st[2] / st[1];
        return tree.add_node(node, &mean);
    }

    // Applies the level's splits that pass min_impurity_decrease, moves this rank's rows
    // to their children's slots, and returns the next level.
    std::vector<LevelNode> split_level(Tree& tree, const std::vector<LevelNode>& level,
                                       const std::vector<BestSplit>& best) {
        std::vector<LevelNode> next;
        std::vector<int> left_slot(level.size(), -1), right_slot(level.size(), -1);
        for (std::size_t j = 0; j < level.size(); ++j) {
            const BestSplit& sp = best[j];
            if (sp.feature < 0) continue;
            const LevelNode& ln = level[j];
            const double w = stats_.weight(ln.stats.data()), wl = stats_.weight(sp.left.data()),
                         wr = stats_.weight(sp.right.data());
            // The exact builder's rule: (W_t/W)(I_t − W_L/W_t I_L − W_R/W_t I_R) against the parameter.
            const double improvement = (w / root_weight(tree)) * (stats_.impurity(ln.stats.data()) -
                                                                   wl / w * stats_.impurity(sp.left.data()) -
                                                                   wr / w * stats_.impurity(sp.right.data()));
            if (improvement + DBL_EPSILON < s_.tree.min_impurity_decrease) continue;
            const int l = add_node(tree, sp.left), r = add_node(tree, sp.right);
            TreeNode& parent = tree.node(ln.node);
            parent.feature = sp.feature;
            parent.threshold = cuts_.upper(sp.feature, sp.bin);
            parent.left = l;
            parent.right = r;
            // A node without missing values sends them to the heavier child (ties left).
            parent.missing_left = sp.saw_missing ? sp.missing_left : wl >= wr;
            left_slot[j] = static_cast<int>(next.size());
            next.push_back({l, ln.depth + 1, sp.left, {}, {}});
            right_slot[j] = static_cast<int>(next.size());
            next.push_back({r, ln.depth + 1, sp.right, {}, {}});
        }
        const auto m = static_cast<Index>(rows_.size());
#pragma omp parallel for schedule(static) num_threads(s_.threads) if (s_.threads > 1 && m >= kParallelForestLevelWork)
        for (Index r = 0; r < m; ++r) {
            int& slot = slot_[static_cast<std::size_t>(r)];
            if (slot < 0) continue;
            const auto j = static_cast<std::size_t>(slot);
            const BestSplit& sp = best[j];
            if (left_slot[j] < 0) {
                slot = -1;  // a leaf now
                continue;
            }
            const int b = bins_.bin(sp.feature, rows_[static_cast<std::size_t>(r)]);
            const bool goes_left = b == cuts_.missing_bin(sp.feature) ? tree.node(level[j].node).missing_left
                                                                      : b <= sp.bin;
            slot = goes_left ? left_slot[j] : right_slot[j];
        }
        return next;
    }

    static double root_weight(const Tree& tree) { return tree.node(0).weight; }

    const BinCuts& cuts_;
    const BinnedMatrix& bins_;
    const Vector& y_;
    const Vector& weights_;
    const HistForestSetup& s_;
    RowSpan span_;
    RowStats stats_;
    Index d_;
    std::vector<Index> rows_;          // this rank's rows in the tree's sample
    std::vector<double> row_weight_;   // their counts times their weights
    std::vector<int> slot_;            // per sampled row, its node's place in the level (−1: in a leaf)
};

// The forest's trees grown on this rank's rows' codes.
HistForest grow_binned_forest(const BinCuts& cuts, const BinnedMatrix& bins, const Vector& y, const Vector& weights,
                              const HistForestSetup& s, RowSpan span) {
    HistTreeGrower grower(cuts, bins, y, weights, s, span);
    HistForest out;
    out.first_row = span.first;
    out.bag_seeds.resize(static_cast<std::size_t>(s.n_trees));
    for (Index t = 0; t < s.n_trees; ++t) {
        const Tree tree = grower.grow(t, &out.bag_seeds[static_cast<std::size_t>(t)]);
        out.importance.push_back(normalised(tree.impurity_decrease_by_feature()));
        out.trees.push_back(tree.leaf_values_only());
    }
    return out;
}

}  // namespace

HistForest grow_hist_forest(const Features& X, const Vector& y, const Vector& weights, const HistForestSetup& s) {
    if (s.tree.max_leaf_nodes > 0) throw InternalError("forest: the histogram trees grow level by level");
    // A sparse row's absent entries are zeros to the forest (not missing, as to gbdt's
    // bins): the rows are binned dense.
    std::optional<Features> densified;
    if (X.is_sparse()) densified.emplace(X.to_dense());
    const Features& dense = densified ? *densified : X;
    const RowSpan span = rows_over_ranks(s.rows_sharded, dense.rows());
    const BinCuts cuts = s.rows_sharded ? BinCuts::fit_over_ranks(dense, span, s.max_bins, s.seed)
                                        : BinCuts::fit(dense, {}, s.max_bins, s.seed, s.threads);
    const BinnedMatrix bins(cuts, dense, {}, s.threads);
    return grow_binned_forest(cuts, bins, y, weights, s, span);
}

HistForest grow_hist_forest(const QuantizedTable& store, const Vector& y, const Vector& weights,
                            const HistForestSetup& s) {
    if (s.tree.max_leaf_nodes > 0) throw InternalError("forest: the histogram trees grow level by level");
    if (s.rows_sharded) throw InternalError("forest: rows held quantized on rows spread over ranks");
    return grow_binned_forest(store.cuts(), store.bins(), y, weights, s, rows_over_ranks(false, store.bins().rows()));
}

std::vector<std::vector<char>> hist_in_bag(const HistForest& forest, const Vector& weights, const HistForestSetup& s) {
    std::vector<std::vector<char>> in_bag(forest.bag_seeds.size(), std::vector<char>(static_cast<std::size_t>(weights.size())));
    for (std::size_t t = 0; t < in_bag.size(); ++t)
        for (Index i = 0; i < weights.size(); ++i)
            in_bag[t][static_cast<std::size_t>(i)] =
                row_bag_count(forest.bag_seeds[t], forest.first_row + i, s.max_samples, s.bootstrap) * weights[i] > 0;
    return in_bag;
}

}  // namespace kestrel
