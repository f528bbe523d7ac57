// The split scan of a ranked column (dense_columns.hpp) from counts: one pass over the
// node's rows adds each row's weight to its (rank, class) cell, and the boundaries
// between ranks are scored from those cells, as a sorted scan scores them between runs
// of equal values. With whole-number weights every partial sum is exact, so the scores,
// and the split chosen, are those of the sorted scan (whose order would cost a sort).
#include <cmath>
#include <limits>
#include <vector>

#include "category_scan.hpp"
#include "dense_columns.hpp"

namespace kestrel {

template <class Scan>
bool DenseColumnStore::scan_counts(const ScanInputs& in, Index f, Index begin, Index end, Split& best) {
    const Index k = sorted_.ranks(f), n = end - begin;
    const auto classes = static_cast<Index>(in.node.counts.size());
    const std::uint8_t* rank = rank_.data() + f * m_;
    const int* rows = rows_.data() + begin;
    const int* klass = in.sample.klass.data();
    const double* weight = in.sample.weight.data();
    // Rows go to kParts copies of the cells in turn, added up at the end: rows of one
    // cell in a row would otherwise make every addition wait for the one before.
    constexpr Index kParts = 4;
    const Index parts = n >= 16 * kParts ? kParts : 1;
    counted_w_.assign(static_cast<std::size_t>(parts * k * classes), 0.0);
    counted_n_.assign(static_cast<std::size_t>(parts * k), 0);
    double* cw = counted_w_.data();
    int* cn = counted_n_.data();
    const auto count = [&](Index part, Index i) {
        const int row = rows[i];
        const Index r = part * k + rank[row];
        cw[r * classes + klass[row]] += weight[row];
        ++cn[r];
    };
    Index i = 0;
    if (parts == kParts)
        for (; i + kParts <= n; i += kParts)
            for (Index q = 0; q < kParts; ++q) count(q, i + q);
    for (; i < n; ++i) count(0, i);
    for (Index q = 1; q < parts; ++q) {
        for (Index c = 0; c < k * classes; ++c) cw[c] += cw[q * k * classes + c];
        for (Index r = 0; r < k; ++r) cn[r] += cn[q * k + r];
    }
    nonempty_.clear();
    for (Index r = 0; r < k; ++r)
        if (cn[r] > 0) nonempty_.push_back(static_cast<int>(r));
    const double* value = sorted_.rank_values(f).data();
    // constant(): all missing, or the observed values within kFeatureThreshold and none missing.
    const bool missing = std::isnan(value[nonempty_.back()]);
    if (nonempty_.size() == 1 ||
        (!missing && value[nonempty_.back()] <= value[nonempty_.front()] + kFeatureThreshold))
        return false;
    const auto cells = [&](int r) { return cw + r * classes; };

    if (sorted_.categories(f) > 0) {
        std::vector<CategoryGroup>& groups = category_scratch().groups;
        groups.clear();
        Index at = 0;
        for (int r : nonempty_) {
            CategoryGroup g;
            g.begin = at;
            g.end = at += cn[r];
            g.code = std::isnan(value[r]) ? -1 : static_cast<int>(value[r]);
            g.bucket = r;
            for (Index c = 0; c < classes; ++c) g.w += cells(r)[c];
            groups.push_back(g);
        }
        best_category_split<Scan>(
            in, f, begin, end, sorted_.categories(f), groups,
            [&](const CategoryGroup& g, Index cls) { return cells(g.bucket)[cls]; },
            [&](Scan& scan, const CategoryGroup& g) { scan.add_classes(cells(g.bucket)); }, best);
        return true;
    }

    // As scan(): observed values left to right, missing ones on the right; then, with
    // missing values, observed against missing, and the missing ones on the left.
    const auto observed_ranks = static_cast<std::size_t>(nonempty_.size() - (missing ? 1 : 0));
    const Index observed = missing ? n - cn[nonempty_.back()] : n;
    Scan scan(in, f, begin, end, best);
    if (missing) scan.with_missing(false);
    Index nl = 0;
    for (std::size_t j = 0; j + 1 < observed_ranks; ++j) {
        const int r = nonempty_[j];
        scan.add_classes(cells(r));
        nl += cn[r];
        if (!scan.score(nl, value[r], value[nonempty_[j + 1]])) break;
    }
    if (!missing) return true;
    // The sorted scan stops at the first boundary whose right side is below min_leaf rows.
    const Index first_stop = std::max(in.min_leaf, n - in.min_leaf + 1);
    if (first_stop > observed - 1) {
        scan.add_classes(cells(nonempty_[observed_ranks - 1]));
        scan.score(observed, value[nonempty_[observed_ranks - 1]], std::numeric_limits<double>::infinity());
    }
    Scan left(in, f, begin, end, best);
    left.with_missing(true);
    left.add_classes(cells(nonempty_.back()));
    nl = n - observed;
    for (std::size_t j = 0; j + 1 < observed_ranks; ++j) {
        const int r = nonempty_[j];
        left.add_classes(cells(r));
        nl += cn[r];
        if (!left.score(nl, value[r], value[nonempty_[j + 1]])) break;
    }
    return true;
}

template bool DenseColumnStore::scan_counts<ClassScan<Criterion::gini>>(const ScanInputs&, Index, Index, Index,
                                                                        Split&);
template bool DenseColumnStore::scan_counts<ClassScan<Criterion::entropy>>(const ScanInputs&, Index, Index, Index,
                                                                           Split&);

}  // namespace kestrel
