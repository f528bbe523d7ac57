#include "kestrel/tree/tree_builder.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <numeric>

#include "kestrel/core/error.hpp"
#include "kestrel/tree/frontier_queue.hpp"

namespace kestrel {
namespace {

// Values closer than this are not split apart (scikit-learn's FEATURE_THRESHOLD), so
// that a threshold halfway between them is a meaningful number.
constexpr double kFeatureThreshold = 1e-7;

}  // namespace

SortedColumns::SortedColumns(const DenseMatrix& X, int threads) : rows_(X.rows()), cols_(X.cols()) {
    if (rows_ > std::numeric_limits<int>::max()) throw UsageError("tree: more rows than a tree can index (2^31 - 1)");
    order_.resize(static_cast<std::size_t>(rows_ * cols_));
    values_.resize(order_.size());
#pragma omp parallel for schedule(dynamic) num_threads(std::max(1, threads))
    for (Index f = 0; f < cols_; ++f) {
        int* o = order_.data() + f * rows_;
        std::iota(o, o + rows_, 0);
        // Ties by row index: the order, and so the tree, never depends on the sort's luck.
        std::sort(o, o + rows_, [&](int a, int b) {
            const double xa = X(a, f), xb = X(b, f);
            return xa < xb || (xa == xb && a < b);
        });
        double* v = values_.data() + f * rows_;
        for (Index i = 0; i < rows_; ++i) v[i] = X(o[i], f);
    }
}

struct TreeBuilder::NodeStats {
    Index n = 0;
    double w = 0, wy = 0, wyy = 0;
    std::vector<double> counts;  // classification: weight per class
    double impurity = 0;
};

struct TreeBuilder::Split {
    Index feature = -1;
    Index pos = 0;  // first position (in the feature's range) of the right child
    double threshold = 0;
    double proxy = -std::numeric_limits<double>::infinity();
    double improvement = 0;
    bool valid() const { return feature >= 0; }
};

struct TreeBuilder::Frontier {
    int node = 0;
    Index begin = 0, end = 0;
    int depth = 0;
    Split split;
    NodeStats left, right;  // of the split, when valid
};

TreeBuilder::TreeBuilder(const DenseMatrix& X, const Vector& y, Index n_classes, const SortedColumns& sorted,
                         TreeParams params)
    : X_(X), y_(y), n_classes_(n_classes), sorted_(sorted), p_(params) {
    if (sorted.rows() != X.rows() || sorted.cols() != X.cols() || y.size() != X.rows())
        throw InternalError("tree builder: features, targets and sorted columns differ in shape");
    if ((n_classes_ > 0) != is_classification(p_.criterion))
        throw InternalError("tree builder: criterion does not match the task");
}

void TreeBuilder::gather_rows(std::span<const double> row_weights) {
    const Index n = X_.rows(), d = X_.cols();
    if (static_cast<Index>(row_weights.size()) != n) throw InternalError("tree builder: one weight per row expected");
    std::vector<int> local(static_cast<std::size_t>(n), -1);
    klass_.clear();
    target_.clear();
    weight_.clear();
    for (Index i = 0; i < n; ++i) {
        if (!(row_weights[i] > 0)) continue;
        local[i] = static_cast<int>(weight_.size());
        weight_.push_back(row_weights[i]);
        if (n_classes_ > 0)
            klass_.push_back(static_cast<int>(y_[i]));
        else
            target_.push_back(y_[i]);
    }
    m_ = static_cast<Index>(weight_.size());
    order_.resize(static_cast<std::size_t>(m_ * d));
    values_.resize(order_.size());
    for (Index f = 0; f < d; ++f) {
        const auto so = sorted_.order(f);
        const auto sv = sorted_.values(f);
        int* o = order_.data() + f * m_;
        double* v = values_.data() + f * m_;
        // Branch-free (a bootstrap leaves out a random third of the rows): every row is
        // written at the next slot, which advances only for a row in the sample; the
        // loop ends at the last of those, so no row is written past the column.
        Index k = 0;
        for (Index i = 0; i < n && k < m_; ++i) {
            const int p = local[static_cast<std::size_t>(so[i])];
            o[k] = p;
            v[k] = sv[i];
            k += p >= 0 ? 1 : 0;
        }
    }
    goes_left_.assign(static_cast<std::size_t>(m_), 0);
    tmp_order_.resize(static_cast<std::size_t>(m_));
    tmp_values_.resize(static_cast<std::size_t>(m_));
}

TreeBuilder::NodeStats TreeBuilder::stats_of(Index begin, Index end, Index feature) const {
    NodeStats s;
    s.n = end - begin;
    const int* o = order_.data() + feature * m_;
    if (n_classes_ > 0) {
        s.counts.assign(static_cast<std::size_t>(n_classes_), 0.0);
        for (Index i = begin; i < end; ++i) s.counts[static_cast<std::size_t>(klass_[o[i]])] += weight_[o[i]];
        for (double c : s.counts) s.w += c;
        s.impurity = class_impurity(p_.criterion, s.counts);
    } else {
        for (Index i = begin; i < end; ++i) {
            const double w = weight_[o[i]], y = target_[o[i]];
            s.w += w;
            s.wy += w * y;
            s.wyy += w * y * y;
        }
        s.impurity = variance_impurity(s.w, s.wy, s.wyy);
    }
    return s;
}

bool TreeBuilder::may_split(const NodeStats& s, int depth) const {
    return (p_.max_depth == 0 || depth < p_.max_depth) && s.n >= p_.min_samples_split &&
           s.n >= 2 * p_.min_samples_leaf && s.impurity > DBL_EPSILON;
}

// One pass over the node's rows in the feature's order, moving them one at a time
// from the right child to the left and scoring each boundary between distinct values.
void TreeBuilder::scan_feature(Index f, Index begin, Index end, const NodeStats& s, Split& best) const {
    const int* o = order_.data() + f * m_ + begin;
    const double* v = values_.data() + f * m_ + begin;
    const Index n = end - begin, min_leaf = p_.min_samples_leaf;
    double wl = 0;
    auto consider = [&](Index i, double proxy) {
        if (proxy > best.proxy) {
            best.proxy = proxy;
            best.feature = f;
            best.pos = begin + i + 1;
            double t = v[i] / 2.0 + v[i + 1] / 2.0;
            if (!(t < v[i + 1]) || !std::isfinite(t)) t = v[i];  // midpoint rounded up to the right value
            best.threshold = t;
        }
    };
    if (n_classes_ > 0) {
        std::vector<double> left(static_cast<std::size_t>(n_classes_), 0.0);
        const bool gini = p_.criterion == Criterion::gini;
        // gini: maximise Σ L_c²/W_L + Σ R_c²/W_R; entropy: maximise
        // Σ L_c ln L_c + Σ R_c ln R_c − W_L ln W_L − W_R ln W_R (both = −W_L I_L − W_R I_R + const).
        // Gini's sums are updated per row (exact for integer weights); entropy's are summed
        // from the counts at each candidate boundary, so that SparseTreeBuilder, which moves
        // a node's zeros as one block, finds the same numbers.
        double a_left = 0, a_right = 0;
        if (gini)
            for (double c : s.counts) a_right += c * c;
        for (Index i = 0; i + 1 < n; ++i) {
            const int p = o[i];
            const auto c = static_cast<std::size_t>(klass_[p]);
            const double w = weight_[p], l_old = left[c], r_old = s.counts[c] - l_old;
            if (gini) {
                a_left += w * (2 * l_old + w);
                a_right -= w * (2 * r_old - w);
            }
            left[c] = l_old + w;
            wl += w;
            const Index nl = i + 1;
            if (nl < min_leaf) continue;
            if (n - nl < min_leaf) break;
            if (v[i + 1] <= v[i] + kFeatureThreshold) continue;
            const double wr = s.w - wl;
            if (!(wr > 0) || !(wl > 0)) continue;
            if (!gini) entropy_sums(s.counts, left, a_left, a_right);
            consider(i, gini ? a_left / wl + a_right / wr : a_left + a_right - xlogx(wl) - xlogx(wr));
        }
    } else {
        // variance: maximise (Σ_L s y)²/W_L + (Σ_R s y)²/W_R.
        double wyl = 0;
        for (Index i = 0; i + 1 < n; ++i) {
            const int p = o[i];
            wl += weight_[p];
            wyl += weight_[p] * target_[p];
            const Index nl = i + 1;
            if (nl < min_leaf) continue;
            if (n - nl < min_leaf) break;
            if (v[i + 1] <= v[i] + kFeatureThreshold) continue;
            const double wr = s.w - wl, wyr = s.wy - wyl;
            if (!(wr > 0) || !(wl > 0)) continue;
            consider(i, wyl * wyl / wl + wyr * wyr / wr);
        }
    }
}

TreeBuilder::Split TreeBuilder::find_split(Index begin, Index end, const NodeStats& s, Rng& rng) {
    Split best;
    const Index d = X_.cols();
    auto constant = [&](Index f) {
        const double* v = values_.data() + f * m_;
        return v[end - 1] <= v[begin] + kFeatureThreshold;
    };
    if (p_.max_features == 0 || p_.max_features >= d) {
        for (Index f = 0; f < d; ++f)
            if (!constant(f)) scan_feature(f, begin, end, s, best);
        return best;
    }
    // Features drawn without replacement until max_features were looked at and at
    // least one of them was not constant in the node (as scikit-learn does).
    features_.resize(static_cast<std::size_t>(d));
    std::iota(features_.begin(), features_.end(), 0);
    Index visited = 0, non_constant = 0;
    for (Index i = 0; i < d && (visited < p_.max_features || non_constant == 0); ++i) {
        const Index j = i + static_cast<Index>(rng.below(static_cast<std::uint64_t>(d - i)));
        std::swap(features_[i], features_[j]);
        const Index f = features_[i];
        ++visited;
        if (constant(f)) continue;
        ++non_constant;
        scan_feature(f, begin, end, s, best);
    }
    return best;
}

void TreeBuilder::partition(Index begin, Index split_pos, Index end, Index feature) {
    const int* of = order_.data() + feature * m_;
    char* goes_left = goes_left_.data();
    for (Index i = begin; i < end; ++i) goes_left[of[i]] = i < split_pos ? 1 : 0;
    int* tmp_o = tmp_order_.data();
    double* tmp_v = tmp_values_.data();
    for (Index f = 0; f < X_.cols(); ++f) {
        if (f == feature) continue;
        int* o = order_.data() + f * m_;
        double* v = values_.data() + f * m_;
        // A feature constant here is constant in every descendant and never scanned
        // again there: its rows need not be sorted into the children.
        if (v[end - 1] <= v[begin] + kFeatureThreshold) continue;
        // Branch-free: in another feature's order the rows go left or right at random, and
        // a branch on it mispredicted half the time (this loop was half of a forest's fit).
        // Each row is written to both sides; only its own side's position advances. o[l]
        // is at or before o[i], so the left rows stay in place.
        Index l = begin, r = 0;
        for (Index i = begin; i < end; ++i) {
            const int p = o[i];
            const double x = v[i];
            const Index left = goes_left[p];
            o[l] = p;
            v[l] = x;
            tmp_o[r] = p;
            tmp_v[r] = x;
            l += left;
            r += 1 - left;
        }
        std::copy(tmp_o, tmp_o + r, o + l);
        std::copy(tmp_v, tmp_v + r, v + l);
    }
}

void TreeBuilder::build(std::span<const double> row_weights, Rng& rng, Tree& tree) {
    gather_rows(row_weights);
    if (m_ == 0) throw DataError("tree: no training row has a positive weight");
    tree.reset(X_.cols(), n_classes_ > 0 ? n_classes_ : 1);

    auto add_node = [&](const NodeStats& s) {
        TreeNode node;
        node.impurity = s.impurity;
        node.weight = s.w;
        node.samples = s.n;
        if (n_classes_ > 0) return tree.add_node(node, s.counts.data());
        const double mean = s.wy / s.w;
        return tree.add_node(node, &mean);
    };
    // A node is added as a leaf; its best split (if any passes the limits) is kept
    // in the frontier and applied when the node is taken out.
    auto make = [&](Index begin, Index end, int depth, const NodeStats& s) {
        Frontier fr;
        fr.node = add_node(s);
        fr.begin = begin;
        fr.end = end;
        fr.depth = depth;
        if (!may_split(s, depth)) return fr;
        Split sp = find_split(begin, end, s, rng);
        if (!sp.valid()) return fr;
        NodeStats l = stats_of(begin, sp.pos, sp.feature), r = stats_of(sp.pos, end, sp.feature);
        sp.improvement = (s.w / root_weight_) * (s.impurity - l.w / s.w * l.impurity - r.w / s.w * r.impurity);
        if (sp.improvement + DBL_EPSILON < p_.min_impurity_decrease) return fr;
        fr.split = sp;
        fr.left = std::move(l);
        fr.right = std::move(r);
        return fr;
    };

    const NodeStats root = stats_of(0, m_, 0);
    root_weight_ = root.w;
    FrontierQueue<Frontier> frontier(p_.max_leaf_nodes);
    frontier.push(make(0, m_, 0, root));
    Frontier fr;
    while (frontier.pop(fr)) {
        const Split& sp = fr.split;
        // Partition only when a child may split again: the last level is free.
        if (may_split(fr.left, fr.depth + 1) || may_split(fr.right, fr.depth + 1))
            partition(fr.begin, sp.pos, fr.end, sp.feature);
        Frontier left = make(fr.begin, sp.pos, fr.depth + 1, fr.left);
        Frontier right = make(sp.pos, fr.end, fr.depth + 1, fr.right);
        TreeNode& parent = tree.node(fr.node);
        parent.feature = static_cast<int>(sp.feature);
        parent.threshold = sp.threshold;
        parent.left = left.node;
        parent.right = right.node;
        // Depth-first pops the left child next.
        frontier.push(std::move(right));
        frontier.push(std::move(left));
    }
}

}  // namespace kestrel
