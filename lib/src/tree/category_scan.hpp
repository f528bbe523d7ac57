#pragma once
// The categorical split search of the dense column store (category_scan.cpp), over the
// node's categories as groups of rows: from the rows in sorted order, or from a ranked
// column's counts per category (dense_columns.cpp).
#include <algorithm>
#include <numeric>
#include <vector>

#include "split_scan.hpp"

namespace kestrel {

// A run of the node's rows, in the feature's sorted order, with one code (−1: missing);
// bucket: the rank it was counted in (counted scans).
struct CategoryGroup {
    Index begin = 0, end = 0;
    int code = -1;
    int bucket = 0;
    double w = 0;
};

// stat[g] for ordering: (S_g + s·S_node / W_node) / (W_g + s), S being the weight of
// class c, or the weighted target sum; s = cat_smooth shrinks a small category's
// statistic toward the node's.
inline void smoothed(const std::vector<CategoryGroup>& groups, const std::vector<double>& sums, double node_sum,
                     double node_w, double smooth, std::vector<double>& stat) {
    stat.resize(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g)
        stat[g] = (sums[g] + smooth * node_sum / node_w) / (groups[g].w + smooth);
}

// The scratch of one thread's scans, kept between nodes.
struct CategoryScratch {
    std::vector<CategoryGroup> groups;
    std::vector<double> sums, stat;
    std::vector<std::size_t> rank;
};

inline CategoryScratch& category_scratch() {
    thread_local CategoryScratch scratch;
    return scratch;
}

// The best set of categories to send left, into `best`. sum_of(group, class) is the
// group's weight of that class (classification) or its weighted target sum;
// add_group(scan, group) moves the group's rows to the scan's left side.
template <class Scan, class SumOf, class AddGroup>
void best_category_split(const ScanInputs& in, Index f, Index begin, Index end, Index n_categories,
                         const std::vector<CategoryGroup>& groups, SumOf sum_of, AddGroup add_group, Split& best) {
    if (groups.size() < 2) return;
    CategoryScratch& scratch = category_scratch();
    // One order per statistic: the mean target, class 1's share (two classes), or each
    // class's share.
    const bool classification = !in.node.counts.empty();
    const auto n_classes = static_cast<Index>(in.node.counts.size());
    const Index orders = !classification ? 1 : (n_classes == 2 ? 1 : n_classes);
    std::vector<double>& sums = scratch.sums;
    std::vector<std::size_t>& rank = scratch.rank;
    sums.resize(groups.size());
    rank.resize(groups.size());
    for (Index c = 0; c < orders; ++c) {
        const Index cls = n_classes == 2 ? 1 : c;
        for (std::size_t g = 0; g < groups.size(); ++g) sums[g] = sum_of(groups[g], cls);
        const double node_sum = classification ? in.node.counts[static_cast<std::size_t>(cls)] : in.node.wy;
        smoothed(groups, sums, node_sum, in.node.w, in.cat_smooth, scratch.stat);
        const std::vector<double>& stat = scratch.stat;
        // Ties by code, missing last: groups are already in that order.
        std::iota(rank.begin(), rank.end(), std::size_t{0});
        std::stable_sort(rank.begin(), rank.end(), [&](std::size_t a, std::size_t b) { return stat[a] < stat[b]; });

        const double before = best.proxy;
        Scan scan(in, f, begin, end, best);
        Index nl = 0;
        for (std::size_t r = 0; r + 1 < rank.size(); ++r) {
            const CategoryGroup& g = groups[rank[r]];
            add_group(scan, g);
            nl += g.end - g.begin;
            if (!scan.score(nl, 0.0, 1.0)) break;
        }
        if (!(best.proxy > before)) continue;
        // The best prefix of this order, as sides per code. When it holds the missing rows
        // alone, its complement is sent left instead, so that a left set is never empty.
        const Index left_rows = best.pos - begin;
        std::vector<signed char> side(static_cast<std::size_t>(n_categories), -1);
        bool missing_left = false, saw_missing = false;
        Index cum = 0;
        for (std::size_t r : rank) {
            const CategoryGroup& g = groups[r];
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

}  // namespace kestrel
