#include "kestrel/tree/sparse_tree_builder.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <numeric>

#include "kestrel/core/error.hpp"
#include "kestrel/tree/frontier_queue.hpp"
#include "kestrel/core/memory.hpp"

namespace kestrel {
namespace {

constexpr double kFeatureThreshold = 1e-7;  // as TreeBuilder (scikit-learn's FEATURE_THRESHOLD)

}  // namespace

SparseColumns::SparseColumns(const SparseMatrix& X, int threads) : X_(&X), rows_(X.rows()), cols_(X.cols()) {
    if (rows_ > std::numeric_limits<int>::max()) throw UsageError("tree: more rows than a tree can index (2^31 - 1)");
    // The column index and the builder keep a few words per feature (column starts, the
    // candidate list, the node's feature marks, the importances) and about 20 bytes per
    // stored value: one huge LIBSVM index must fail here, not under the out-of-memory killer.
    const double bytes = 32.0 * static_cast<double>(cols_ + 1) + 20.0 * static_cast<double>(X.nonZeros());
    const std::string what = "tree: indexing " + std::to_string(rows_) + " rows x " + std::to_string(cols_) +
                             " features by column";
    if (bytes >= 0x1p62) throw DataError(what + " needs more than 4 EB of memory");
    check_memory(static_cast<std::uint64_t>(bytes), 0, what);
    start_.assign(static_cast<std::size_t>(cols_ + 1), 0);
    for (Index i = 0; i < rows_; ++i)
        for (SparseMatrix::InnerIterator it(X, i); it; ++it)
            if (it.value() != 0) ++start_[static_cast<std::size_t>(it.col() + 1)];
    for (Index f = 0; f < cols_; ++f) start_[f + 1] += start_[f];
    const std::size_t nnz = start_.back();
    rows_by_index_.resize(nnz);
    sorted_values_.resize(nnz);  // by row first, sorted per column below
    std::vector<std::size_t> fill(start_.begin(), start_.end() - 1);
    for (Index i = 0; i < rows_; ++i)
        for (SparseMatrix::InnerIterator it(X, i); it; ++it) {
            if (it.value() == 0) continue;
            const std::size_t k = fill[static_cast<std::size_t>(it.col())]++;
            rows_by_index_[k] = static_cast<int>(i);
            sorted_values_[k] = it.value();
        }
    sorted_rows_.resize(nnz);
    position_of_.resize(nnz);
#pragma omp parallel num_threads(std::max(1, threads))
    {
        std::vector<int> idx;
        std::vector<double> by_row;
#pragma omp for schedule(dynamic, 64)
        for (Index f = 0; f < cols_; ++f) {
            const std::size_t b = start_[f], n = start_[f + 1] - b;
            idx.resize(n);
            std::iota(idx.begin(), idx.end(), 0);
            const double* v = sorted_values_.data() + b;
            // Entries are by increasing row, so index order breaks ties by row.
            std::sort(idx.begin(), idx.end(), [&](int a, int c) { return v[a] < v[c] || (v[a] == v[c] && a < c); });
            by_row.assign(v, v + n);
            for (std::size_t k = 0; k < n; ++k) {
                const auto j = static_cast<std::size_t>(idx[k]);
                sorted_rows_[b + k] = rows_by_index_[b + j];
                sorted_values_[b + k] = by_row[j];
                position_of_[b + j] = static_cast<int>(k);
            }
        }
    }
}

struct SparseTreeBuilder::NodeStats {
    Index n = 0;
    double w = 0, wy = 0, wyy = 0;
    std::vector<double> counts;
    double impurity = 0;
};

struct SparseTreeBuilder::Split {
    Index feature = -1;
    double threshold = 0;
    double proxy = -std::numeric_limits<double>::infinity();
    double improvement = 0;
    bool valid() const { return feature >= 0; }
};

struct SparseTreeBuilder::Frontier {
    int node = 0;
    Index begin = 0, end = 0;
    int depth = 0;
    Split split;
    NodeStats left, right;
};

SparseTreeBuilder::SparseTreeBuilder(const SparseColumns& columns, const Vector& y, Index n_classes, TreeParams params)
    : cols_(columns), y_(y), n_classes_(n_classes), p_(params) {
    if (y.size() != columns.rows()) throw InternalError("sparse tree builder: features and targets differ in rows");
    if ((n_classes_ > 0) != is_classification(p_.criterion))
        throw InternalError("sparse tree builder: criterion does not match the task");
}

void SparseTreeBuilder::gather_rows(std::span<const double> row_weights) {
    const Index n = cols_.rows();
    if (static_cast<Index>(row_weights.size()) != n) throw InternalError("tree builder: one weight per row expected");
    local_of_.assign(static_cast<std::size_t>(n), -1);
    global_of_.clear();
    klass_.clear();
    target_.clear();
    weight_.clear();
    for (Index i = 0; i < n; ++i) {
        if (!(row_weights[i] > 0)) continue;
        local_of_[static_cast<std::size_t>(i)] = static_cast<int>(weight_.size());
        global_of_.push_back(static_cast<int>(i));
        weight_.push_back(row_weights[i]);
        if (n_classes_ > 0)
            klass_.push_back(static_cast<int>(y_[i]));
        else
            target_.push_back(y_[i]);
    }
    m_ = static_cast<Index>(weight_.size());
    rows_.resize(static_cast<std::size_t>(m_));
    std::iota(rows_.begin(), rows_.end(), 0);
    mark_.assign(static_cast<std::size_t>(m_), -1);
    nonzero_.assign(static_cast<std::size_t>(m_), 0);
    goes_left_.assign(static_cast<std::size_t>(m_), 0);
    tmp_.resize(static_cast<std::size_t>(m_));
    present_.assign(static_cast<std::size_t>(cols_.cols()), -1);
    features_.resize(static_cast<std::size_t>(cols_.cols()));
    std::iota(features_.begin(), features_.end(), 0);
    stamp_ = 0;
}

void SparseTreeBuilder::mark_node(Index begin, Index end) {
    ++stamp_;
    for (Index i = begin; i < end; ++i) mark_[static_cast<std::size_t>(rows_[static_cast<std::size_t>(i)])] = stamp_;
}

// The node's nonzero entries of column f by (value, row); the node must be marked.
void SparseTreeBuilder::extract(Index f, Index begin, Index end, std::vector<Entry>& out) {
    out.clear();
    const std::size_t nnz = cols_.nnz(f);
    if (nnz == 0) return;
    const auto node_rows = static_cast<std::size_t>(end - begin);
    const auto rows = cols_.sorted_rows(f);
    const auto values = cols_.sorted_values(f);
    // A walk costs nnz; a binary search per node row about rows · log2(nnz).
    if (nnz <= node_rows * static_cast<std::size_t>(1 + std::log2(static_cast<double>(nnz)))) {
        for (std::size_t k = 0; k < nnz; ++k) {
            const int l = local_of_[static_cast<std::size_t>(rows[k])];
            if (l >= 0 && mark_[static_cast<std::size_t>(l)] == stamp_) out.push_back({l, values[k]});
        }
        return;
    }
    const auto by_index = cols_.rows_by_index(f);
    const auto pos = cols_.position_of(f);
    positions_.clear();
    for (Index i = begin; i < end; ++i) {
        const int g = global_of_[static_cast<std::size_t>(rows_[static_cast<std::size_t>(i)])];
        const auto it = std::lower_bound(by_index.begin(), by_index.end(), g);
        if (it != by_index.end() && *it == g)
            positions_.push_back(pos[static_cast<std::size_t>(it - by_index.begin())]);
    }
    std::sort(positions_.begin(), positions_.end());
    for (int k : positions_)
        out.push_back({local_of_[static_cast<std::size_t>(rows[static_cast<std::size_t>(k)])],
                       values[static_cast<std::size_t>(k)]});
}

// The node's rows in column f's sorted order: negatives, zeros (by row), positives.
// The node must be marked.
void SparseTreeBuilder::feature_order(Index f, Index begin, Index end, std::vector<int>& out) {
    extract(f, begin, end, entries_);
    out.clear();
    std::size_t k = 0;
    for (; k < entries_.size() && entries_[k].value < 0; ++k) out.push_back(entries_[k].local);
    for (const Entry& e : entries_) nonzero_[static_cast<std::size_t>(e.local)] = 1;
    for (Index i = begin; i < end; ++i) {
        const int l = rows_[static_cast<std::size_t>(i)];
        if (!nonzero_[static_cast<std::size_t>(l)]) out.push_back(l);
    }
    for (const Entry& e : entries_) nonzero_[static_cast<std::size_t>(e.local)] = 0;
    for (; k < entries_.size(); ++k) out.push_back(entries_[k].local);
}

SparseTreeBuilder::NodeStats SparseTreeBuilder::stats_of(std::span<const int> locals) const {
    NodeStats s;
    s.n = static_cast<Index>(locals.size());
    if (n_classes_ > 0) {
        s.counts.assign(static_cast<std::size_t>(n_classes_), 0.0);
        for (int l : locals) s.counts[static_cast<std::size_t>(klass_[l])] += weight_[l];
        for (double c : s.counts) s.w += c;
        s.impurity = class_impurity(p_.criterion, s.counts);
    } else {
        for (int l : locals) {
            const double w = weight_[l], y = target_[l];
            s.w += w;
            s.wy += w * y;
            s.wyy += w * y * y;
        }
        s.impurity = variance_impurity(s.w, s.wy, s.wyy);
    }
    return s;
}

bool SparseTreeBuilder::may_split(const NodeStats& s, int depth) const {
    return (p_.max_depth == 0 || depth < p_.max_depth) && s.n >= p_.min_samples_split &&
           s.n >= 2 * p_.min_samples_leaf && s.impurity > DBL_EPSILON;
}

// The scan of TreeBuilder::scan_feature over groups: each nonzero entry alone, and the
// node's zeros as one group (its class weights are the node's minus the nonzeros').
// Returns false, scanning nothing, when the feature is constant in the node.
bool SparseTreeBuilder::scan_feature(Index f, Index begin, Index end, const NodeStats& s, Split& best) {
    if (present_[static_cast<std::size_t>(f)] != stamp_) return false;  // all zero in the node
    extract(f, begin, end, entries_);
    const Index n = end - begin, nnz = static_cast<Index>(entries_.size()), zeros = n - nnz;
    std::size_t neg = 0;
    while (neg < entries_.size() && entries_[neg].value < 0) ++neg;
    const double lo = neg > 0 ? entries_.front().value : (zeros > 0 ? 0.0 : entries_.front().value);
    const double hi = neg < entries_.size() ? entries_.back().value : (zeros > 0 ? 0.0 : entries_.back().value);
    if (hi <= lo + kFeatureThreshold) return false;

    // Groups in order: entries [0, neg), the zero block (if any), entries [neg, nnz).
    const Index groups = nnz + (zeros > 0 ? 1 : 0);
    auto group_value = [&](Index g) {
        if (g < static_cast<Index>(neg)) return entries_[static_cast<std::size_t>(g)].value;
        if (zeros > 0) return g == static_cast<Index>(neg) ? 0.0 : entries_[static_cast<std::size_t>(g - 1)].value;
        return entries_[static_cast<std::size_t>(g)].value;
    };
    auto group_entry = [&](Index g) -> const Entry* {  // null for the zero block
        if (g < static_cast<Index>(neg)) return &entries_[static_cast<std::size_t>(g)];
        if (zeros > 0) return g == static_cast<Index>(neg) ? nullptr : &entries_[static_cast<std::size_t>(g - 1)];
        return &entries_[static_cast<std::size_t>(g)];
    };
    auto consider = [&](double proxy, double v, double v_next) {
        if (proxy > best.proxy) {
            best.proxy = proxy;
            best.feature = f;
            double t = v / 2.0 + v_next / 2.0;
            if (!(t < v_next) || !std::isfinite(t)) t = v;
            best.threshold = t;
        }
    };
    const Index min_leaf = p_.min_samples_leaf;
    double wl = 0;
    Index nl = 0;
    if (n_classes_ > 0) {
        const auto k = static_cast<std::size_t>(n_classes_);
        std::vector<double> zero_counts(s.counts), left(k, 0.0);
        double zero_w = s.w;
        for (const Entry& e : entries_) {
            zero_counts[static_cast<std::size_t>(klass_[e.local])] -= weight_[e.local];
            zero_w -= weight_[e.local];
        }
        const bool gini = p_.criterion == Criterion::gini;
        double a_left = 0, a_right = 0;  // as TreeBuilder::scan_feature
        if (gini)
            for (double c : s.counts) a_right += c * c;
        for (Index g = 0; g + 1 < groups; ++g) {
            const Entry* e = group_entry(g);
            if (e) {
                const auto c = static_cast<std::size_t>(klass_[e->local]);
                const double w = weight_[e->local], l_old = left[c], r_old = s.counts[c] - l_old;
                if (gini) {
                    a_left += w * (2 * l_old + w);
                    a_right -= w * (2 * r_old - w);
                }
                left[c] = l_old + w;
                wl += w;
                ++nl;
            } else {
                for (std::size_t c = 0; c < k; ++c) {
                    const double z = zero_counts[c];
                    if (z == 0) continue;
                    const double l_old = left[c], r_old = s.counts[c] - l_old;
                    if (gini) {
                        a_left += z * (2 * l_old + z);
                        a_right -= z * (2 * r_old - z);
                    }
                    left[c] = l_old + z;
                }
                wl += zero_w;
                nl += zeros;
            }
            if (nl < min_leaf) continue;
            if (n - nl < min_leaf) break;
            const double v = group_value(g), v_next = group_value(g + 1);
            if (v_next <= v + kFeatureThreshold) continue;
            const double wr = s.w - wl;
            if (!(wr > 0) || !(wl > 0)) continue;
            if (!gini) entropy_sums(s.counts, left, a_left, a_right);
            consider(gini ? a_left / wl + a_right / wr : a_left + a_right - xlogx(wl) - xlogx(wr), v, v_next);
        }
    } else {
        double zero_w = s.w, zero_wy = s.wy;
        for (const Entry& e : entries_) {
            zero_w -= weight_[e.local];
            zero_wy -= weight_[e.local] * target_[e.local];
        }
        double wyl = 0;
        for (Index g = 0; g + 1 < groups; ++g) {
            const Entry* e = group_entry(g);
            if (e) {
                wl += weight_[e->local];
                wyl += weight_[e->local] * target_[e->local];
                ++nl;
            } else {
                wl += zero_w;
                wyl += zero_wy;
                nl += zeros;
            }
            if (nl < min_leaf) continue;
            if (n - nl < min_leaf) break;
            const double v = group_value(g), v_next = group_value(g + 1);
            if (v_next <= v + kFeatureThreshold) continue;
            const double wr = s.w - wl, wyr = s.wy - wyl;
            if (!(wr > 0) || !(wl > 0)) continue;
            consider(wyl * wyl / wl + wyr * wyr / wr, v, v_next);
        }
    }
    return true;
}

SparseTreeBuilder::Split SparseTreeBuilder::find_split(Index begin, Index end, const NodeStats& s, Rng& rng) {
    Split best;
    const Index d = cols_.cols();
    mark_node(begin, end);
    // The columns with a nonzero in the node's rows; every other column is all zero here.
    const SparseMatrix& X = cols_.rows_matrix();
    present_list_.clear();
    for (Index i = begin; i < end; ++i) {
        const int g = global_of_[static_cast<std::size_t>(rows_[static_cast<std::size_t>(i)])];
        for (SparseMatrix::InnerIterator it(X, g); it; ++it) {
            auto& mark = present_[static_cast<std::size_t>(it.col())];
            if (mark == stamp_) continue;
            mark = stamp_;
            present_list_.push_back(static_cast<int>(it.col()));
        }
    }
    if (p_.max_features == 0 || p_.max_features >= d) {
        std::sort(present_list_.begin(), present_list_.end());  // column order, as TreeBuilder scans
        for (int f : present_list_) scan_feature(f, begin, end, s, best);
        return best;
    }
    // The draws of TreeBuilder::find_split, in the same order, on a permutation that is
    // the identity between nodes: only the positions a node touched are reset, so a
    // node costs its draws, not the column count.
    touched_.clear();
    Index visited = 0, non_constant = 0;
    for (Index i = 0; i < d && (visited < p_.max_features || non_constant == 0); ++i) {
        const Index j = i + static_cast<Index>(rng.below(static_cast<std::uint64_t>(d - i)));
        std::swap(features_[static_cast<std::size_t>(i)], features_[static_cast<std::size_t>(j)]);
        touched_.push_back(static_cast<int>(i));
        touched_.push_back(static_cast<int>(j));
        ++visited;
        if (scan_feature(features_[static_cast<std::size_t>(i)], begin, end, s, best)) ++non_constant;
    }
    for (int k : touched_) features_[static_cast<std::size_t>(k)] = k;
    return best;
}

void SparseTreeBuilder::build(std::span<const double> row_weights, Rng& rng, Tree& tree) {
    gather_rows(row_weights);
    if (m_ == 0) throw DataError("tree: no training row has a positive weight");
    tree.reset(cols_.cols(), n_classes_ > 0 ? n_classes_ : 1);

    auto add_node = [&](const NodeStats& s) {
        TreeNode node;
        node.impurity = s.impurity;
        node.weight = s.w;
        node.samples = s.n;
        if (n_classes_ > 0) return tree.add_node(node, s.counts.data());
        const double mean = s.wy / s.w;
        return tree.add_node(node, &mean);
    };
    auto make = [&](Index begin, Index end, int depth, const NodeStats& s) {
        Frontier fr;
        fr.node = add_node(s);
        fr.begin = begin;
        fr.end = end;
        fr.depth = depth;
        if (!may_split(s, depth)) return fr;
        Split sp = find_split(begin, end, s, rng);
        if (!sp.valid()) return fr;
        // The children's sums in the feature's sorted order, as TreeBuilder adds them.
        feature_order(sp.feature, begin, end, order_);
        // Rows with value <= threshold come first in the sorted order.
        std::size_t nl = 0;
        for (const Entry& e : entries_)
            if (e.value <= sp.threshold) ++nl;
        if (0 <= sp.threshold) nl += static_cast<std::size_t>((end - begin) - static_cast<Index>(entries_.size()));
        const std::span<const int> all(order_);
        NodeStats l = stats_of(all.first(nl)), r = stats_of(all.subspan(nl));
        sp.improvement = (s.w / root_weight_) * (s.impurity - l.w / s.w * l.impurity - r.w / s.w * r.impurity);
        if (sp.improvement + DBL_EPSILON < p_.min_impurity_decrease) return fr;
        fr.split = sp;
        fr.left = std::move(l);
        fr.right = std::move(r);
        return fr;
    };

    mark_node(0, m_);
    feature_order(0, 0, m_, order_);
    const NodeStats root = stats_of(order_);
    root_weight_ = root.w;
    FrontierQueue<Frontier> frontier(p_.max_leaf_nodes);
    frontier.push(make(0, m_, 0, root));
    Frontier fr;
    while (frontier.pop(fr)) {
        const Split& sp = fr.split;
        // Stable partition of the node's rows (kept increasing) by the split.
        const Index mid = fr.begin + fr.left.n;
        if (may_split(fr.left, fr.depth + 1) || may_split(fr.right, fr.depth + 1)) {
            mark_node(fr.begin, fr.end);
            extract(sp.feature, fr.begin, fr.end, entries_);
            const char zero_left = 0 <= sp.threshold ? 1 : 0;
            for (Index i = fr.begin; i < fr.end; ++i)
                goes_left_[static_cast<std::size_t>(rows_[static_cast<std::size_t>(i)])] = zero_left;
            for (const Entry& e : entries_) goes_left_[static_cast<std::size_t>(e.local)] = e.value <= sp.threshold;
            Index l = fr.begin, r = 0;
            for (Index i = fr.begin; i < fr.end; ++i) {
                const int p = rows_[static_cast<std::size_t>(i)];
                if (goes_left_[static_cast<std::size_t>(p)])
                    rows_[static_cast<std::size_t>(l++)] = p;
                else
                    tmp_[static_cast<std::size_t>(r++)] = p;
            }
            std::copy(tmp_.begin(), tmp_.begin() + r, rows_.begin() + l);
            if (l != mid) throw InternalError("sparse tree builder: partition disagrees with the split's counts");
        }
        Frontier left = make(fr.begin, mid, fr.depth + 1, fr.left);
        Frontier right = make(mid, fr.end, fr.depth + 1, fr.right);
        TreeNode& parent = tree.node(fr.node);
        parent.feature = static_cast<int>(sp.feature);
        parent.threshold = sp.threshold;
        parent.left = left.node;
        parent.right = right.node;
        frontier.push(std::move(right));
        frontier.push(std::move(left));
    }
}

}  // namespace kestrel
