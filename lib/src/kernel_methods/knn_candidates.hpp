#pragma once
// Internal to knn_search: the exact distances of each metric and the per-query list of
// candidate neighbours kept while screening blocks of training rows.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "kestrel/core/dataset.hpp"

namespace kestrel::knn_detail {

// The exact distances, summed in feature order. A sparse row's missing coordinates
// only ever add +0 (or ±0 products), so the sparse forms return the dense sums bit for
// bit. Euclidean ranks by the squared distance (sqrt is monotone and applied last).
inline double exact_sq_l2(const double* a, const double* b, Index d) {
    double s = 0;
    for (Index i = 0; i < d; ++i) {
        const double t = a[i] - b[i];
        s += t * t;
    }
    return s;
}
inline double exact_l1(const double* a, const double* b, Index d) {
    double s = 0;
    for (Index i = 0; i < d; ++i) s += std::abs(a[i] - b[i]);
    return s;
}
inline double exact_dot(const double* a, const double* b, Index d) {
    double s = 0;
    for (Index i = 0; i < d; ++i) s += a[i] * b[i];
    return s;
}
// 1 - cos(a, b) before clipping to [0, 2]; a zero vector is at distance 1 from
// everything (scikit-learn's normalize leaves it zero).
inline double cosine_from(double dot, double na, double nb) {
    if (na == 0 || nb == 0) return 1.0;
    return 1.0 - dot / (na * nb);
}

// A sparse row as parallel index/value arrays.
struct SparseRow {
    const int* idx = nullptr;
    const double* val = nullptr;
    Index nnz = 0;
};
inline SparseRow sparse_row(const SparseMatrix& m, Index r) {
    const auto* outer = m.outerIndexPtr();
    const Index b = outer[r];
    const Index e = m.innerNonZeroPtr() ? b + m.innerNonZeroPtr()[r] : outer[r + 1];
    return {m.innerIndexPtr() + b, m.valuePtr() + b, e - b};
}
// f(x_i, z_i) summed over the union of the two rows' indices, in index order.
template <class F>
double merge_sum(const SparseRow& a, const SparseRow& b, F f) {
    double s = 0;
    Index i = 0, j = 0;
    while (i < a.nnz || j < b.nnz) {
        if (j >= b.nnz || (i < a.nnz && a.idx[i] < b.idx[j])) {
            s += f(a.val[i++], 0.0);
        } else if (i >= a.nnz || b.idx[j] < a.idx[i]) {
            s += f(0.0, b.val[j++]);
        } else {
            s += f(a.val[i++], b.val[j++]);
        }
    }
    return s;
}
inline double sq_diff(double x, double z) {
    const double t = x - z;
    return t * t;
}
inline double abs_diff(double x, double z) {
    return std::abs(x - z);
}
inline double product(double x, double z) {
    return x * z;
}

// Candidate neighbours of one query: every training row whose screening value is
// within `tol` of the k-th smallest seen so far. With tol bounding twice the rounding
// of the screening value against the exact distance, no true neighbour is dropped.
class CandidateList {
public:
    void reset(Index k, double tol) {
        k_ = k;
        tol_ = tol;
        cap_ = std::max<Index>(4 * k, 64);
        thr_ = std::numeric_limits<double>::infinity();
        items_.clear();
    }
    double threshold() const { return thr_; }
    void push(double v, Index j) {
        items_.emplace_back(v, j);
        if (static_cast<Index>(items_.size()) >= cap_) compact();
    }
    void compact() {
        if (static_cast<Index>(items_.size()) < k_) return;
        auto kth = items_.begin() + (k_ - 1);
        std::nth_element(items_.begin(), kth, items_.end());
        thr_ = kth->first + tol_;
        const double thr = thr_;
        items_.erase(std::remove_if(items_.begin(), items_.end(), [thr](const auto& p) { return p.first > thr; }),
                     items_.end());
        // Many rows within tol of each other (duplicates): let the list grow.
        if (static_cast<Index>(items_.size()) * 2 > cap_) cap_ *= 2;
    }
    std::vector<std::pair<double, Index>>& items() { return items_; }

private:
    Index k_ = 1, cap_ = 64;
    double tol_ = 0, thr_ = 0;
    std::vector<std::pair<double, Index>> items_;
};

// Replaces each candidate's value by exact(j) when `recompute`, sorts by (value, row)
// and writes the first k.
template <class Exact>
void finish(CandidateList& c, Index k, bool recompute, Exact exact, Index* idx_out, double* dist_out) {
    auto& items = c.items();
    if (recompute)
        for (auto& p : items) p.first = exact(p.second);
    const auto kk = std::min<std::size_t>(static_cast<std::size_t>(k), items.size());
    std::partial_sort(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(kk), items.end());
    for (std::size_t t = 0; t < kk; ++t) {
        idx_out[t] = items[t].second;
        dist_out[t] = items[t].first;
    }
}

}  // namespace kestrel::knn_detail
