#include "dense_columns.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "kestrel/common/tree.hpp"  // category_code
#include "kestrel/core/error.hpp"

namespace kestrel {

SortedColumns::SortedColumns(const DenseMatrix& X, int threads, std::span<const Index> categories)
    : rows_(X.rows()), cols_(X.cols()), categories_(static_cast<std::size_t>(X.cols()), 0),
      has_missing_(static_cast<std::size_t>(X.cols()), 0) {
    if (rows_ > std::numeric_limits<int>::max()) throw UsageError("tree: more rows than a tree can index (2^31 - 1)");
    if (!categories.empty() && static_cast<Index>(categories.size()) != cols_)
        throw InternalError("tree: category counts and columns differ");
    std::copy(categories.begin(), categories.end(), categories_.begin());
    order_.resize(static_cast<std::size_t>(rows_ * cols_));
    values_.resize(order_.size());
#pragma omp parallel for schedule(dynamic) num_threads(std::max(1, threads))
    for (Index f = 0; f < cols_; ++f) {
        double* v = values_.data() + f * rows_;  // first the column in row order
        const Index k = categories_[static_cast<std::size_t>(f)];
        bool missing = false;
        for (Index i = 0; i < rows_; ++i) {
            double x = X(i, f);
            if (k > 0 && category_code(x, k) < 0) x = std::numeric_limits<double>::quiet_NaN();
            missing = missing || std::isnan(x);
            v[i] = x;
        }
        has_missing_[static_cast<std::size_t>(f)] = missing ? 1 : 0;
        int* o = order_.data() + f * rows_;
        std::iota(o, o + rows_, 0);
        // Ties by row index: the order, and so the tree, never depends on the sort's luck.
        if (missing)
            std::sort(o, o + rows_, [v](int a, int b) {
                const double xa = v[a], xb = v[b];
                const bool na = std::isnan(xa), nb = std::isnan(xb);
                if (na || nb) return na == nb ? a < b : nb;
                return xa < xb || (xa == xb && a < b);
            });
        else
            std::sort(o, o + rows_, [v](int a, int b) { return v[a] < v[b] || (v[a] == v[b] && a < b); });
        std::vector<double> sorted(static_cast<std::size_t>(rows_));
        for (Index i = 0; i < rows_; ++i) sorted[static_cast<std::size_t>(i)] = v[o[i]];
        std::copy(sorted.begin(), sorted.end(), v);
    }
}

DenseColumnStore::DenseColumnStore(const SortedColumns& sorted)
    : sorted_(sorted), all_features_(static_cast<std::size_t>(sorted.cols())) {
    std::iota(all_features_.begin(), all_features_.end(), 0);
}

void DenseColumnStore::gather(const TreeSample& sample) {
    const Index n = rows(), d = cols();
    m_ = sample.size();
    order_.resize(static_cast<std::size_t>(m_ * d));
    values_.resize(order_.size());
    const int* local = sample.local_of.data();
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
            const int p = local[so[i]];
            o[k] = p;
            v[k] = sv[i];
            k += p >= 0 ? 1 : 0;
        }
    }
    goes_left_.assign(static_cast<std::size_t>(m_), 0);
    tmp_order_.resize(static_cast<std::size_t>(m_));
    tmp_values_.resize(static_cast<std::size_t>(m_));
}

// One pass over the node's rows in the feature's order, moving them one at a time
// from the right child to the left and scoring each boundary between distinct values.
// With missing values (sorted last) the observed rows are scanned twice, the missing
// ones staying on the right and then moved left first, and the split of all observed
// rows against the missing ones is scored too (XGBoost's sparsity-aware search).
template <class Scan>
bool DenseColumnStore::scan(const ScanInputs& in, Index f, Index begin, Index end, Split& best) {
    if (constant(f, begin, end)) return false;
    if (sorted_.categories(f) > 0) {
        scan_categories<Scan>(in, f, begin, end, best);
        return true;
    }
    const int* o = order_.data() + f * m_ + begin;
    const double* v = values_.data() + f * m_ + begin;
    const Index n = end - begin;
    const Index observed = sorted_.has_missing(f)
                               ? static_cast<Index>(std::partition_point(v, v + n, [](double x) { return !std::isnan(x); }) - v)
                               : n;
    Scan scan(in, f, begin, end, best);
    if (observed < n) scan.with_missing(false);
    bool all_scanned = true;
    for (Index i = 0; i + 1 < observed; ++i) {
        scan.add(o[i]);
        if (!scan.score(i + 1, v[i], v[i + 1])) {
            all_scanned = false;
            break;
        }
    }
    if (observed == n) return true;
    if (all_scanned) {  // observed left, missing right: the threshold is the largest observed value
        scan.add(o[observed - 1]);
        scan.score(observed, v[observed - 1], std::numeric_limits<double>::infinity());
    }
    Scan left(in, f, begin, end, best);
    left.with_missing(true);
    for (Index i = observed; i < n; ++i) left.add(o[i]);
    for (Index i = 0; i + 1 < observed; ++i) {
        left.add(o[i]);
        if (!left.score(n - observed + i + 1, v[i], v[i + 1])) break;
    }
    return true;
}

void DenseColumnStore::sides(const Split& split, Index begin, Index end, std::vector<int>& left,
                             std::vector<int>& right) const {
    left.clear();
    right.clear();
    const int* o = order_.data() + split.feature * m_;
    const double* v = values_.data() + split.feature * m_;
    for (Index i = begin; i < end; ++i) (split.sends_left(v[i]) ? left : right).push_back(o[i]);
}
template bool DenseColumnStore::scan<ClassScan<Criterion::gini>>(const ScanInputs&, Index, Index, Index, Split&);
template bool DenseColumnStore::scan<ClassScan<Criterion::entropy>>(const ScanInputs&, Index, Index, Index, Split&);
template bool DenseColumnStore::scan<VarianceScan>(const ScanInputs&, Index, Index, Index, Split&);

void DenseColumnStore::partition(Index begin, Index end, const Split& split) {
    const int* of = order_.data() + split.feature * m_;
    char* goes_left = goes_left_.data();
    // A prefix split leaves its own feature's order partitioned already; any other split
    // partitions it too (stably: each child's codes and observed values stay sorted).
    const bool prefix = split.by_prefix();
    if (prefix) {
        for (Index i = begin; i < end; ++i) goes_left[of[i]] = i < split.pos ? 1 : 0;
    } else {
        const double* vf = values_.data() + split.feature * m_;
        for (Index i = begin; i < end; ++i) goes_left[of[i]] = split.sends_left(vf[i]) ? 1 : 0;
    }
    int* tmp_o = tmp_order_.data();
    double* tmp_v = tmp_values_.data();
    for (Index f = 0; f < cols(); ++f) {
        if (prefix && f == split.feature) continue;
        int* o = order_.data() + f * m_;
        double* v = values_.data() + f * m_;
        // A feature constant here is constant in every descendant and never scanned
        // again there: its rows need not be sorted into the children.
        if (constant(f, begin, end)) continue;
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

}  // namespace kestrel
