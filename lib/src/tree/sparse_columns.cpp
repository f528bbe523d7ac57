#include "sparse_columns.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"

namespace kestrel {

SparseColumns::SparseColumns(const SparseMatrix& X, int threads) : X_(&X), rows_(X.rows()), cols_(X.cols()) {
    if (rows_ > std::numeric_limits<int>::max()) throw UsageError("tree: more rows than a tree can index (2^31 - 1)");
    // The column index and the builder keep a few words per feature (column starts, the
    // candidate list, the node's feature marks, the importances) and about 20 bytes per
    // stored value: one huge LIBSVM index must fail here, not under the out-of-memory killer.
    const double bytes = 32.0 * static_cast<double>(cols_ + 1) + 20.0 * static_cast<double>(X.nonZeros());
    const std::string what =
        "tree: indexing " + std::to_string(rows_) + " rows x " + std::to_string(cols_) + " features by column";
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

void SparseColumnStore::gather(const TreeSample& sample) {
    sample_ = &sample;
    const auto m = static_cast<std::size_t>(sample.size());
    rows_.resize(m);
    std::iota(rows_.begin(), rows_.end(), 0);
    mark_.assign(m, -1);
    nonzero_.assign(m, 0);
    goes_left_.assign(m, 0);
    tmp_.resize(m);
    present_.assign(static_cast<std::size_t>(cols()), -1);
    stamp_ = 0;
}

void SparseColumnStore::mark_node(Index begin, Index end) {
    ++stamp_;
    for (Index i = begin; i < end; ++i) mark_[static_cast<std::size_t>(rows_[static_cast<std::size_t>(i)])] = stamp_;
}

std::span<const int> SparseColumnStore::root_order() {
    const Index m = sample_->size();
    mark_node(0, m);
    return node_order(0, 0, m);
}

void SparseColumnStore::open_node(Index begin, Index end) {
    mark_node(begin, end);
    const SparseMatrix& X = cols_.rows_matrix();
    present_list_.clear();
    for (Index i = begin; i < end; ++i) {
        const int g = sample_->global_of[static_cast<std::size_t>(rows_[static_cast<std::size_t>(i)])];
        for (SparseMatrix::InnerIterator it(X, g); it; ++it) {
            auto& mark = present_[static_cast<std::size_t>(it.col())];
            if (mark == stamp_) continue;
            mark = stamp_;
            present_list_.push_back(static_cast<int>(it.col()));
        }
    }
}

std::span<const int> SparseColumnStore::all_candidates() {
    std::sort(present_list_.begin(), present_list_.end());
    return present_list_;
}

// The node's nonzero entries of column f by (value, row); the node must be marked.
void SparseColumnStore::extract(Index f, Index begin, Index end, std::vector<Entry>& out) {
    out.clear();
    const std::size_t nnz = cols_.nnz(f);
    if (nnz == 0) return;
    const auto node_rows = static_cast<std::size_t>(end - begin);
    const auto rows = cols_.sorted_rows(f);
    const auto values = cols_.sorted_values(f);
    const int* local_of = sample_->local_of.data();
    // A walk costs nnz; a binary search per node row about rows · log2(nnz).
    if (nnz <= node_rows * static_cast<std::size_t>(1 + std::log2(static_cast<double>(nnz)))) {
        for (std::size_t k = 0; k < nnz; ++k) {
            const int l = local_of[rows[k]];
            if (l >= 0 && mark_[static_cast<std::size_t>(l)] == stamp_) out.push_back({l, values[k]});
        }
        return;
    }
    const auto by_index = cols_.rows_by_index(f);
    const auto pos = cols_.position_of(f);
    positions_.clear();
    for (Index i = begin; i < end; ++i) {
        const int g = sample_->global_of[static_cast<std::size_t>(rows_[static_cast<std::size_t>(i)])];
        const auto it = std::lower_bound(by_index.begin(), by_index.end(), g);
        if (it != by_index.end() && *it == g)
            positions_.push_back(pos[static_cast<std::size_t>(it - by_index.begin())]);
    }
    std::sort(positions_.begin(), positions_.end());
    for (int k : positions_)
        out.push_back({local_of[rows[static_cast<std::size_t>(k)]], values[static_cast<std::size_t>(k)]});
}

// The node's rows in column f's sorted order: negatives, zeros (by row), positives.
std::span<const int> SparseColumnStore::node_order(Index f, Index begin, Index end) {
    extract(f, begin, end, entries_);
    order_.clear();
    std::size_t k = 0;
    for (; k < entries_.size() && entries_[k].value < 0; ++k) order_.push_back(entries_[k].local);
    for (const Entry& e : entries_) nonzero_[static_cast<std::size_t>(e.local)] = 1;
    for (Index i = begin; i < end; ++i) {
        const int l = rows_[static_cast<std::size_t>(i)];
        if (!nonzero_[static_cast<std::size_t>(l)]) order_.push_back(l);
    }
    for (const Entry& e : entries_) nonzero_[static_cast<std::size_t>(e.local)] = 0;
    for (; k < entries_.size(); ++k) order_.push_back(entries_[k].local);
    return order_;
}

// The dense store's scan over groups: each nonzero entry alone, and the node's zeros
// as one block (its sums are the node's minus the nonzeros').
template <class Scan>
bool SparseColumnStore::scan(const ScanInputs& in, Index f, Index begin, Index end, Split& best) {
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
    Scan scan(in, f, begin, end, best);
    scan.open_block();
    for (const Entry& e : entries_) scan.take_from_block(e.local);
    Index nl = 0;
    for (Index g = 0; g + 1 < groups; ++g) {
        if (const Entry* e = group_entry(g)) {
            scan.add(e->local);
            ++nl;
        } else {
            scan.add_block();
            nl += zeros;
        }
        if (!scan.score(nl, group_value(g), group_value(g + 1))) break;
    }
    return true;
}
template bool SparseColumnStore::scan<ClassScan<Criterion::gini>>(const ScanInputs&, Index, Index, Index, Split&);
template bool SparseColumnStore::scan<ClassScan<Criterion::entropy>>(const ScanInputs&, Index, Index, Index, Split&);
template bool SparseColumnStore::scan<VarianceScan>(const ScanInputs&, Index, Index, Index, Split&);

// Stable partition of the node's rows (kept increasing) by the split.
void SparseColumnStore::partition(Index begin, Index end, const Split& split) {
    mark_node(begin, end);
    extract(split.feature, begin, end, entries_);
    const char zero_left = 0 <= split.threshold ? 1 : 0;
    for (Index i = begin; i < end; ++i)
        goes_left_[static_cast<std::size_t>(rows_[static_cast<std::size_t>(i)])] = zero_left;
    for (const Entry& e : entries_) goes_left_[static_cast<std::size_t>(e.local)] = e.value <= split.threshold;
    Index l = begin, r = 0;
    for (Index i = begin; i < end; ++i) {
        const int p = rows_[static_cast<std::size_t>(i)];
        if (goes_left_[static_cast<std::size_t>(p)])
            rows_[static_cast<std::size_t>(l++)] = p;
        else
            tmp_[static_cast<std::size_t>(r++)] = p;
    }
    std::copy(tmp_.begin(), tmp_.begin() + r, rows_.begin() + l);
    if (l != split.pos) throw InternalError("sparse tree builder: partition disagrees with the split's counts");
}

}  // namespace kestrel
