// The split scan of a categorical feature (docs/models/tree.md "Categorical features"):
// the node's categories, and its missing rows as one more, are put in order of a
// statistic, and every prefix of that order is scored as the left child. For squared
// error ordered by the mean target, and for two classes by the share of class 1, the
// best prefix is the best of all 2^(g-1) partitions (Fisher 1958; Breiman et al. 1984,
// 9.4). With more classes there is no such order: each class's share gives one order
// (one class against the rest), and the best prefix over them is kept.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "dense_columns.hpp"

namespace kestrel {
namespace {

// A run of the node's rows, in the feature's sorted order, with one code (−1: missing).
struct Group {
    Index begin = 0, end = 0;
    int code = -1;
    double w = 0;
};

// stat[g] for ordering: (S_g + s·S_node / W_node) / (W_g + s), S being the weight of
// class c, or the weighted target sum; s = cat_smooth shrinks a small category's
// statistic toward the node's.
std::vector<double> smoothed(const std::vector<Group>& groups, const std::vector<double>& sums, double node_sum,
                             double node_w, double smooth) {
    std::vector<double> stat(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g)
        stat[g] = (sums[g] + smooth * node_sum / node_w) / (groups[g].w + smooth);
    return stat;
}

}  // namespace

template <class Scan>
void DenseColumnStore::scan_categories(const ScanInputs& in, Index f, Index begin, Index end, Split& best) const {
    const int* o = order_.data() + f * m_ + begin;
    const double* v = values_.data() + f * m_ + begin;
    const Index n = end - begin;
    const double* weight = in.sample.weight.data();
    std::vector<Group> groups;
    for (Index i = 0; i < n;) {
        Group g;
        g.begin = i;
        g.code = std::isnan(v[i]) ? -1 : static_cast<int>(v[i]);
        for (; i < n && (g.code < 0 ? std::isnan(v[i]) : v[i] == v[g.begin]); ++i) g.w += weight[o[i]];
        g.end = i;
        groups.push_back(g);
    }
    if (groups.size() < 2) return;

    // One order per statistic: the mean target, class 1's share (two classes), or each
    // class's share.
    const bool classification = !in.node.counts.empty();
    const auto n_classes = static_cast<Index>(in.node.counts.size());
    const Index orders = !classification ? 1 : (n_classes == 2 ? 1 : n_classes);
    std::vector<double> sums(groups.size());
    std::vector<std::size_t> rank(groups.size());
    for (Index c = 0; c < orders; ++c) {
        const Index cls = n_classes == 2 ? 1 : c;
        for (std::size_t g = 0; g < groups.size(); ++g) {
            double s = 0;
            for (Index i = groups[g].begin; i < groups[g].end; ++i) {
                const int l = o[i];
                s += classification ? (in.sample.klass[static_cast<std::size_t>(l)] == cls ? weight[l] : 0.0)
                                    : weight[l] * in.sample.target[static_cast<std::size_t>(l)];
            }
            sums[g] = s;
        }
        const double node_sum = classification ? in.node.counts[static_cast<std::size_t>(cls)] : in.node.wy;
        const std::vector<double> stat = smoothed(groups, sums, node_sum, in.node.w, in.cat_smooth);
        // Ties by code, missing last: groups are already in that order.
        std::iota(rank.begin(), rank.end(), std::size_t{0});
        std::stable_sort(rank.begin(), rank.end(), [&](std::size_t a, std::size_t b) { return stat[a] < stat[b]; });

        const double before = best.proxy;
        Scan scan(in, f, begin, end, best);
        Index nl = 0;
        for (std::size_t r = 0; r + 1 < rank.size(); ++r) {
            const Group& g = groups[rank[r]];
            for (Index i = g.begin; i < g.end; ++i) scan.add(o[i]);
            nl += g.end - g.begin;
            if (!scan.score(nl, 0.0, 1.0)) break;
        }
        if (!(best.proxy > before)) continue;
        // The best prefix of this order, as sides per code. When it holds the missing rows
        // alone, its complement is sent left instead, so that a left set is never empty.
        const Index left_rows = best.pos - begin;
        std::vector<signed char> side(static_cast<std::size_t>(sorted_.categories(f)), -1);
        bool missing_left = false, saw_missing = false;
        Index cum = 0;
        for (std::size_t r : rank) {
            const Group& g = groups[r];
            const bool left = cum < left_rows;
            cum += g.end - g.begin;
            if (g.code < 0) {
                saw_missing = true;
                missing_left = left;
            } else {
                side[static_cast<std::size_t>(g.code)] = left ? 1 : 0;
            }
        }
        if (missing_left && std::none_of(side.begin(), side.end(), [](signed char s) { return s == 1; })) {
            for (signed char& s : side)
                if (s == 0) s = 1;
            missing_left = false;
        }
        best.category_side = std::move(side);
        best.saw_missing = saw_missing;
        best.missing_left = missing_left;
        best.threshold = 0;
    }
}

template void DenseColumnStore::scan_categories<ClassScan<Criterion::gini>>(const ScanInputs&, Index, Index, Index,
                                                                            Split&) const;
template void DenseColumnStore::scan_categories<ClassScan<Criterion::entropy>>(const ScanInputs&, Index, Index, Index,
                                                                               Split&) const;
template void DenseColumnStore::scan_categories<VarianceScan>(const ScanInputs&, Index, Index, Index, Split&) const;

}  // namespace kestrel
