#include "kestrel/common/bin_cuts.hpp"
#include "kestrel/common/column_reads.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {
namespace {

constexpr Index kMaxCutSampleRows = 200000;
constexpr Index kBinRowBlock = 256;

// Features whose sample values BinCuts::fit holds at once on a dense table: the values are
// read for a group of features in one pass over the sampled rows (a row's features are
// adjacent in X; one feature at a time read every row's cache line once per feature), and
// the group bounds the memory (8 columns of at most 200,000 doubles, 12.8 MB).
constexpr Index kCutGroupFeatures = 8;

// The radix sort's two buffers, kept by a thread from one feature to the next rather than
// allocated (and their pages faulted in) for every feature.
struct SortScratch {
    std::vector<std::uint64_t> a, b;
};

// Ascending sort of NaN-free doubles: LSD radix sort on their order-preserving bit
// patterns for long columns (several times std::sort's speed), std::sort otherwise.
void sort_values(std::vector<double>& v, SortScratch& scratch) {
    const std::size_t n = v.size();
    if (n < 4096) {
        std::sort(v.begin(), v.end());
        return;
    }
    constexpr std::uint64_t kSign = std::uint64_t{1} << 63;
    std::vector<std::uint64_t>& a = scratch.a;
    std::vector<std::uint64_t>& b = scratch.b;
    a.resize(n);
    b.resize(n);
    std::vector<std::size_t> count(std::size_t{8} * 256, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const auto u = std::bit_cast<std::uint64_t>(v[i]);
        a[i] = u & kSign ? ~u : u | kSign;
        for (int d = 0; d < 8; ++d) ++count[static_cast<std::size_t>(d) * 256 + ((a[i] >> (8 * d)) & 255)];
    }
    for (int d = 0; d < 8; ++d) {
        std::size_t* c = count.data() + static_cast<std::ptrdiff_t>(d) * 256;
        if (*std::max_element(c, c + 256) == n) continue;  // every key shares this byte
        std::size_t sum = 0;
        for (int k = 0; k < 256; ++k) sum += std::exchange(c[k], sum);
        for (std::size_t i = 0; i < n; ++i) b[c[(a[i] >> (8 * d)) & 255]++] = a[i];
        a.swap(b);
    }
    for (std::size_t i = 0; i < n; ++i) v[i] = std::bit_cast<double>(a[i] & kSign ? a[i] & ~kSign : ~a[i]);
}

// Upper edges of one feature's bins from its non-missing values (sorted here).
std::vector<double> edges_of_values(std::vector<double>& v, int max_bins, SortScratch& scratch) {
    constexpr double kTop = std::numeric_limits<double>::max();
    sort_values(v, scratch);
    std::vector<double> edges;
    if (v.empty()) return {kTop};
    std::size_t distinct = 1;
    for (std::size_t i = 1; i < v.size(); ++i) distinct += v[i] != v[i - 1];
    if (distinct <= static_cast<std::size_t>(max_bins)) {
        for (std::size_t i = 1; i < v.size(); ++i)
            if (v[i] != v[i - 1]) edges.push_back(v[i - 1] + (v[i] - v[i - 1]) / 2);
    } else {
        const double last = static_cast<double>(v.size() - 1);
        for (int j = 1; j < max_bins; ++j) {
            const double q = last * j / max_bins;
            const auto lo = static_cast<std::size_t>(q);
            const double frac = q - static_cast<double>(lo);
            const double e = lo + 1 < v.size() ? v[lo] + frac * (v[lo + 1] - v[lo]) : v[lo];
            if (edges.empty() || e > edges.back()) edges.push_back(e);
        }
    }
    edges.push_back(kTop);
    return edges;
}

std::vector<double> edges_of_values(std::vector<double>& v, int max_bins) {
    SortScratch scratch;
    return edges_of_values(v, max_bins, scratch);
}

// The rows whose values fix the cuts: all of `rows` (or of X), or a seeded sample.
std::vector<Index> cut_sample_rows(Index n_all, std::span<const Index> rows, std::uint64_t seed) {
    std::vector<Index> out;
    if (rows.empty()) {
        out.resize(static_cast<std::size_t>(n_all));
        std::iota(out.begin(), out.end(), Index{0});
    } else {
        out.assign(rows.begin(), rows.end());
    }
    if (static_cast<Index>(out.size()) > kMaxCutSampleRows) {
        Rng rng(derive_seed(seed, 0xb1a5));
        for (Index i = 0; i < kMaxCutSampleRows; ++i) {  // partial Fisher-Yates
            const auto j = static_cast<std::size_t>(i) + rng.below(out.size() - static_cast<std::size_t>(i));
            std::swap(out[static_cast<std::size_t>(i)], out[j]);
        }
        out.resize(static_cast<std::size_t>(kMaxCutSampleRows));
        std::sort(out.begin(), out.end());
    }
    return out;
}

// The sample cut_sample_rows draws from all of n_all rows, without its n_all-long index
// list: the partial Fisher-Yates shuffle keeps only the positions it has swapped, so that
// rows spread over ranks draw the whole data's sample in memory of the sample's size.
std::vector<Index> sample_of_whole(Index n_all, std::uint64_t seed) {
    std::vector<Index> out;
    if (n_all <= kMaxCutSampleRows) {
        out.resize(static_cast<std::size_t>(n_all));
        std::iota(out.begin(), out.end(), Index{0});
        return out;
    }
    std::unordered_map<Index, Index> moved;  // position -> the row it holds now
    const auto at = [&moved](Index i) {
        const auto it = moved.find(i);
        return it == moved.end() ? i : it->second;
    };
    Rng rng(derive_seed(seed, 0xb1a5));
    out.resize(static_cast<std::size_t>(kMaxCutSampleRows));
    for (Index i = 0; i < kMaxCutSampleRows; ++i) {
        const auto j = i + static_cast<Index>(rng.below(static_cast<std::size_t>(n_all - i)));
        const Index a = at(i), b = at(j);
        moved[j] = a;
        out[static_cast<std::size_t>(i)] = b;
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Code -> bin of a categorical feature from the training rows' code counts (see
// bin_cuts.hpp); the number of bins is one more than the largest bin.
std::vector<int> category_bins(const std::vector<Index>& counts, int max_bins) {
    std::vector<int> bin(counts.size(), -1);
    std::vector<int> seen;
    for (std::size_t c = 0; c < counts.size(); ++c)
        if (counts[c] > 0) seen.push_back(static_cast<int>(c));
    if (seen.size() > static_cast<std::size_t>(max_bins)) {
        // The max_bins − 1 most frequent keep their own bins; the rest share the last one.
        std::vector<int> by_count = seen;
        std::stable_sort(by_count.begin(), by_count.end(), [&](int a, int b) {
            return counts[static_cast<std::size_t>(a)] > counts[static_cast<std::size_t>(b)];
        });
        std::vector<char> own(counts.size(), 0);
        for (int j = 0; j + 1 < max_bins; ++j) own[static_cast<std::size_t>(by_count[static_cast<std::size_t>(j)])] = 1;
        int next = 0;
        for (int c : seen)
            if (own[static_cast<std::size_t>(c)]) bin[static_cast<std::size_t>(c)] = next++;
        for (int c : seen)
            if (!own[static_cast<std::size_t>(c)]) bin[static_cast<std::size_t>(c)] = next;
        return bin;
    }
    int next = 0;
    for (int c : seen) bin[static_cast<std::size_t>(c)] = next++;
    return bin;
}

// Categorical features: each one's code counts over the rows (all of X's when `rows` is
// empty); numeric features: an empty list.
std::vector<std::vector<Index>> count_codes(const Features& X, std::span<const Index> rows,
                                            std::span<const Index> category_counts) {
    const Index d = X.cols();
    std::vector<std::vector<Index>> code_counts(static_cast<std::size_t>(d));
    if (category_counts.empty()) return code_counts;
    for (Index f = 0; f < d; ++f)
        if (category_counts[static_cast<std::size_t>(f)] > 0)
            code_counts[static_cast<std::size_t>(f)].assign(static_cast<std::size_t>(category_counts[static_cast<std::size_t>(f)]), 0);
    const auto count_code = [&](Index f, double x) {
        auto& cnt = code_counts[static_cast<std::size_t>(f)];
        if (cnt.empty()) return;
        const int c = category_code(x, static_cast<Index>(cnt.size()));
        if (c >= 0) ++cnt[static_cast<std::size_t>(c)];
    };
    const Index n_rows = rows.empty() ? X.rows() : static_cast<Index>(rows.size());
    for (Index i = 0; i < n_rows; ++i) {
        const Index r = rows.empty() ? i : rows[static_cast<std::size_t>(i)];
        if (X.is_sparse()) {
            for (SparseMatrix::InnerIterator it(X.sparse_ref(), r); it; ++it) count_code(it.col(), it.value());
        } else {
            const double* row = X.dense_ref().row(r).data();
            for (Index f = 0; f < d; ++f) count_code(f, row[f]);
        }
    }
    return code_counts;
}

// The code -> bin maps of the categorical features (those with counts), and their edges:
// bin b's "upper edge" b + 0.5 (never a threshold); at least one bin, as a numeric
// feature without values has.
std::vector<std::vector<int>> category_edges(const std::vector<std::vector<Index>>& code_counts, int max_bins,
                                             std::vector<std::vector<double>>& edges) {
    std::vector<std::vector<int>> code_bin(code_counts.size());
    for (std::size_t f = 0; f < code_counts.size(); ++f) {
        if (code_counts[f].empty()) continue;
        auto& bins = code_bin[f];
        bins = category_bins(code_counts[f], max_bins);
        const int nb = std::max(1, *std::max_element(bins.begin(), bins.end()) + 1);
        auto& e = edges[f];
        e.clear();
        for (int b = 0; b + 1 < nb; ++b) e.push_back(b + 0.5);
        e.push_back(std::numeric_limits<double>::max());
    }
    return code_bin;
}

// The values of the numeric features first..last of the sampled rows of M, NaN included, in
// the sample's order: values[f][k] is M(sample[k], f). Blocks of sampled rows in parallel,
// each row's features read together.
template <class IsCategorical>
void gather_sample_values(const DenseView& M, std::span<const Index> sample, Index first, Index last,
                          IsCategorical categorical, std::vector<std::vector<double>>& values, int threads) {
    std::vector<Index> numeric;
    for (Index f = first; f < last; ++f)
        if (!categorical(f)) {
            numeric.push_back(f);
            values[static_cast<std::size_t>(f)].resize(sample.size());
        }
    const auto m = static_cast<Index>(sample.size());
    const Index blocks = (m + kBinRowBlock - 1) / kBinRowBlock;
#pragma omp parallel for schedule(static) num_threads(std::max(1, threads)) if (blocks > 1)
    for (Index b = 0; b < blocks; ++b)
        for (Index k = b * kBinRowBlock; k < std::min(m, (b + 1) * kBinRowBlock); ++k) {
            const double* row = M.row(sample[static_cast<std::size_t>(k)]).data();
            for (const Index f : numeric) values[static_cast<std::size_t>(f)][static_cast<std::size_t>(k)] = row[f];
        }
}

// first_edge_at_least of kBinSearches values at once, into bin codes (NaN: nb, the missing
// bin; past the last edge: nb). One search is a chain of dependent loads, a few cycles each;
// eight searches in step overlap their chains (two to four times the speed of one search at
// a time on 4 M values and 255 edges). Each code is the one search's.
constexpr int kBinSearches = 8;

template <class Bin>
void bins_in_step(const double* e, int nb, const double (&x)[kBinSearches], Bin* out) {
    const double* first[kBinSearches];
    std::fill(first, first + kBinSearches, e);
    auto len = static_cast<std::size_t>(nb);
    while (len > 1) {
        const std::size_t half = len / 2;
        for (int q = 0; q < kBinSearches; ++q) first[q] += static_cast<std::size_t>(first[q][half - 1] < x[q]) * half;
        len -= half;
    }
    for (int q = 0; q < kBinSearches; ++q) {
        const int b = static_cast<int>(first[q] - e) + (*first[q] < x[q] ? 1 : 0);
        out[q] = static_cast<Bin>(std::isnan(x[q]) ? nb : std::min(b, nb));
    }
}

// Bins of the rows `rows` of X (all when empty), m of them, into rows first .. first + m − 1
// of `out`, a column-major matrix of n rows.
template <class Bin>
void fill_bins(const BinCuts& cuts, const Features& X, std::span<const Index> rows, Index m, Bin* out, Index n,
               Index first, int threads) {
    const Index d = X.cols();
    const auto src = [&](Index i) { return rows.empty() ? i : rows[static_cast<std::size_t>(i)]; };
    const Index blocks = (m + kBinRowBlock - 1) / kBinRowBlock;
    if (X.is_sparse()) {
        const SparseMatrix& S = X.sparse_ref();
#pragma omp parallel for schedule(static) num_threads(std::max(1, threads))
        for (Index b = 0; b < blocks; ++b) {
            const Index end = std::min(m, (b + 1) * kBinRowBlock);
            for (Index f = 0; f < d; ++f)
                std::fill(out + f * n + first + b * kBinRowBlock, out + f * n + first + end,
                          static_cast<Bin>(cuts.missing_bin(f)));
            for (Index i = b * kBinRowBlock; i < end; ++i)
                for (SparseMatrix::InnerIterator it(S, src(i)); it; ++it)
                    out[it.col() * n + first + i] = static_cast<Bin>(cuts.bin_of(it.col(), it.value()));
        }
        return;
    }
    const DenseView M = X.dense_ref();
    // A block of rows (in cache) feature by feature: one feature's edges at a time.
#pragma omp parallel for schedule(static) num_threads(std::max(1, threads))
    for (Index b = 0; b < blocks; ++b) {
        const Index end = std::min(m, (b + 1) * kBinRowBlock);
        for (Index f = 0; f < d; ++f) {
            const int nb = cuts.n_bins(f);
            const double* e = cuts.edges(f);
            Bin* o = out + f * n + first;
            if (cuts.is_categorical(f)) {
                for (Index i = b * kBinRowBlock; i < end; ++i) o[i] = static_cast<Bin>(cuts.bin_of(f, M(src(i), f)));
                continue;
            }
            Index i = b * kBinRowBlock;
            for (; i + kBinSearches <= end; i += kBinSearches) {
                double x[kBinSearches];
                for (int q = 0; q < kBinSearches; ++q) x[q] = M(src(i + q), f);
                bins_in_step(e, nb, x, o + i);
            }
            for (; i < end; ++i) {
                const double x = M(src(i), f);
                o[i] = static_cast<Bin>(std::isnan(x) ? nb : std::min(first_edge_at_least(e, nb, x), nb));
            }
        }
    }
}

template <class Bin>
void column_rows(const Bin* from, Index n, Index d, std::span<const Index> rows, Bin* out) {
    const auto m = static_cast<Index>(rows.size());
    for (Index f = 0; f < d; ++f)
        for (Index i = 0; i < m; ++i) out[f * m + i] = from[f * n + rows[static_cast<std::size_t>(i)]];
}

}  // namespace

BinCuts BinCuts::fit(const Features& X, std::span<const Index> rows, int max_bins, std::uint64_t seed, int threads,
                     std::span<const Index> category_counts) {
    const Index d = X.cols();
    const std::vector<Index> sample = cut_sample_rows(X.rows(), rows, seed);
    const auto categorical = [&](Index f) {
        return !category_counts.empty() && category_counts[static_cast<std::size_t>(f)] > 0;
    };
    std::vector<std::vector<Index>> code_counts = count_codes(X, rows, category_counts);
    const bool any_categorical = std::any_of(category_counts.begin(), category_counts.end(), [](Index k) { return k > 0; });
    std::vector<std::vector<double>> values(static_cast<std::size_t>(d));
    if (X.is_sparse()) {
        const SparseMatrix& S = X.sparse_ref();
        for (Index r : sample)
            for (SparseMatrix::InnerIterator it(S, r); it; ++it)
                if (!std::isnan(it.value())) values[static_cast<std::size_t>(it.col())].push_back(it.value());
    }
    std::vector<std::vector<double>> edges(static_cast<std::size_t>(d));
    // Features first..last: each numeric one's edges from its values (a dense table's read
    // here for the group, in the sample's order, its NaNs dropped).
    const auto cut_features = [&](Index first, Index last) {
        if (!X.is_sparse()) gather_sample_values(X.dense_ref(), sample, first, last, categorical, values, threads);
#pragma omp parallel num_threads(std::max(1, threads))
        {
            SortScratch scratch;
#pragma omp for schedule(dynamic)
            for (Index f = first; f < last; ++f) {
                std::vector<double>& v = values[static_cast<std::size_t>(f)];
                if (!categorical(f)) {
                    std::erase_if(v, [](double x) { return std::isnan(x); });
                    edges[static_cast<std::size_t>(f)] = edges_of_values(v, max_bins, scratch);
                }
                std::vector<double>().swap(v);
            }
        }
    };
    const Index group = X.is_sparse() ? std::max<Index>(d, 1) : kCutGroupFeatures;
    for (Index first = 0; first < d; first += group) cut_features(first, std::min(d, first + group));
    std::vector<std::vector<int>> code_bin;
    if (any_categorical) code_bin = category_edges(code_counts, max_bins, edges);
    BinCuts c = from_edges(edges);
    c.code_bin_ = std::move(code_bin);
    return c;
}

std::vector<Index> BinCuts::sample_rows(Index n_all, std::uint64_t seed) { return sample_of_whole(n_all, seed); }

std::vector<double> BinCuts::feature_edges(std::vector<double>& values, int max_bins) {
    return edges_of_values(values, max_bins);
}

BinCuts BinCuts::from_parts(std::vector<std::vector<double>> edges, const std::vector<std::vector<Index>>& code_counts,
                            int max_bins) {
    const bool any_categorical =
        std::any_of(code_counts.begin(), code_counts.end(), [](const std::vector<Index>& c) { return !c.empty(); });
    if (!any_categorical) return from_edges(edges);
    std::vector<std::vector<int>> code_bin = category_edges(code_counts, max_bins, edges);
    BinCuts c = from_edges(edges);
    c.code_bin_ = std::move(code_bin);
    return c;
}

BinCuts BinCuts::from_edges(const std::vector<std::vector<double>>& edges) {
    BinCuts c;
    c.edge_offset_.push_back(0);
    c.bin_offset_.push_back(0);
    for (const auto& e : edges) {
        c.edges_.insert(c.edges_.end(), e.begin(), e.end());
        c.edge_offset_.push_back(static_cast<Index>(c.edges_.size()));
        const auto cells = static_cast<Index>(e.size()) + 1;
        c.bin_offset_.push_back(c.bin_offset_.back() + cells);
        c.max_cells_ = std::max(c.max_cells_, cells);
    }
    return c;
}

BinCuts BinCuts::fit_over_ranks(const Features& X, RowSpan span, int max_bins, std::uint64_t seed,
                                std::span<const Index> category_counts) {
    const Index d = X.cols(), n = X.rows();
    const auto categorical = [&](Index f) {
        return !category_counts.empty() && category_counts[static_cast<std::size_t>(f)] > 0;
    };
    // This rank's sampled rows' non-missing values, feature by feature (a categorical
    // feature's: none, its counts go below).
    std::vector<std::vector<double>> mine(static_cast<std::size_t>(d));
    for (const Index g : sample_of_whole(span.total, seed)) {
        if (g < span.first || g >= span.first + n) continue;
        const Index r = g - span.first;
        if (X.is_sparse()) {
            for (SparseMatrix::InnerIterator it(X.sparse_ref(), r); it; ++it)
                if (!std::isnan(it.value()) && !categorical(it.col())) mine[static_cast<std::size_t>(it.col())].push_back(it.value());
        } else {
            const double* row = X.dense_ref().row(r).data();
            for (Index f = 0; f < d; ++f)
                if (const double x = row[f]; !std::isnan(x) && !categorical(f))
                    mine[static_cast<std::size_t>(f)].push_back(x);
        }
    }
    // Per feature: a count, then the values.
    std::vector<std::byte> bytes;
    const auto put = [&bytes](const void* p, std::size_t size) {
        const auto* b = static_cast<const std::byte*>(p);
        bytes.insert(bytes.end(), b, b + size);
    };
    for (const auto& v : mine) {
        const std::uint64_t count = v.size();
        put(&count, sizeof count);
        put(v.data(), v.size() * sizeof(double));
    }
    std::vector<std::vector<double>> values(static_cast<std::size_t>(d));
    ProcessGroup* group = process_group();
    if (group == nullptr) throw InternalError("BinCuts::fit_over_ranks without a process group");
    for (const std::vector<std::byte>& part : share_with_all(*group, bytes)) {
        std::size_t at = 0;
        for (auto& v : values) {
            std::uint64_t count = 0;
            std::memcpy(&count, part.data() + at, sizeof count);
            at += sizeof count;
            const std::size_t old = v.size();
            v.resize(old + count);
            if (count > 0) std::memcpy(v.data() + old, part.data() + at, count * sizeof(double));
            at += count * sizeof(double);
        }
    }
    std::vector<std::vector<double>> edges(static_cast<std::size_t>(d));
    for (std::size_t f = 0; f < values.size(); ++f)
        if (!categorical(static_cast<Index>(f))) edges[f] = edges_of_values(values[f], max_bins);
    if (std::none_of(category_counts.begin(), category_counts.end(), [](Index k) { return k > 0; })) return from_edges(edges);
    // Every training row's codes counted (not the sample), summed over the ranks: whole
    // numbers, exact in any order.
    std::vector<std::vector<Index>> code_counts = count_codes(X, {}, category_counts);
    std::vector<double> flat;
    for (const auto& c : code_counts) flat.insert(flat.end(), c.begin(), c.end());
    sum_over_ranks(true, std::span<double>(flat));
    std::size_t at = 0;
    for (auto& c : code_counts)
        for (Index& k : c) k = static_cast<Index>(flat[at++]);
    const std::vector<std::vector<int>> code_bin = category_edges(code_counts, max_bins, edges);
    BinCuts c = from_edges(edges);
    c.code_bin_ = code_bin;
    return c;
}

int BinCuts::bin_of(Index f, double x) const {
    if (is_categorical(f)) {
        const auto& bins = code_bin_[static_cast<std::size_t>(f)];
        const int c = category_code(x, static_cast<Index>(bins.size()));
        const int b = c < 0 ? -1 : bins[static_cast<std::size_t>(c)];
        return b < 0 ? missing_bin(f) : b;
    }
    if (std::isnan(x)) return missing_bin(f);
    const int b = first_edge_at_least(edges_.data() + edge_offset_[static_cast<std::size_t>(f)], n_bins(f), x);
    return std::min(b, n_bins(f));  // +inf (never in training data) reads as missing
}

std::uint64_t BinnedMatrix::code_bytes(const BinCuts& cuts, Index n, Index d) {
    return static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(d) * (cuts.fits_byte() ? 1 : 2);
}

BinnedMatrix::BinnedMatrix(const BinCuts& cuts, const Features& X, std::span<const Index> rows, int threads)
    : BinnedMatrix(cuts, rows.empty() ? X.rows() : static_cast<Index>(rows.size()), X.cols()) {
    if (codes_.size() == 0) return;
    if (wide_)
        fill_bins(cuts, X, rows, n_, codes16(), n_, 0, threads);
    else
        fill_bins(cuts, X, rows, n_, codes8(), n_, 0, threads);
}

BinnedMatrix::BinnedMatrix(const BinCuts& cuts, Index n, Index d)
    : BinnedMatrix(cuts, n, d, CodePages::in_memory(static_cast<std::size_t>(code_bytes(cuts, n, d)))) {}

BinnedMatrix::BinnedMatrix(const BinCuts& cuts, Index n, Index d, CodePages pages)
    : n_(n), d_(d), wide_(!cuts.fits_byte()), codes_(std::move(pages)) {
    if (codes_.size() != code_bytes(cuts, n, d))
        throw InternalError("BinnedMatrix: " + std::to_string(codes_.size()) + " bytes for the codes of " +
                            std::to_string(n) + " rows x " + std::to_string(d) + " features");
}

void BinnedMatrix::fill_rows(const BinCuts& cuts, const Features& X, Index first, int threads) {
    if (X.cols() != d_ || first < 0 || first + X.rows() > n_)
        throw InternalError("BinnedMatrix::fill_rows: rows " + std::to_string(first) + " + " +
                            std::to_string(X.rows()) + " of " + std::to_string(X.cols()) +
                            " features outside the matrix");
    if (codes_.size() == 0) return;  // no cells
    if (wide_)
        fill_bins(cuts, X, {}, X.rows(), codes16(), n_, first, threads);
    else
        fill_bins(cuts, X, {}, X.rows(), codes8(), n_, first, threads);
}

BinnedMatrix BinnedMatrix::rows_subset(std::span<const Index> rows) const {
    BinnedMatrix out;
    out.n_ = static_cast<Index>(rows.size());
    out.d_ = d_;
    out.wide_ = wide_;
    const auto cells = static_cast<std::size_t>(out.n_ * d_);
    out.codes_ = CodePages::in_memory(codes_.size() == 0 ? 0 : cells * (wide_ ? 2 : 1));
    if (out.codes_.size() == 0) return out;
    if (wide_)
        column_rows(column16(0), n_, d_, rows, out.codes16());
    else
        column_rows(column8(0), n_, d_, rows, out.codes8());
    return out;
}

// ---- CodePages (kestrel/common/code_pages.hpp): BinnedMatrix's storage. Here, not in a source of
// its own: a new source would move every later source into another unity batch.
namespace {

// The temporary file's descriptor, closed on every way out (the mapping keeps the file).
struct CodeFileDescriptor {
    int fd = -1;
    explicit CodeFileDescriptor(int descriptor) : fd(descriptor) {}
    CodeFileDescriptor(const CodeFileDescriptor&) = delete;
    CodeFileDescriptor& operator=(const CodeFileDescriptor&) = delete;
    ~CodeFileDescriptor() {
        if (fd >= 0) ::close(fd);
    }    // The descriptor kept past this scope (CodePages::read reads through it).
    int keep() { return std::exchange(fd, -1); }
};

[[noreturn]] void refuse_code_file(const std::string& directory, std::size_t bytes, const std::string& why, int err) {
    throw DataError(directory + ": cannot hold " + format_bytes(bytes) + " of the quantized store on disk: " + why +
                    ": " + std::strerror(err));
}

[[noreturn]] void cannot_read_codes(const std::string& name, const std::string& why) {
    throw DataError(name + ": cannot read the quantized store's codes back from disk: " + why);
}

// Whether `fd` reads past the page cache: O_DIRECT set, and a first aligned read taken.
// Some file systems (tmpfs before Linux 6.6) refuse O_DIRECT at the read, with EINVAL:
// the descriptor then reads through the cache (CodePages::read drops what it read).
bool read_direct(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_DIRECT) != 0) return false;
    constexpr std::size_t kUnit = CodePages::kReadAlignment;
    void* probe = std::aligned_alloc(kUnit, kUnit);
    const bool ok = probe != nullptr && ::pread(fd, probe, kUnit, 0) >= 0;
    std::free(probe);
    if (!ok) (void)::fcntl(fd, F_SETFL, flags);
    return ok;
}

}  // namespace

CodePages CodePages::in_memory(std::size_t bytes) {
    CodePages p;
    p.heap_.assign((bytes + 1) / 2, 0);
    p.data_ = reinterpret_cast<std::byte*>(p.heap_.data());
    p.bytes_ = bytes;
    return p;
}

std::string CodePages::default_directory() {
    const char* tmp = std::getenv("TMPDIR");
    return tmp != nullptr && *tmp != '\0' ? std::string(tmp) : std::string("/tmp");
}

CodePages CodePages::in_file(std::size_t bytes, const std::string& directory, std::size_t read_budget) {
    CodePages p;
    p.directory_ = directory.empty() ? default_directory() : directory;
    p.mapped_ = true;
    p.read_budget_ = read_budget;
    if (bytes == 0) return p;  // nothing to map (mmap refuses a length of 0)
    std::string name = p.directory_ + "/kestrel-codes-XXXXXX";
    CodeFileDescriptor file{::mkostemp(name.data(), O_CLOEXEC)};
    if (file.fd < 0) refuse_code_file(p.directory_, bytes, "cannot make a temporary file", errno);
    // Unlinked at once: the mapping keeps the blocks until munmap, nothing is left behind.
    ::unlink(name.c_str());
    // The blocks allocated now, so that a full disk is this error and not a SIGBUS when the
    // kernel writes a page back. posix_fallocate returns the error (it does not set errno).
    // Rounded up to read()'s unit, so that the last column's aligned read is in the file.
    const auto length = static_cast<off_t>((bytes + kReadAlignment - 1) / kReadAlignment * kReadAlignment);
    if (const int err = ::posix_fallocate(file.fd, 0, length); err != 0) {
        // A file system without fallocate: the size only (its blocks allocated as written).
        if (err != EOPNOTSUPP && err != EINVAL) refuse_code_file(p.directory_, bytes, "no room for its blocks", err);
        if (::ftruncate(file.fd, length) != 0) refuse_code_file(p.directory_, bytes, "cannot size the file", errno);
    }
    void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, file.fd, 0);
    if (m == MAP_FAILED) refuse_code_file(p.directory_, bytes, "cannot map the file", errno);
    p.data_ = static_cast<std::byte*>(m);
    p.bytes_ = bytes;
    p.direct_ = read_direct(file.fd);
    p.name_ = std::move(name);
    p.fd_ = file.keep();
    return p;
}

CodePages::CodePages(CodePages&& other) noexcept
    : heap_(std::move(other.heap_)),
      data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      mapped_(std::exchange(other.mapped_, false)),
      directory_(std::move(other.directory_)),
      name_(std::move(other.name_)),
      fd_(std::exchange(other.fd_, -1)),
      direct_(std::exchange(other.direct_, false)),
      read_budget_(std::exchange(other.read_budget_, 0)) {}

CodePages& CodePages::operator=(CodePages&& other) noexcept {
    if (this != &other) {
        release();
        heap_ = std::move(other.heap_);  // the buffer moves with its address: data_ stays valid
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
        mapped_ = std::exchange(other.mapped_, false);
        directory_ = std::move(other.directory_);
        name_ = std::move(other.name_);
        fd_ = std::exchange(other.fd_, -1);
        direct_ = std::exchange(other.direct_, false);
        read_budget_ = std::exchange(other.read_budget_, 0);
    }
    return *this;
}

CodePages::~CodePages() { release(); }

void CodePages::release() noexcept {
    if (mapped_ && data_ != nullptr) ::munmap(data_, bytes_);
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    std::vector<std::uint16_t>().swap(heap_);  // frees the buffer without allocating
    data_ = nullptr;
    bytes_ = 0;
    mapped_ = false;
}

void CodePages::advise(Access access) const {
    if (!mapped_ || data_ == nullptr) return;
    const int advice = access == Access::sequential ? MADV_SEQUENTIAL
                       : access == Access::random   ? MADV_RANDOM
                                                    : MADV_NORMAL;
    (void)::madvise(data_, bytes_, advice);
}

void CodePages::will_need(std::size_t offset, std::size_t bytes) const {
    if (!mapped_ || data_ == nullptr || offset >= bytes_) return;
    static const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t begin = offset / page * page;  // madvise wants a page-aligned start
    const std::size_t end = std::min(bytes_, offset + bytes);
    (void)::madvise(data_ + begin, end - begin, MADV_WILLNEED);
}

void CodePages::read(std::size_t offset, std::size_t bytes, std::byte* into) const {
    if (bytes == 0) return;
    if (fd_ < 0) throw InternalError("CodePages::read: the codes are not in a file");
    for (std::size_t done = 0; done < bytes;) {
        const ssize_t got = ::pread(fd_, into + done, bytes - done, static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) cannot_read_codes(name_, std::strerror(errno));
        if (got == 0)
            cannot_read_codes(name_, "the file ended after " + std::to_string(done) + " of " + std::to_string(bytes) +
                                         " bytes at offset " + std::to_string(offset));
        done += static_cast<std::size_t>(got);
    }
    // Read through the cache: its pages dropped, they would hold the memory a limit counts.
    if (!direct_) (void)::posix_fadvise(fd_, static_cast<off_t>(offset), static_cast<off_t>(bytes), POSIX_FADV_DONTNEED);
}

void CodePages::drop_cached() const {
    if (fd_ < 0 || data_ == nullptr) return;
    // Advice only: a page that cannot be written back now fails the read that needs it.
    (void)::msync(data_, bytes_, MS_SYNC);
    (void)::madvise(data_, bytes_, MADV_DONTNEED);  // a shared mapping: the file keeps the bytes
    (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
}

}  // namespace kestrel

namespace kestrel {
// ---- ColumnReads (kestrel/common/column_reads.hpp): gbdt's reads of the codes in a file. Here,
// beside CodePages, for the same reason.
namespace {

constexpr std::size_t kReadUnit = CodePages::kReadAlignment;

std::size_t round_up_to_reads(std::size_t bytes) { return (bytes + kReadUnit - 1) / kReadUnit * kReadUnit; }

}  // namespace

ColumnReads::ColumnReads(const BinnedMatrix& bins) : bins_(bins) {
    column_bytes_ = static_cast<std::size_t>(bins.rows()) * (bins.wide() ? 2 : 1);
    // A column's aligned read starts up to one alignment unit before its first code.
    const std::size_t capacity = round_up_to_reads(column_bytes_) + kReadUnit;
    const std::size_t budgeted = bins.pages().read_budget() / capacity;
    const auto count = static_cast<std::size_t>(
        std::clamp<Index>(static_cast<Index>(std::min<std::size_t>(budgeted, 1u << 20)), kMinBuffers,
                          std::max<Index>(kMinBuffers, bins.cols())));
    memory_.resize(count * capacity + kReadUnit);
    const auto base = reinterpret_cast<std::uintptr_t>(memory_.data());
    std::byte* aligned = memory_.data() + (round_up_to_reads(base) - base);
    slots_.resize(count);
    for (std::size_t s = 0; s < count; ++s) {
        slots_[s].bytes = aligned + s * capacity;
        free_.push_back(static_cast<int>(s));
    }
}

ColumnReads::~ColumnReads() { stop_pass(); }

void ColumnReads::stop_pass() noexcept {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    if (reader_.joinable()) reader_.join();
}

void ColumnReads::start(std::vector<Index> columns, std::vector<int> uses) {
    stop_pass();  // a pass left unfinished (an exception in its takers' caller)
    for (Slot& s : slots_) s.uses = 0;
    free_.clear();
    for (int s = 0; s < buffers(); ++s) free_.push_back(s);
    columns_ = std::move(columns);
    uses_ = std::move(uses);
    slot_of_.assign(columns_.size(), -1);
    const Index widest = columns_.empty() ? 0 : *std::max_element(columns_.begin(), columns_.end()) + 1;
    position_.assign(static_cast<std::size_t>(std::max<Index>(widest, bins_.cols())), -1);
    for (std::size_t k = 0; k < columns_.size(); ++k) position_[static_cast<std::size_t>(columns_[k])] = static_cast<Index>(k);
    failed_ = stopping_ = false;
    error_ = nullptr;
    reader_ = std::thread([this] { read_pass(); });
}

// A free slot for the pass's k-th column: the one holding it still (cached), else the one
// whose column the pass needs latest, none (Belady's rule: the order is known). Waits while
// every slot is held; -1 when the pass is stopped.
int ColumnReads::take_slot(std::size_t k, std::unique_lock<std::mutex>& lock, bool& cached) {
    changed_.wait(lock, [&] { return stopping_ || !free_.empty(); });
    if (stopping_) return -1;
    const auto later = [&](Index column) {  // its next position in the pass, past k
        const Index at = column < 0 ? -1 : position_[static_cast<std::size_t>(column)];
        return at > static_cast<Index>(k) ? at : std::numeric_limits<Index>::max();
    };
    std::size_t best = 0;
    Index best_later = -1;
    for (std::size_t i = 0; i < free_.size(); ++i) {
        const Index held = slots_[static_cast<std::size_t>(free_[i])].column;
        cached = held == columns_[k];
        if (cached) {
            best = i;
            break;
        }
        if (later(held) > best_later) best = i, best_later = later(held);
    }
    const int slot = free_[best];
    free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(best));
    return slot;
}

// The helper thread: each column of the pass in order, read into a slot unless still held.
void ColumnReads::read_pass() {
    for (std::size_t k = 0; k < columns_.size(); ++k) {
        const Index column = columns_[k];
        bool cached = false;
        int slot = -1;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            slot = take_slot(k, lock, cached);
            if (slot < 0) return;
        }
        Slot& s = slots_[static_cast<std::size_t>(slot)];
        if (!cached) {
            s.column = -1;  // its bytes are overwritten: it holds no column until read
            const std::size_t begin = static_cast<std::size_t>(column) * column_bytes_;
            const std::size_t from = begin / kReadUnit * kReadUnit;
            try {
                bins_.pages().read(from, round_up_to_reads(begin + column_bytes_) - from, s.bytes);
            } catch (...) {
                {
                    const std::lock_guard<std::mutex> lock(mutex_);
                    error_ = std::current_exception();
                    failed_ = true;
                    free_.push_back(slot);
                }
                changed_.notify_all();
                return;
            }
            ++reads_;
        }
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            s.column = column;
            s.uses = uses_[k];
            slot_of_[k] = slot;
            if (s.uses == 0) free_.push_back(slot);
        }
        changed_.notify_all();
    }
}

const std::byte* ColumnReads::acquire(Index k) {
    const auto at = static_cast<std::size_t>(k);
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return slot_of_[at] >= 0 || failed_ || stopping_; });
    if (slot_of_[at] < 0) return nullptr;
    const std::size_t begin = static_cast<std::size_t>(columns_[at]) * column_bytes_;
    return slots_[static_cast<std::size_t>(slot_of_[at])].bytes + (begin - begin / kReadUnit * kReadUnit);
}

void ColumnReads::release(Index k) {
    bool freed = false;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        const int slot = slot_of_[static_cast<std::size_t>(k)];
        if (slot < 0) return;  // never read (a failed pass)
        Slot& s = slots_[static_cast<std::size_t>(slot)];
        freed = --s.uses == 0;
        if (freed) free_.push_back(slot);
    }
    if (freed) changed_.notify_all();
}

void ColumnReads::finish() {
    stop_pass();  // every column taken: the reader is done, or past its last read
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

}  // namespace kestrel
