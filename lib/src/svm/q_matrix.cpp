// Column cache and the kernel-backed Q matrices of the SVM duals.
#include "kestrel/svm/q_matrix.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "kestrel/common/simd.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel {

// The passes over a column here (the float conversion of a kernel row, an SvrQ expansion,
// Ḡ's update: ~1 ns an entry) come once or twice per SMO iteration and run on one thread:
// a fork-join per iteration costs far more than it saves on a shared machine
// (smo_solver.cpp). Only the kernel rows themselves and large batches of pending swaps
// (apply_pending_swaps, once per shrink) may use the threads.

// ---------------------------------------------------------------- ColumnCache

ColumnCache::ColumnCache(Index columns, Index column_length, double megabytes, int threads)
    : entries_(static_cast<std::size_t>(columns)), threads_(std::max(threads, 1)) {
    const double floats = megabytes * 1024.0 * 1024.0 / static_cast<double>(sizeof(float));
    budget_ = std::max<Index>(static_cast<Index>(floats), 2 * column_length);
}

ColumnCache::~ColumnCache() {
    for (auto& e : entries_) delete[] e.data;
}

void ColumnCache::unlink(Index i) {
    Entry& e = entries_[static_cast<std::size_t>(i)];
    if (e.prev >= 0) entries_[static_cast<std::size_t>(e.prev)].next = e.next;
    else head_ = e.next;
    if (e.next >= 0) entries_[static_cast<std::size_t>(e.next)].prev = e.prev;
    else tail_ = e.prev;
    e.prev = e.next = -1;
}

void ColumnCache::push_back(Index i) {
    Entry& e = entries_[static_cast<std::size_t>(i)];
    e.prev = tail_;
    e.next = -1;
    if (tail_ >= 0) entries_[static_cast<std::size_t>(tail_)].next = i;
    else head_ = i;
    tail_ = i;
}

void ColumnCache::drop(Index i) {
    Entry& e = entries_[static_cast<std::size_t>(i)];
    unlink(i);
    delete[] e.data;
    e.data = nullptr;
    budget_ += e.len;
    e.len = 0;
}

float* ColumnCache::get(Index i, Index len, Index& filled) {
    apply_pending_swaps();
    Entry& e = entries_[static_cast<std::size_t>(i)];
    if (e.len > 0) unlink(i);
    if (len > e.len) {
        const Index more = len - e.len;
        while (budget_ < more && head_ >= 0) drop(head_);
        float* grown = new float[static_cast<std::size_t>(len)];
        if (e.len > 0) std::memcpy(grown, e.data, static_cast<std::size_t>(e.len) * sizeof(float));
        delete[] e.data;
        e.data = grown;
        budget_ -= more;
        filled = e.len;
        e.len = len;
    } else {
        filled = len;
    }
    push_back(i);
    return e.data;
}

void ColumnCache::swap_index(Index i, Index j) {
    if (i == j) return;
    if (i > j) std::swap(i, j);
    Entry& a = entries_[static_cast<std::size_t>(i)];
    Entry& b = entries_[static_cast<std::size_t>(j)];
    if (a.len > 0) unlink(i);
    if (b.len > 0) unlink(j);
    std::swap(a.data, b.data);
    std::swap(a.len, b.len);
    if (a.len > 0) push_back(i);
    if (b.len > 0) push_back(j);
    pending_.emplace_back(i, j);
}

// A column's entries follow the swaps in order; one holding i but not j cannot stay
// consistent and is dropped. Which column sits where does not matter here, only its
// length, so this is what swapping every column at each swap_index would have left.
// Columns are independent, so a large batch (a shrink at large C: ~10^3 columns times
// ~10^3 swaps, a tenth of such a run) is shared among the threads; the drops follow in
// list order, as one thread would make them. The threshold keeps the fork-join to batches
// of a millisecond or more, where a busy machine's scheduling delay cannot cost more than
// the second core saves.
void ColumnCache::apply_pending_swaps() {
    if (pending_.empty()) return;
    listed_.clear();
    for (Index h = head_; h >= 0; h = entries_[static_cast<std::size_t>(h)].next) listed_.push_back(h);
    stale_.assign(listed_.size(), 0);
    const auto columns = static_cast<std::ptrdiff_t>(listed_.size());
    const double work = static_cast<double>(columns) * static_cast<double>(pending_.size());
    const int threads = work >= 1 << 19 ? std::min<int>(threads_, static_cast<int>(columns)) : 1;
#pragma omp parallel for num_threads(threads) if (threads > 1) schedule(static)
    for (std::ptrdiff_t k = 0; k < columns; ++k) {
        const Entry& e = entries_[static_cast<std::size_t>(listed_[static_cast<std::size_t>(k)])];
        float* d = e.data;
        for (const auto& [i, j] : pending_) {
            if (e.len > j) {
                std::swap(d[i], d[j]);
            } else if (e.len > i) {
                stale_[static_cast<std::size_t>(k)] = 1;
                break;
            }
        }
    }
    for (std::size_t k = 0; k < listed_.size(); ++k)
        if (stale_[k]) drop(listed_[k]);
    pending_.clear();
}

// ---------------------------------------------------------------- KernelQ

KernelQ::KernelQ(KernelRows rows, const Kernel& kernel, std::vector<std::int8_t> signs, double cache_mb,
                 int threads, std::vector<double> diagonal_shift)
    : rows_(std::move(rows)),
      kernel_(kernel),
      signs_(std::move(signs)),
      shift_(std::move(diagonal_shift)),
      cache_(rows_.size(), rows_.size(), cache_mb, threads),
      threads_(threads) {
    const Index l = rows_.size();
    if (!shift_.empty() && static_cast<Index>(shift_.size()) != l) throw InternalError("KernelQ: diagonal shift of the wrong length");
    diag_.resize(static_cast<std::size_t>(l));
    for (Index i = 0; i < l; ++i)
        diag_[static_cast<std::size_t>(i)] = kernel_(rows_, i, rows_, i) + (shift_.empty() ? 0.0 : shift_[static_cast<std::size_t>(i)]);
    scratch_.resize(static_cast<std::size_t>(l));
    bound_sum_.assign(static_cast<std::size_t>(l), 0.0);
}

const float* KernelQ::column(Index i, Index len) {
    Index filled = 0;
    float* data = cache_.get(i, len, filled);
    if (filled < len) {
        kernel_.row(rows_, i, rows_, filled, len, scratch_.data(), threads_);
        const double si = signs_[static_cast<std::size_t>(i)];
        const std::int8_t* s = signs_.data();
        const double* k = scratch_.data() - filled;
        for (Index j = filled; j < len; ++j) data[j] = static_cast<float>(si * s[j] * k[j]);
        // The cache holds Q + diag(shift): its swaps move the shifted entries with their rows.
        if (!shift_.empty() && filled <= i && i < len)
            data[i] = static_cast<float>(static_cast<double>(data[i]) + shift_[static_cast<std::size_t>(i)]);
    }
    return data;
}

void KernelQ::add_to_bound_sum(Index i, double c) {
    const Index l = rows_.size();
    const float* Qi = column(i, l);
    double* sum = bound_sum_.data();
    for (Index k = 0; k < l; ++k) sum[k] += c * Qi[k];
}

void KernelQ::swap_index(Index i, Index j) {
    cache_.swap_index(i, j);
    std::swap(bound_sum_[static_cast<std::size_t>(i)], bound_sum_[static_cast<std::size_t>(j)]);
    rows_.swap(i, j);
    std::swap(signs_[static_cast<std::size_t>(i)], signs_[static_cast<std::size_t>(j)]);
    std::swap(diag_[static_cast<std::size_t>(i)], diag_[static_cast<std::size_t>(j)]);
    if (!shift_.empty()) std::swap(shift_[static_cast<std::size_t>(i)], shift_[static_cast<std::size_t>(j)]);
}

// ---------------------------------------------------------------- SvrQ

SvrQ::SvrQ(KernelRows rows, const Kernel& kernel, double cache_mb, int threads)
    : rows_(std::move(rows)),
      kernel_(kernel),
      l_(rows_.size()),
      cache_(rows_.size(), rows_.size(), cache_mb, threads),
      threads_(threads) {
    if (l_ >= std::numeric_limits<std::int32_t>::max()) throw InternalError("SvrQ: too many rows for 32-bit indices");
    index_.resize(static_cast<std::size_t>(2 * l_));
    sign_.resize(static_cast<std::size_t>(2 * l_));
    diag_.resize(static_cast<std::size_t>(2 * l_));
    for (Index k = 0; k < l_; ++k) {
        index_[static_cast<std::size_t>(k)] = index_[static_cast<std::size_t>(k + l_)] = static_cast<std::int32_t>(k);
        sign_[static_cast<std::size_t>(k)] = 1;
        sign_[static_cast<std::size_t>(k + l_)] = -1;
        const double d = kernel_(rows_, k, rows_, k);
        diag_[static_cast<std::size_t>(k)] = d;
        diag_[static_cast<std::size_t>(k + l_)] = d;
    }
    scratch_.resize(static_cast<std::size_t>(l_));
    buffer_[0].resize(static_cast<std::size_t>(2 * l_));
    buffer_[1].resize(static_cast<std::size_t>(2 * l_));
    bound_sum_.assign(static_cast<std::size_t>(l_), 0.0);
}

const float* SvrQ::kernel_row(Index sample) {
    Index filled = 0;
    float* data = cache_.get(sample, l_, filled);
    if (filled < l_) {
        kernel_.row(rows_, sample, rows_, filled, l_, scratch_.data(), threads_);
        const double* k = scratch_.data() - filled;
        for (Index j = filled; j < l_; ++j) data[j] = static_cast<float>(k[j]);
    }
    return data;
}

const float* SvrQ::column(Index i, Index len) {
    for (int b = 0; b < 2; ++b) {
        if (held_[b] == i && held_len_[b] >= len) {
            next_buffer_ = b ^ 1;  // the other buffer is the one that may be overwritten next
            return buffer_[b].data();
        }
    }
    const float* data = kernel_row(index_[static_cast<std::size_t>(i)]);
    // The gather below reads the row in shrinking's order, which defeats the hardware
    // prefetcher: a cached row not touched lately would arrive one cache miss at a
    // time. Ask for all of it up front, in order.
    for (Index m = 0; m < l_; m += 64 / static_cast<Index>(sizeof(float))) __builtin_prefetch(data + m);
    const int b = next_buffer_;
    next_buffer_ ^= 1;
    held_[b] = i;
    held_len_[b] = len;
    float* buf = buffer_[b].data();
    simd_loops().signed_gather(data, index_.data(), sign_.data(), sign_[static_cast<std::size_t>(i)], len, buf);
    return buf;
}

void SvrQ::add_to_bound_sum(Index i, double c) {
    // Position a's entry is s_a s_i c K: per sample, s_i c K (c·(±K) and ±(c·K) are the same double).
    const float* K = kernel_row(index_[static_cast<std::size_t>(i)]);
    const double ci = sign_[static_cast<std::size_t>(i)] * c;
    double* sum = bound_sum_.data();
    for (Index m = 0; m < l_; ++m) sum[m] += ci * K[m];
}

void SvrQ::swap_index(Index i, Index j) {
    std::swap(index_[static_cast<std::size_t>(i)], index_[static_cast<std::size_t>(j)]);
    std::swap(sign_[static_cast<std::size_t>(i)], sign_[static_cast<std::size_t>(j)]);
    std::swap(diag_[static_cast<std::size_t>(i)], diag_[static_cast<std::size_t>(j)]);
    held_[0] = held_[1] = -1;  // the buffers are in the old order
}

}  // namespace kestrel
