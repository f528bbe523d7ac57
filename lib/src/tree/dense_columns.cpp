#include "dense_columns.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "kestrel/common/tree.hpp"  // category_code
#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"

namespace kestrel {
namespace {

// The distinct values of a sorted column (missing last, as one value) and each row's
// rank among them; none when there are more than kMaxRanks. Values that compare equal
// but differ in their bits (0 and −0) would be one rank, whose single value could not
// give back each row's own: such a column is not ranked.
std::vector<double> ranked_values(const double* sorted, const int* order, std::uint8_t* rank_of_row, Index n) {
    std::vector<double> distinct;
    for (Index i = 0; i < n; ++i) {
        const double x = sorted[i];
        if (x == 0 && std::signbit(x)) return {};
        const bool same = i > 0 && (std::isnan(x) ? std::isnan(sorted[i - 1]) : x == sorted[i - 1]);
        if (!same) {
            if (static_cast<Index>(distinct.size()) == SortedColumns::kMaxRanks) return {};
            distinct.push_back(x);
        }
        rank_of_row[order[i]] = static_cast<std::uint8_t>(distinct.size() - 1);
    }
    return distinct;
}

}  // namespace

SortedColumns::SortedColumns(const DenseView& X, int threads, std::span<const Index> categories, bool ranked)
    : rows_(X.rows()), cols_(X.cols()), categories_(static_cast<std::size_t>(X.cols()), 0),
      has_missing_(static_cast<std::size_t>(X.cols()), 0) {
    if (rows_ > std::numeric_limits<int>::max()) throw UsageError("tree: more rows than a tree can index (2^31 - 1)");
    if (!categories.empty() && static_cast<Index>(categories.size()) != cols_)
        throw InternalError("tree: category counts and columns differ");
    std::copy(categories.begin(), categories.end(), categories_.begin());
    order_.resize(static_cast<std::size_t>(rows_ * cols_));
    values_.resize(order_.size());
    rank_of_row_.assign(ranked ? order_.size() : 0, 0);
    std::vector<std::vector<double>> distinct(static_cast<std::size_t>(cols_));
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
        if (ranked) distinct[static_cast<std::size_t>(f)] = ranked_values(v, o, rank_of_row_.data() + f * rows_, rows_);
    }
    rank_begin_.assign(static_cast<std::size_t>(cols_) + 1, 0);
    for (Index f = 0; f < cols_; ++f) {
        const auto& dv = distinct[static_cast<std::size_t>(f)];
        rank_begin_[static_cast<std::size_t>(f) + 1] = rank_begin_[static_cast<std::size_t>(f)] + static_cast<Index>(dv.size());
        rank_values_.insert(rank_values_.end(), dv.begin(), dv.end());
    }
}

DenseColumnStore::DenseColumnStore(const SortedColumns& sorted, Index draws)
    : sorted_(sorted), all_features_(static_cast<std::size_t>(sorted.cols())),
      per_node_(static_cast<std::size_t>(sorted.cols()), 0) {
    std::iota(all_features_.begin(), all_features_.end(), 0);
    // A node sorts a drawn ranked column in about three times a partition's work on it:
    // worth it when a node draws at most a third of the columns.
    const Index d = sorted.cols();
    if (sorts_per_node(draws, d))
        for (Index f = 0; f < d; ++f) per_node_[static_cast<std::size_t>(f)] = sorted.ranks(f) > 0 ? 1 : 0;
    sorted_range_.assign(static_cast<std::size_t>(d), {-1, -1});
    // 4 x 256 rank buckets a column, in every thread's builder: 4 GB for a million columns.
    // Checked first, so that a wide file is exit 2 saying so, not an allocation that fails.
    check_memory(static_cast<std::uint64_t>(d) * 4 * SortedColumns::kMaxRanks * sizeof(buckets_[0]), 0,
                 "growing a tree on " + std::to_string(d) + " features (rank buckets of every feature)");
    buckets_.assign(static_cast<std::size_t>(d * 4 * SortedColumns::kMaxRanks), 0);
}

void DenseColumnStore::gather(const TreeSample& sample) {
    const Index n = rows(), d = cols();
    m_ = sample.size();
    order_.resize(static_cast<std::size_t>(m_ * d));
    values_.resize(order_.size());
    const int* local = sample.local_of.data();
    rank_.resize(static_cast<std::size_t>(m_ * d));
    double total = 0;
    whole_weights_ = true;
    for (double w : sample.weight) {
        whole_weights_ = whole_weights_ && w == std::floor(w);
        total += w;
    }
    whole_weights_ = whole_weights_ && total < 0x1p52;
    rows_.resize(static_cast<std::size_t>(m_));
    std::iota(rows_.begin(), rows_.end(), 0);
    for (Index f = 0; f < d; ++f) {
        if (sorted_per_node(f)) {
            const std::uint8_t* r = sorted_.rank_of_row(f).data();
            std::uint8_t* lr = rank_.data() + f * m_;
            for (Index l = 0; l < m_; ++l) lr[l] = r[sample.global_of[static_cast<std::size_t>(l)]];
            sorted_range_[static_cast<std::size_t>(f)] = {-1, -1};
            continue;
        }
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
    // root_order(): column 0 in (value, row) order, or in row order when all its values
    // are one (the same order).
    if (d > 0 && sorted_per_node(0) && !sort_node(0, 0, m_)) std::copy(rows_.begin(), rows_.end(), order_.begin());
}

// A stable counting sort of the node's rows (in row order) by rank: the order of
// (value, row) that partitioning the presorted column would have kept. False, writing
// nothing, when the node's rows all have one rank. A node with few rows against many
// ranks sorts (rank, row) keys instead of sweeping every bucket.
bool DenseColumnStore::sort_node(Index f, Index begin, Index end) {
    const std::uint8_t* rank = rank_.data() + f * m_;
    const double* value = sorted_.rank_values(f).data();
    const Index k = sorted_.ranks(f), n = end - begin;
    const int* rows = rows_.data() + begin;
    int* o = order_.data() + f * m_ + begin;
    double* v = values_.data() + f * m_ + begin;
    sorted_range_[static_cast<std::size_t>(f)] = {-1, -1};
    if (4 * n < k) {
        thread_local std::vector<std::uint64_t> keys;
        keys.resize(static_cast<std::size_t>(n));
        for (Index i = 0; i < n; ++i)
            keys[static_cast<std::size_t>(i)] =
                (std::uint64_t{rank[rows[i]]} << 32) | static_cast<std::uint32_t>(rows[i]);
        std::sort(keys.begin(), keys.end());
        if ((keys.front() >> 32) == (keys.back() >> 32)) return false;
        for (Index i = 0; i < n; ++i) {
            const std::uint64_t key = keys[static_cast<std::size_t>(i)];
            o[i] = static_cast<int>(key & 0xffffffffU);
            v[i] = value[key >> 32];
        }
    } else {
        // The rows in kParts consecutive parts, each with its own counts and next slots:
        // runs of one rank would otherwise make every increment wait for the last.
        constexpr Index kParts = 4;
        const Index parts = n >= 16 * kParts ? kParts : 1;
        int* next = buckets_.data() + f * kParts * SortedColumns::kMaxRanks;
        std::fill(next, next + parts * k, 0);
        Index cut[kParts + 1];
        for (Index q = 0; q <= parts; ++q) cut[q] = n * q / parts;
        // Row j of every part in one iteration, so that the parts' chains overlap.
        const auto each_row = [&](auto&& visit) {
            const Index len = cut[1] - cut[0];  // parts differ by at most one row
            for (Index j = 0; j < len; ++j)
                for (Index q = 0; q < parts; ++q) visit(q, cut[q] + j);
            for (Index q = 0; q < parts; ++q)
                for (Index i = cut[q] + len; i < cut[q + 1]; ++i) visit(q, i);
        };
        each_row([&](Index q, Index i) { ++next[q * k + rank[rows[i]]]; });
        int at = 0;
        for (Index r = 0; r < k; ++r) {
            int total = 0;
            for (Index q = 0; q < parts; ++q) total += next[q * k + r];
            if (total == n) return false;
            for (Index q = 0; q < parts; ++q) {
                const int c = next[q * k + r];
                next[q * k + r] = at;
                at += c;
            }
        }
        each_row([&](Index q, Index i) {
            const int row = rows[i];
            const unsigned r = rank[row];
            const int p = next[q * k + r]++;
            o[p] = row;
            v[p] = value[r];
        });
    }
    sorted_range_[static_cast<std::size_t>(f)] = {begin, end};
    return true;
}

// One pass over the node's rows in the feature's order, moving them one at a time
// from the right child to the left and scoring each boundary between distinct values.
// With missing values (sorted last) the observed rows are scanned twice, the missing
// ones staying on the right and then moved left first, and the split of all observed
// rows against the missing ones is scored too (XGBoost's sparsity-aware search).
template <class Scan>
bool DenseColumnStore::scan(const ScanInputs& in, Index f, Index begin, Index end, Split& best) {
    // Each node has its own range: a column sorted for this node's range is still so.
    if (sorted_per_node(f) && sorted_range_[static_cast<std::size_t>(f)] != std::pair<Index, Index>{begin, end}) {
        if constexpr (requires(Scan& s, const double* by_class) { s.add_classes(by_class); })
            if (whole_weights_ && sorted_.ranks(f) <= 4 * (end - begin)) return scan_counts<Scan>(in, f, begin, end, best);
        if (!sort_node(f, begin, end)) return false;  // constant in the node
    }
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
                             std::vector<int>& right) {
    sort_split_feature(split.feature, begin, end);
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
    {  // the row list, kept in row order
        int* rows = rows_.data();
        Index l = begin, r = 0;
        for (Index i = begin; i < end; ++i) {
            const int p = rows[i];
            const Index left = static_cast<unsigned char>(goes_left[p]);
            rows[l] = p;
            tmp_o[r] = p;
            l += left;
            r += 1 - left;
        }
        std::copy(tmp_o, tmp_o + r, rows + l);
    }
    for (Index f = 0; f < cols(); ++f) {
        if (sorted_per_node(f) || (prefix && f == split.feature)) continue;
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
            const Index left = static_cast<unsigned char>(goes_left[p]);
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
