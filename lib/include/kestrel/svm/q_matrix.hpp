#pragma once
// The SMO solver sees the dual's matrix Q only through this interface: columns
// (cached, as float like LIBSVM's Qfloat: half the memory, twice the columns per MB),
// the diagonal, index swaps (shrinking moves inactive variables to the end), and the
// running sum of the columns at their upper bound (LIBSVM's G_bar).
// C-SVC, nu-SVC and one-class use KernelQ (Q_ij = s_i s_j K_ij); epsilon/nu-SVR use
// SvrQ over 2l variables.
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "kestrel/kernels/kernel.hpp"

namespace kestrel {

class QMatrix {
public:
    virtual ~QMatrix() = default;
    // Entries 0..len-1 of column i. The pointer stays valid until the second
    // following call to column() (the solver holds two columns at a time).
    virtual const float* column(Index i, Index len) = 0;
    virtual const double* diagonal() const = 0;
    virtual void swap_index(Index i, Index j) = 0;
    virtual Index size() const = 0;
    // The thread budget its kernel rows are computed with (the solver's own passes run on
    // one thread: smo_solver.cpp says why).
    virtual int threads() const = 0;
    // The solver's Ḡ = Σ C_i Q_i over the variables at their upper bound (which
    // rebuilds the gradient of shrunk variables): add_to_bound_sum(i, c) adds c·Q_i at
    // every position, bound_sum(k) reads position k (following swap_index). The Q
    // matrix keeps it because its layout can make the update cheaper than a column.
    virtual void add_to_bound_sum(Index i, double c) = 0;
    virtual double bound_sum(Index k) const = 0;
};

// Least-recently-used cache of column prefixes, within a byte budget.
class ColumnCache {
public:
    // Room for at least two full columns whatever the budget, so the two columns the
    // solver holds are never evicted by each other.
    // `threads` may share out a large batch of pending swaps (each column is independent).
    ColumnCache(Index columns, Index column_length, double megabytes, int threads = 1);
    ~ColumnCache();
    ColumnCache(const ColumnCache&) = delete;
    ColumnCache& operator=(const ColumnCache&) = delete;

    // Storage for column i with room for `len` entries; `filled` = how many leading
    // entries are already valid (the caller computes the rest).
    float* get(Index i, Index len, Index& filled);
    // Positions i and j exchange their columns and their entries in every column. The
    // entries move at the next get(): shrinking swaps hundreds of positions in a row, and
    // applying them column by column reads each cached column once, in cache, instead of
    // every column once per swap (which took a quarter of a large-C run).
    void swap_index(Index i, Index j);

private:
    struct Entry {
        float* data = nullptr;
        Index len = 0;
        Index prev = -1, next = -1;  // LRU list links (-1 = not listed)
    };
    void unlink(Index i);
    void push_back(Index i);  // most recently used
    void drop(Index i);
    void apply_pending_swaps();

    std::vector<Entry> entries_;
    std::vector<std::pair<Index, Index>> pending_;  // swaps (i < j) not yet applied to the entries
    std::vector<Index> listed_;                      // apply_pending_swaps' scratch: the cached columns
    std::vector<char> stale_;                        // and which of them to drop
    int threads_ = 1;
    Index head_ = -1, tail_ = -1;  // head = least recently used
    Index budget_ = 0;             // floats still free
};

// Q_ij = s_i s_j k(x_i, x_j) with signs s (labels for C-SVC/nu-SVC, all +1 for one-class),
// plus diagonal_shift_i on the diagonal when given (the L2-SVM's Q + diag(1/C_i)).
class KernelQ final : public QMatrix {
public:
    KernelQ(KernelRows rows, const Kernel& kernel, std::vector<std::int8_t> signs, double cache_mb, int threads,
            std::vector<double> diagonal_shift = {});
    const float* column(Index i, Index len) override;
    const double* diagonal() const override { return diag_.data(); }
    void swap_index(Index i, Index j) override;
    Index size() const override { return rows_.size(); }
    int threads() const override { return threads_; }
    void add_to_bound_sum(Index i, double c) override;
    double bound_sum(Index k) const override { return bound_sum_[static_cast<std::size_t>(k)]; }

private:
    KernelRows rows_;
    const Kernel& kernel_;
    std::vector<std::int8_t> signs_;
    std::vector<double> shift_;
    std::vector<double> diag_;
    std::vector<double> bound_sum_;
    ColumnCache cache_;
    std::vector<double> scratch_;
    int threads_;
};

// epsilon-SVR and nu-SVR: variables k < l are α_k (sign +1), k >= l are α*_{k-l}
// (sign -1); Q_ab = s_a s_b K(x_{a mod l}, x_{b mod l}). Kernel columns are cached
// once per sample and expanded into one of two rotating buffers. A buffer still
// holding the column asked for is handed out again: the solver asks for the same
// column when it selects i and when it updates the pair, and the expansion (a
// gather over up to 2l entries) costs as much as the selection itself. Ḡ is kept
// per sample (Ḡ_a = s_a Ḡ'_{a mod l}): its updates, frequent when many variables
// sit at C, run over the l entries of the cached kernel row instead of 2l gathered
// ones, with the same values (negation commutes with rounding).
class SvrQ final : public QMatrix {
public:
    SvrQ(KernelRows rows, const Kernel& kernel, double cache_mb, int threads);
    const float* column(Index i, Index len) override;
    const double* diagonal() const override { return diag_.data(); }
    void swap_index(Index i, Index j) override;
    Index size() const override { return 2 * l_; }
    int threads() const override { return threads_; }
    void add_to_bound_sum(Index i, double c) override;
    double bound_sum(Index k) const override {
        return sign_[static_cast<std::size_t>(k)] * bound_sum_[static_cast<std::size_t>(index_[static_cast<std::size_t>(k)])];
    }

private:
    const float* kernel_row(Index sample);  // K(x_sample, ·) from the cache, computed if missing

    KernelRows rows_;
    const Kernel& kernel_;
    Index l_;
    // Sample and sign of each position; 32-bit and float so the expansion, a gather,
    // moves less memory and multiplies without a conversion or a branch.
    std::vector<std::int32_t> index_;
    std::vector<float> sign_;
    std::vector<double> diag_;
    std::vector<double> bound_sum_;  // per sample, for the +1 variable
    ColumnCache cache_;
    std::vector<double> scratch_;
    std::vector<float> buffer_[2];
    Index held_[2] = {-1, -1};      // the position each buffer holds (-1: none)
    Index held_len_[2] = {0, 0};    // and how many of its entries
    int next_buffer_ = 0;
    int threads_;
};

}  // namespace kestrel
