#include "kestrel/boosting/gbdt_tree_learner.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "kestrel/boosting/gbdt_constraints.hpp"
#include "kestrel/boosting/histogram_kernels.hpp"
#include "kestrel/common/column_reads.hpp"

namespace kestrel {
namespace {

// XGBoost's kRtEps: a split must gain more than rounding noise.
constexpr double kMinGain = 1e-6;
// Below this many histogram cell updates a loop runs on one thread: a fork-join costs more.
constexpr Index kParallelHistogramWork = 1 << 15;
// Rows of a node whose gradient pairs one task gathers into the node's order.
constexpr Index kGatherPiece = 1 << 14;
// From this many rows a lone node's partition is shared by the threads (partition_in_pieces).
constexpr Index kParallelPartitionRows = 1 << 16;

template <class Bin>
Index partition_rows(const Bin* col, int split_bin, int missing_bin, bool missing_left, int* rows, int* tmp,
                     Index begin, Index end) {
    // Branch-free: the side a row takes is data, not control flow (a mispredicted branch
    // per row was most of a partition's cost). Each row is written to both places and only
    // its side's cursor moves; rows[l] with l <= k has already been read.
    Index l = begin, r = begin;
    for (Index k = begin; k < end; ++k) {
        const int row = rows[k];
        const int b = col[row];
        const bool left = (b <= split_bin) | (missing_left & (b == missing_bin));
        rows[l] = row;
        tmp[r] = row;
        l += left;
        r += !left;
    }
    std::copy(tmp + begin, tmp + r, rows + l);
    return l;
}

// A categorical split: the rows whose bin is in left_bins go left, missing ones as told.
template <class Bin>
Index partition_rows_cat(const Bin* col, const std::uint32_t* left_bins, int missing_bin, bool missing_left,
                         int* rows, int* tmp, Index begin, Index end) {
    Index l = begin, r = begin;  // branch-free, as partition_rows
    for (Index k = begin; k < end; ++k) {
        const int row = rows[k];
        const int b = col[row];
        const bool left = b == missing_bin ? missing_left : ((left_bins[b >> 5] >> (b & 31)) & 1u) != 0;
        rows[l] = row;
        tmp[r] = row;
        l += left;
        r += !left;
    }
    std::copy(tmp + begin, tmp + r, rows + l);
    return l;
}

// Rows begin..end partitioned stably (the left rows first, each side in its order) as
// partition(b, e) partitions a range in place, in `pieces` ranges at once, their left parts
// then joined in order and their right parts after them: the order partition(begin, end)
// gives, and so the same rows in every child whatever the threads. tmp: scratch over the range.
template <class Partition>
Index partition_in_pieces(Partition partition, int* rows, int* tmp, Index begin, Index end, int pieces) {
    std::vector<Index> from(static_cast<std::size_t>(pieces) + 1), mid(static_cast<std::size_t>(pieces));
    for (int p = 0; p <= pieces; ++p) from[static_cast<std::size_t>(p)] = begin + (end - begin) * p / pieces;
    const auto at = [&](int p) { return static_cast<std::size_t>(p); };
#pragma omp parallel num_threads(pieces)
    {
#pragma omp for schedule(static)
        for (int p = 0; p < pieces; ++p) mid[at(p)] = partition(from[at(p)], from[at(p + 1)]);
#pragma omp for schedule(static)
        for (int p = 0; p < pieces; ++p) {
            Index left = begin, right = begin;
            for (int u = 0; u < pieces; ++u) right += mid[at(u)] - from[at(u)];
            for (int u = 0; u < p; ++u) {
                left += mid[at(u)] - from[at(u)];
                right += from[at(u + 1)] - mid[at(u)];
            }
            std::copy(rows + from[at(p)], rows + mid[at(p)], tmp + left);
            std::copy(rows + mid[at(p)], rows + from[at(p + 1)], tmp + right);
        }
#pragma omp for schedule(static)
        for (int p = 0; p < pieces; ++p) std::copy(tmp + from[at(p)], tmp + from[at(p + 1)], rows + from[at(p)]);
    }
    Index left = begin;
    for (int p = 0; p < pieces; ++p) left += mid[at(p)] - from[at(p)];
    return left;
}

inline bool bit(const std::vector<std::uint32_t>& words, int b) {
    return ((words[static_cast<std::size_t>(b >> 5)] >> (b & 31)) & 1u) != 0;
}

}  // namespace

HistTreeLearner::HistTreeLearner(const BinnedMatrix& bins, const BinCuts& cuts, HistTreeParams params, int threads)
    : bins_(bins), cuts_(cuts), p_(std::move(params)), threads_(std::max(1, threads)),
      constrained_(!p_.monotone.empty()) {
    if (!bins_.pages().in_file()) return;
    reads_ = std::make_unique<ColumnReads>(bins_);
    bins_.pages().drop_cached();  // the written pages leave the cache: the histograms read past it
}

HistTreeLearner::HistTreeLearner(HistTreeLearner&&) noexcept = default;
HistTreeLearner::~HistTreeLearner() = default;

int HistTreeLearner::acquire_slot() {
    if (!free_.empty()) {
        const int s = free_.back();
        free_.pop_back();
        return s;
    }
    pool_.emplace_back(static_cast<std::size_t>(cuts_.total_cells()));
    return static_cast<int>(pool_.size()) - 1;
}

void HistTreeLearner::release_slot(int slot) {
    if (slot >= 0) free_.push_back(slot);
}

bool HistTreeLearner::may_split(const Node& n) const {
    return (p_.max_depth == 0 || n.depth < p_.max_depth) && n.count >= std::max<Index>(2, 2 * Index{p_.min_data_in_leaf}) &&
           n.h >= 2 * p_.min_child_weight;
}

// min_data_in_leaf: the histograms hold Σg and Σh, not row counts, so the left child's rows
// are estimated from its Hessian (LightGBM's cnt_factor) and the right child has the rest.
HistTreeLearner::RowsRule HistTreeLearner::rows_rule(const Node& n) const {
    RowsRule r;
    if (p_.min_data_in_leaf <= 0) return r;
    r.on = true;
    r.rows_per_h = n.h > 0 ? static_cast<double>(n.count) / n.h : 0.0;
    r.lo = static_cast<double>(p_.min_data_in_leaf) - 0.5;
    r.hi = static_cast<double>(n.count - p_.min_data_in_leaf) + 0.5;
    return r;
}

void HistTreeLearner::add_tree_node(Node& n, GrownTree& out) const {
    TreeNode t;
    t.weight = n.h;
    t.samples = n.count;
    // XGBoost's CalcWeight: no step for a node below min_child_weight (only a lone root can be).
    double w = n.h < p_.min_child_weight || n.h <= 0 ? 0.0 : leaf_weight(n.g, n.h);
    if (constrained_) w = std::clamp(w, n.lower, n.upper);
    const double value = p_.learning_rate * w;
    n.id = out.tree.add_node(t, &value);
    out.split_bin.push_back(-1);
}

void HistTreeLearner::build_histograms(std::span<Node* const> nodes, const GradPair* gh) {
    const Index m = static_cast<Index>(rows_.size());
    const auto whole = [&](const Node* n) { return contiguous_root_ && n->begin == 0 && n->end == m; };
    const auto n_nodes = static_cast<Index>(nodes.size());
    const auto nf = static_cast<Index>(features_.size());
    const Index tasks = n_nodes * nf;
    const bool wide = bins_.wide();
    // Codes in pages on disk: every node of the batch takes a column in turn, so that the
    // column is read from disk once a level, not once a node (the learner's buffers hold a
    // few columns, not the store). In memory a node takes its columns a few at
    // a time (accumulate_block), its gradients kept in cache and each row's read once for
    // those columns. Each histogram is the same sum either way.
    const bool feature_major = reads_ != nullptr;
    // ... and the columns taken in the opposite order from the last batch's, so that the
    // columns read last, still in the buffers, are read first (in one order every batch, the
    // least recently read column, the one replaced first, is always the next one needed).
    const bool backward = feature_major && (histogram_batches_++ % 2 == 1);
    const auto column_at = [&](Index i) { return features_[static_cast<std::size_t>(backward ? nf - 1 - i : i)]; };
    if (feature_major) {  // read in that order into the learner's buffers while the threads sum
        std::vector<Index> order(static_cast<std::size_t>(nf));
        for (Index i = 0; i < nf; ++i) order[static_cast<std::size_t>(i)] = column_at(i);
        reads_->start(std::move(order), std::vector<int>(static_cast<std::size_t>(nf), static_cast<int>(n_nodes)));
    }
    Index work = 0;
    int max_cells = 0;
    for (const Node* n : nodes) work += (n->end - n->begin) * nf;
    for (const int f : features_) max_cells = std::max(max_cells, cuts_.n_bins(f) + 1);
    // The tasks: on disk one column of one node each, column by column (column_at's order);
    // in memory, per node, runs of up to kBlockFeatures consecutive features that take one or
    // two chains alike. `first` is the run's first position in column_at's order.
    struct Block {
        Index node = 0, first = 0;
        int count = 0;
        bool two_chains = false;
    };
    const auto two_chains = [&](const Node* n, Index i) {
        return n->end - n->begin >= kRowsPerCellForTwoChains * (cuts_.n_bins(column_at(i)) + 1);
    };
    std::vector<Block> blocks;
    blocks.reserve(static_cast<std::size_t>(tasks));
    if (feature_major) {
        for (Index i = 0; i < nf; ++i)
            for (Index j = 0; j < n_nodes; ++j) blocks.push_back({j, i, 1, two_chains(nodes[static_cast<std::size_t>(j)], i)});
    } else {
        // A node's features in `parts` runs of nearly equal length (at most kBlockFeatures).
        // With fewer nodes than two a thread (the root, the first level, leaf-wise growth),
        // as many runs as make a multiple of the threads: 20 features in five runs of four left
        // one of two threads idle for a fifth of the node; in six (3, 3, 4, 3, 3, 4) neither.
        Index parts = (nf + kBlockFeatures - 1) / kBlockFeatures;
        if (threads_ > 1 && n_nodes < Index{2} * threads_) parts = std::min(nf, (parts + threads_ - 1) / threads_ * threads_);
        for (Index j = 0; j < n_nodes; ++j) {
            const Node* n = nodes[static_cast<std::size_t>(j)];
            for (Index i = 0, part = 0; i < nf; ++i) {
                const bool two = two_chains(n, i);
                const bool next_part = i == part * nf / parts;
                if (next_part) ++part;
                if (blocks.empty() || blocks.back().node != j || next_part || blocks.back().two_chains != two ||
                    blocks.back().count == kBlockFeatures)
                    blocks.push_back({j, i, 0, two});
                ++blocks.back().count;
            }
        }
    }
    const auto n_blocks = static_cast<Index>(blocks.size());
    // The nodes' gradient pairs in their rows' order, in pieces, so that one large node (the
    // first level's) is not gathered by one thread while the others wait.
    std::vector<std::pair<Index, Index>> gather;
    for (const Node* n : nodes)
        if (!whole(n))
            for (Index k = n->begin; k < n->end; k += kGatherPiece) gather.emplace_back(k, std::min(n->end, k + kGatherPiece));
#pragma omp parallel num_threads(threads_) if (threads_ > 1 && work >= kParallelHistogramWork)
    {
#pragma omp for schedule(dynamic)
    for (std::size_t c = 0; c < gather.size(); ++c)
        for (Index k = gather[c].first; k < gather[c].second; ++k)
            ordered_[static_cast<std::size_t>(k)] = gh[rows_[static_cast<std::size_t>(k)]];
    std::vector<BinStat> spare(static_cast<std::size_t>(max_cells) * kBlockFeatures);
    BlockColumns<std::uint8_t> c8{};
    BlockColumns<std::uint16_t> c16{};
    const auto all = [](Index k) { return k; };
    const int* r = rows_.data();
    const auto listed = [r](Index k) { return r[k]; };
#pragma omp for schedule(dynamic)
    for (Index t = 0; t < n_blocks; ++t) {
        const Block& bk = blocks[static_cast<std::size_t>(t)];
        const Node* n = nodes[static_cast<std::size_t>(bk.node)];
        const std::byte* read = feature_major ? reads_->acquire(bk.first) : nullptr;  // one column a task
        if (feature_major && read == nullptr) continue;  // a failed read: finish() throws its error
        for (int q = 0; q < bk.count; ++q) {
            const Index f = column_at(bk.first + q);
            BinStat* h = hist(n->slot) + cuts_.offset(f);
            const int cells = cuts_.n_bins(f) + 1;
            std::fill(h, h + cells, BinStat{});
            BinStat* sp = spare.data() + static_cast<std::ptrdiff_t>(q) * max_cells;
            const auto set = [&](auto& c, const auto* col) {
                c.col[q] = col;
                c.hist[q] = h;
                c.spare[q] = sp;
                c.cells[q] = cells;
            };
            if (wide) set(c16, read ? reinterpret_cast<const std::uint16_t*>(read) : bins_.column16(f));
            else set(c8, read ? reinterpret_cast<const std::uint8_t*>(read) : bins_.column8(f));
        }
        if (whole(n)) {
            if (wide) accumulate_block(c16, bk.count, all, gh, 0, m, bk.two_chains);
            else accumulate_block(c8, bk.count, all, gh, 0, m, bk.two_chains);
        } else if (wide) {
            accumulate_block(c16, bk.count, listed, ordered_.data(), n->begin, n->end, bk.two_chains);
        } else {
            accumulate_block(c8, bk.count, listed, ordered_.data(), n->begin, n->end, bk.two_chains);
        }
        if (feature_major) reads_->release(bk.first);
    }
    }
    if (feature_major) reads_->finish();
    if (p_.rows_sharded) sum_histograms_over_ranks(nodes);
}

// The nodes' cells of the features in play, in one message: node by node, feature by
// feature, each cell's Σg then Σh.
void HistTreeLearner::sum_histograms_over_ranks(std::span<Node* const> nodes) {
    std::vector<double> cells;
    for (const Node* n : nodes)
        for (const int f : features_) {
            const BinStat* h = hist(n->slot) + cuts_.offset(f);
            for (int b = 0; b <= cuts_.n_bins(f); ++b) {
                cells.push_back(h[b].g);
                cells.push_back(h[b].h);
            }
        }
    sum_over_ranks(true, cells);
    std::size_t at = 0;
    for (const Node* n : nodes)
        for (const int f : features_) {
            BinStat* h = hist(n->slot) + cuts_.offset(f);
            for (int b = 0; b <= cuts_.n_bins(f); ++b) {
                h[b].g = cells[at++];
                h[b].h = cells[at++];
            }
        }
}

// Every candidate's gain at once, -inf where min_child_weight or min_data_in_leaf forbids
// it: without constraints a loop the compiler runs two candidates a vector, each gain the
// same IEEE operations in the same order as split_gain's.
void HistTreeLearner::candidate_gains(const Node& n, int sign, Candidates& c, int count) const {
    const double mcw = p_.min_child_weight;
    const double g = n.g, h = n.h;
    const double parent = parent_score(n);
    const RowsRule rows = rows_rule(n);
    constexpr double kNone = -std::numeric_limits<double>::infinity();
    const double* cgl = c.gl.data();
    const double* chl = c.hl.data();
    double* gain = c.gain.data();
    int i = 0;
    if (!constrained_ && p_.max_delta_step <= 0) {
        const double lambda = p_.lambda;
        const double rows_per_h = rows.rows_per_h, lo = rows.lo, hi = rows.hi;
#if defined(__SSE2__)
        // Two candidates a vector (compare masks for the branches the scalar loop would take:
        // with trapping math the compiler does not turn them into selects itself).
        const __m128d vg = _mm_set1_pd(g), vh = _mm_set1_pd(h), vmcw = _mm_set1_pd(mcw), vlambda = _mm_set1_pd(lambda);
        const __m128d vparent = _mm_set1_pd(parent), vrows = _mm_set1_pd(rows_per_h), vlo = _mm_set1_pd(lo);
        const __m128d vhi = _mm_set1_pd(hi), vnone = _mm_set1_pd(kNone);
        const __m128d no_rule = rows.on ? _mm_setzero_pd() : _mm_castsi128_pd(_mm_set1_epi32(-1));
        for (; i + 2 <= count; i += 2) {
            const __m128d gl = _mm_loadu_pd(cgl + i), hl = _mm_loadu_pd(chl + i);
            const __m128d gr = _mm_sub_pd(vg, gl), hr = _mm_sub_pd(vh, hl);
            const __m128d x = _mm_mul_pd(hl, vrows);
            const __m128d light = _mm_or_pd(_mm_cmplt_pd(hl, vmcw), _mm_cmplt_pd(hr, vmcw));
            const __m128d rows_ok = _mm_or_pd(no_rule, _mm_and_pd(_mm_cmpge_pd(x, vlo), _mm_cmplt_pd(x, vhi)));
            const __m128d ok = _mm_andnot_pd(light, rows_ok);
            const __m128d left = _mm_div_pd(_mm_mul_pd(gl, gl), _mm_add_pd(hl, vlambda));
            const __m128d right = _mm_div_pd(_mm_mul_pd(gr, gr), _mm_add_pd(hr, vlambda));
            const __m128d v = _mm_sub_pd(_mm_add_pd(left, right), vparent);
            _mm_storeu_pd(gain + i, _mm_or_pd(_mm_and_pd(ok, v), _mm_andnot_pd(ok, vnone)));
        }
#endif
        for (; i < count; ++i) {
            const double gl = cgl[i], hl = chl[i];
            const double gr = g - gl, hr = h - hl;
            const double x = hl * rows_per_h;
            const bool ok = !(hl < mcw || hr < mcw) && (!rows.on || (x >= lo && x < hi));
            gain[i] = ok ? gl * gl / (hl + lambda) + gr * gr / (hr + lambda) - parent : kNone;
        }
        return;
    }
    for (; i < count; ++i) {
        const double gl = cgl[i], hl = chl[i];
        const double hr = h - hl;
        double wl = 0, wr = 0;
        gain[i] = hl < mcw || hr < mcw || !rows.allows(hl) ? kNone : split_gain(n, sign, parent, gl, hl, g - gl, hr, wl, wr);
    }
}

HistTreeLearner::Split HistTreeLearner::best_split_of(const BinStat* hist, Index f, const Node& n, Candidates& c) const {
    const int nb = cuts_.n_bins(f);
    const BinStat miss = hist[nb];
    const bool has_missing = miss.h != 0 || miss.g != 0;
    const int sign = sign_of(f);
    const std::size_t most = 2 * static_cast<std::size_t>(nb) + 1;
    if (c.gl.size() < most) {
        c.gl.resize(most);
        c.hl.resize(most);
        c.gain.resize(most);
        c.bin_side.resize(most);
    }
    double* cgl = c.gl.data();
    double* chl = c.hl.data();
    int* bin_side = c.bin_side.data();
    int count = 0;
    // The missing rows go with either side; the monotone order is checked on the weights
    // as they are (XGBoost's rule), which orders the non-missing values of the two sides.
    const auto put = [&](double gl, double hl, int bin, bool missing_left) {
        cgl[count] = gl;
        chl[count] = hl;
        bin_side[count++] = 2 * bin + static_cast<int>(missing_left);
    };
    double gl = 0, hl = 0;
    for (int b = 0; b + 1 < nb; ++b) {
        // An empty bin repeats the split before it, which wins the tie anyway.
        if (hist[b].h == 0 && hist[b].g == 0 && b > 0) continue;
        gl += hist[b].g;
        hl += hist[b].h;
        put(gl, hl, b, false);
        if (has_missing) put(gl + miss.g, hl + miss.h, b, true);
    }
    // Every value left, the missing ones right.
    if (has_missing) put(gl + hist[nb - 1].g, hl + hist[nb - 1].h, nb - 1, false);
    candidate_gains(n, sign, c, count);
    // The first of the largest gains, as a scan keeping the best so far.
    const double* gain = c.gain.data();
    int at = -1;
    double best_gain = 0;
    for (int i = 0; i < count; ++i)
        if (gain[i] > best_gain) {
            best_gain = gain[i];
            at = i;
        }
    if (at < 0) return Split{};
    const auto i = static_cast<std::size_t>(at);
    Split best{best_gain, cgl[i], chl[i], static_cast<int>(f), bin_side[i] / 2, bin_side[i] % 2 != 0, -1, 0, 0};
    // Under constraints the children's clamped weights, as the gain computed them.
    if (constrained_) split_gain(n, sign, parent_score(n), best.gl, best.hl, n.g - best.gl, n.h - best.hl, best.wl, best.wr);
    return best;
}

// LightGBM's FindBestThresholdCategorical with the gain and min_child_weight of the
// numeric splits; a bin's row count is estimated from its Hessian as LightGBM does
// (count/H rows per unit of Hessian: exact for the squared loss without weights). The
// missing bin is not a category: every candidate set is tried with the missing rows on
// either side, and "missing left, every category right" is a candidate too.
HistTreeLearner::Split HistTreeLearner::best_categorical_split(const BinStat* hist, Index f, const Node& n,
                                                               std::vector<std::uint32_t>& left_bins) const {
    const int nb = cuts_.n_bins(f);
    const BinStat miss = hist[nb];
    const bool has_missing = miss.h != 0 || miss.g != 0;
    const double mcw = p_.min_child_weight;
    const double g = n.g, h = n.h;
    const Index count = n.count;
    const double parent = parent_score(n);
    const double rows_per_h = h > 0 ? static_cast<double>(count) / h : 0.0;
    const RowsRule rows = rows_rule(n);
    Split best;
    // The best candidate's left set: one bin (one against the rest), or the first `len`
    // of `order` read from the front (dir > 0) or the back; len 0: no category left.
    int best_one = -1, best_dir = 0, best_len = 0;
    const auto consider = [&](double gl, double hl, bool missing_left) {
        const double hr = h - hl;
        if (hl < mcw || hr < mcw || !rows.allows(hl)) return false;
        const double gr = g - gl;
        double wl = 0, wr = 0;  // a categorical feature has no monotone sign: only the bounds clamp
        const double gain = split_gain(n, 0, parent, gl, hl, gr, hr, wl, wr);
        if (!(gain > best.gain)) return false;
        best = Split{gain, gl, hl, static_cast<int>(f), -1, missing_left, 0, wl, wr};
        return true;
    };
    const auto nonempty = [&](int b) { return hist[b].h != 0 || hist[b].g != 0; };
    if (has_missing && consider(miss.g, miss.h, true)) best_one = -1, best_len = 0, best_dir = 0;

    std::vector<int> order;
    if (nb <= p_.max_cat_to_onehot) {
        for (int b = 0; b < nb; ++b) {
            if (!nonempty(b)) continue;
            if (consider(hist[b].g, hist[b].h, false)) best_one = b;
            if (has_missing && consider(hist[b].g + miss.g, hist[b].h + miss.h, true)) best_one = b;
        }
    } else {
        const double smooth = p_.cat_smooth;
        for (int b = 0; b < nb; ++b)
            if (nonempty(b) && hist[b].h * rows_per_h >= smooth) order.push_back(b);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return hist[a].g / (hist[a].h + smooth) < hist[b].g / (hist[b].h + smooth);
        });
        const int used = static_cast<int>(order.size());
        const int max_num_cat = std::min(p_.max_cat_threshold, (used + 1) / 2);
        const auto per_group = static_cast<double>(p_.min_data_per_group);
        for (const int dir : {1, -1}) {
            int pos = dir > 0 ? 0 : used - 1;
            double gl = 0, hl = 0, left_count = 0, group = 0;
            for (int i = 0; i < used && i < max_num_cat; ++i, pos += dir) {
                const BinStat& s = hist[order[static_cast<std::size_t>(pos)]];
                gl += s.g;
                hl += s.h;
                left_count += s.h * rows_per_h;
                group += s.h * rows_per_h;
                if (hl < mcw) continue;
                if (static_cast<double>(count) - left_count < per_group || h - hl < mcw) break;
                if (group < per_group) continue;
                group = 0;
                if (consider(gl, hl, false)) best_one = -1, best_dir = dir, best_len = i + 1;
                if (has_missing && consider(gl + miss.g, hl + miss.h, true))
                    best_one = -1, best_dir = dir, best_len = i + 1;
            }
        }
    }
    if (best.feature < 0) return best;
    left_bins.assign(static_cast<std::size_t>((nb + 1 + 31) / 32), 0u);
    const auto set = [&](int b) { left_bins[static_cast<std::size_t>(b >> 5)] |= 1u << (b & 31); };
    if (best_one >= 0) {
        set(best_one);
    } else {
        const int used = static_cast<int>(order.size());
        for (int i = 0; i < best_len; ++i)
            set(order[static_cast<std::size_t>(best_dir > 0 ? i : used - 1 - i)]);
    }
    return best;
}

void HistTreeLearner::find_splits(std::span<Node* const> nodes) {
    const auto nf = static_cast<Index>(features_.size());
    const Index tasks = static_cast<Index>(nodes.size()) * nf;
    std::vector<Split> found(static_cast<std::size_t>(tasks));
    // Left bins of each task's categorical candidate (none without categorical features).
    std::vector<std::vector<std::uint32_t>> found_sets(cuts_.any_categorical() ? static_cast<std::size_t>(tasks) : 0);
    const Index work = static_cast<Index>(nodes.size()) * cuts_.total_cells();
    // Interaction constraints: per node, the features its path allows.
    std::vector<std::vector<char>> allowed(p_.interactions.empty() ? 0 : nodes.size());
    for (std::size_t j = 0; j < allowed.size(); ++j)
        allowed_features(p_.interactions, nodes[j]->path, cuts_.n_features(), allowed[j]);
#pragma omp parallel num_threads(threads_) if (threads_ > 1 && work >= kParallelHistogramWork)
    {
    Candidates candidates;
#pragma omp for schedule(dynamic)
    for (Index t = 0; t < tasks; ++t) {
        Node* n = nodes[static_cast<std::size_t>(t / nf)];
        const Index f = features_[static_cast<std::size_t>(t % nf)];
        BinStat* h = hist(n->slot) + cuts_.offset(f);
        if (n->minus_slot >= 0) {  // the larger child: parent − smaller sibling
            const BinStat* s = hist(n->minus_slot) + cuts_.offset(f);
            for (int b = 0; b <= cuts_.n_bins(f); ++b) {
                h[b].g -= s[b].g;
                h[b].h -= s[b].h;
            }
        }
        const auto ut = static_cast<std::size_t>(t);
        // After the subtraction: a child's histogram is built from this one.
        if (!allowed.empty() && !allowed[static_cast<std::size_t>(t / nf)][static_cast<std::size_t>(f)]) continue;
        found[ut] = cuts_.is_categorical(f) ? best_categorical_split(h, f, *n, found_sets[ut])
                                            : best_split_of(h, f, *n, candidates);
    }
    }
    // Features in order, the first of equal gains: the same split for any thread count.
    const double threshold = std::max(p_.gamma, kMinGain);
    for (std::size_t j = 0; j < nodes.size(); ++j) {
        Split best;
        std::size_t best_task = 0;
        for (Index fi = 0; fi < nf; ++fi) {
            const std::size_t task = j * static_cast<std::size_t>(nf) + static_cast<std::size_t>(fi);
            const Split& s = found[task];
            if (s.feature >= 0 && s.gain > best.gain) {
                best = s;
                best_task = task;
            }
        }
        if (!(best.feature >= 0 && best.gain > threshold)) best = Split{};
        if (best.set >= 0) {  // a categorical split: its bins into the learner's pool
            sets_.push_back(std::move(found_sets[best_task]));
            best.set = static_cast<int>(sets_.size()) - 1;
        }
        nodes[j]->best = best;
    }
}

std::vector<HistTreeLearner::Node> HistTreeLearner::expand(std::span<Node* const> batch, const GradPair* gh,
                                                           GrownTree& out) {
    const auto nb = static_cast<Index>(batch.size());
    std::vector<Index> mid(batch.size());
    const bool wide = bins_.wide();
    Index moved = 0;
    for (const Node* n : batch) moved += n->end - n->begin;
    // Codes on disk: the partitions are the mapping's only readers, without read-ahead; their
    // split columns are asked for at once, before they fault on them.
    if (bins_.pages().in_file())
        for (const Node* n : batch) bins_.will_need_column(n->best.feature);
    // Node n's rows begin..end (a part of its range) partitioned by its split.
    const auto partition = [&](const Node& n, Index begin, Index end) {
        const Split& s = n.best;
        const int miss = cuts_.missing_bin(s.feature);
        if (s.set >= 0) {
            const std::uint32_t* left = sets_[static_cast<std::size_t>(s.set)].data();
            return wide ? partition_rows_cat(bins_.column16(s.feature), left, miss, s.missing_left, rows_.data(),
                                             partition_scratch(), begin, end)
                        : partition_rows_cat(bins_.column8(s.feature), left, miss, s.missing_left, rows_.data(),
                                             partition_scratch(), begin, end);
        }
        return wide ? partition_rows(bins_.column16(s.feature), s.bin, miss, s.missing_left, rows_.data(), partition_scratch(),
                                     begin, end)
                    : partition_rows(bins_.column8(s.feature), s.bin, miss, s.missing_left, rows_.data(), partition_scratch(),
                                     begin, end);
    };
    // A node with more than a thread's share of the level's rows (the root, the larger child
    // on the first level, leaf-wise growth) would keep the other threads waiting: its range in
    // a piece a thread, then joined. The other nodes take a thread each.
    std::vector<Index> whole;
    for (Index j = 0; j < nb; ++j) {
        const Node& n = *batch[static_cast<std::size_t>(j)];
        const Index size = n.end - n.begin;
        if (threads_ > 1 && size >= kParallelPartitionRows && size * threads_ > moved)
            mid[static_cast<std::size_t>(j)] = partition_in_pieces([&](Index b, Index e) { return partition(n, b, e); },
                                                                   rows_.data(), partition_scratch(), n.begin, n.end,
                                                                   threads_);
        else
            whole.push_back(j);
    }
    const auto n_whole = static_cast<Index>(whole.size());
    const bool parallel = threads_ > 1 && n_whole > 1 && moved >= kParallelHistogramWork;
#pragma omp parallel for schedule(dynamic) num_threads(threads_) if (parallel)
    for (Index i = 0; i < n_whole; ++i) {
        const auto j = static_cast<std::size_t>(whole[static_cast<std::size_t>(i)]);
        mid[j] = partition(*batch[j], batch[j]->begin, batch[j]->end);
    }

    std::vector<Node> kids;
    kids.reserve(2 * batch.size());
    for (std::size_t j = 0; j < batch.size(); ++j) {
        const Node& n = *batch[j];
        const Split& s = n.best;
        Node l, r;
        l.depth = r.depth = n.depth + 1;
        l.begin = n.begin;
        l.end = r.begin = mid[j];
        r.end = n.end;
        l.count = l.end - l.begin;
        r.count = r.end - r.begin;
        l.g = s.gl;
        l.h = s.hl;
        r.g = n.g - s.gl;
        r.h = n.h - s.hl;
        l.lower = r.lower = n.lower;
        l.upper = r.upper = n.upper;
        if (const int sign = sign_of(s.feature); sign != 0) {
            // XGBoost's AddSplit: the children meet at the midpoint of their weights, so every
            // leaf below the left one stays on its side of every leaf below the right one.
            const double meet = (s.wl + s.wr) / 2;
            (sign > 0 ? l.upper : l.lower) = meet;
            (sign > 0 ? r.lower : r.upper) = meet;
        }
        if (!p_.interactions.empty()) {
            l.path = n.path;
            const auto at = std::lower_bound(l.path.begin(), l.path.end(), s.feature);
            if (at == l.path.end() || *at != s.feature) l.path.insert(at, s.feature);
            r.path = l.path;
        }
        add_tree_node(l, out);
        add_tree_node(r, out);
        TreeNode& t = out.tree.node(n.id);
        t.feature = s.feature;
        // A categorical split keeps its set aside (GrownTree::left_bins); its threshold is 0.
        t.threshold = s.set < 0 ? cuts_.upper(s.feature, s.bin) : 0.0;
        t.left = l.id;
        t.right = r.id;
        t.missing_left = s.missing_left;
        t.impurity = s.gain;
        out.split_bin[static_cast<std::size_t>(n.id)] = s.bin;
        if (s.set >= 0) {
            out.left_bins.resize(static_cast<std::size_t>(out.tree.size()));
            out.left_bins[static_cast<std::size_t>(n.id)] = sets_[static_cast<std::size_t>(s.set)];
        }
        kids.push_back(l);
        kids.push_back(r);
    }
    if (p_.rows_sharded) {  // the children's row counts on every rank
        std::vector<double> counts;
        for (const Node& k : kids) counts.push_back(static_cast<double>(k.count));
        sum_over_ranks(true, counts);
        for (std::size_t i = 0; i < kids.size(); ++i) {
            kids[i].count = static_cast<Index>(counts[i]);
            out.tree.node(kids[i].id).samples = kids[i].count;
        }
    }

    // Histograms: the smaller child built, the larger one the parent's minus it (in
    // find_splits, feature by feature).
    std::vector<Node*> build, splittable;
    std::vector<int> spare;
    for (std::size_t j = 0; j < batch.size(); ++j) {
        Node* l = &kids[2 * j];
        Node* r = &kids[2 * j + 1];
        const bool need_l = may_split(*l), need_r = may_split(*r);
        const int parent_slot = batch[j]->slot;
        if (!need_l && !need_r) {
            release_slot(parent_slot);
            continue;
        }
        Node* small = l->count <= r->count ? l : r;  // the same child on every rank
        Node* large = small == l ? r : l;
        small->slot = acquire_slot();
        build.push_back(small);
        if (may_split(*large)) {
            large->slot = parent_slot;
            large->minus_slot = small->slot;
            splittable.push_back(large);
        } else {
            release_slot(parent_slot);
        }
        if (may_split(*small))
            splittable.push_back(small);
        else
            spare.push_back(small->slot);
    }
    build_histograms(build, gh);
    // Splits in a fixed order of nodes (left before right).
    std::sort(splittable.begin(), splittable.end(), [](const Node* a, const Node* b) { return a->id < b->id; });
    find_splits(splittable);
    for (Node& k : kids) k.minus_slot = -1;
    for (int s : spare) release_slot(s);
    for (Node* n : build)
        if (!may_split(*n)) n->slot = -1;
    return kids;
}

GrownTree HistTreeLearner::grow(std::span<const int> rows, const GradPair* gh, std::span<const int> features) {
    rows_.assign(rows.begin(), rows.end());
    return grow_listed(gh, features);
}

GrownTree HistTreeLearner::grow_all(const GradPair* gh, std::span<const int> features) {
    rows_.resize(static_cast<std::size_t>(bins_.rows()));
    std::iota(rows_.begin(), rows_.end(), 0);
    return grow_listed(gh, features);
}

GrownTree HistTreeLearner::grow_listed(const GradPair* gh, std::span<const int> features) {
    // Codes on disk: the partitions' split columns are asked for before they are read
    // (will_need_column), and the kernel's read-ahead (8 MB on some disks, eight 1 MB
    // columns) would read past each into columns no partition reads.
    bins_.pages().advise(CodePages::Access::random);
    features_.assign(features.begin(), features.end());
    sets_.clear();
    const auto m = static_cast<Index>(rows_.size());
    ordered_.resize(rows_.size());
    contiguous_root_ = m == bins_.rows();  // ascending distinct rows: every row, in order

    GrownTree out;
    out.tree = Tree(cuts_.n_features(), 1);
    Node root;
    root.end = root.count = m;
    if (p_.rows_sharded) {
        double all = static_cast<double>(m);
        sum_over_ranks(true, std::span<double>(&all, 1));
        root.count = static_cast<Index>(all);
    }
    root.slot = acquire_slot();
    Node* rp = &root;
    build_histograms({&rp, 1}, gh);
    {
        const Index f = features_.front();
        const BinStat* h = hist(root.slot) + cuts_.offset(f);
        for (int b = 0; b <= cuts_.n_bins(f); ++b) {
            root.g += h[b].g;
            root.h += h[b].h;
        }
    }
    add_tree_node(root, out);
    if (may_split(root)) find_splits({&rp, 1});

    std::vector<Node> leaves;
    const auto finish = [&](Node& n) {
        release_slot(n.slot);
        n.slot = -1;
        leaves.push_back(n);
    };
    if (p_.max_leaves == 0) {
        std::vector<Node> level{root};
        while (!level.empty()) {
            std::vector<Node*> batch;
            for (Node& n : level) {
                if (n.best.feature >= 0)
                    batch.push_back(&n);
                else
                    finish(n);
            }
            if (batch.empty()) break;
            level = expand(batch, gh, out);
        }
    } else {
        const auto worse = [](const Node& a, const Node& b) {
            return a.best.gain < b.best.gain || (a.best.gain == b.best.gain && a.id > b.id);
        };
        std::priority_queue<Node, std::vector<Node>, decltype(worse)> open(worse);
        const auto offer = [&](Node& n) {
            if (n.best.feature >= 0)
                open.push(n);
            else
                finish(n);
        };
        offer(root);
        int n_leaves = 1;
        while (!open.empty() && n_leaves < p_.max_leaves) {
            Node n = open.top();
            open.pop();
            Node* np = &n;
            for (Node& kid : expand({&np, 1}, gh, out)) offer(kid);
            ++n_leaves;
        }
        while (!open.empty()) {
            Node n = open.top();
            open.pop();
            finish(n);
        }
    }
    std::sort(leaves.begin(), leaves.end(), [](const Node& a, const Node& b) { return a.id < b.id; });
    for (const Node& n : leaves) {
        out.leaves.push_back(n.id);
        out.leaf_begin.push_back(n.begin);
        out.leaf_end.push_back(n.end);
        if (constrained_) {
            out.leaf_lower.push_back(n.lower);
            out.leaf_upper.push_back(n.upper);
        }
    }
    return out;
}

int apply_binned(const GrownTree& t, const BinnedMatrix& bins, const BinCuts& cuts, Index row) {
    int i = 0;
    while (!t.tree.node(i).is_leaf()) {
        const TreeNode& n = t.tree.node(i);
        const int b = bins.bin(n.feature, row);
        const auto ui = static_cast<std::size_t>(i);
        const bool categorical = ui < t.left_bins.size() && !t.left_bins[ui].empty();
        const bool left = categorical ? (b == cuts.missing_bin(n.feature) ? n.missing_left : bit(t.left_bins[ui], b))
                                      : b <= t.split_bin[ui] || (n.missing_left && b == cuts.missing_bin(n.feature));
        i = left ? n.left : n.right;
    }
    return i;
}

}  // namespace kestrel
