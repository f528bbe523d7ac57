#pragma once
// Kernel evaluation. A Kernel is a resolved KernelSpec; it evaluates pairs, and more
// importantly whole rows and blocks of the kernel matrix at once: squared norms plus
// one matrix product for the dot-product and distance kernels on dense data, sparse
// dot products against a scattered row on sparse data, parallel with OpenMP over
// fixed-size chunks (so values never depend on the thread count).
#include <memory>
#include <span>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/kernels/kernel_spec.hpp"

namespace kestrel {

// Rows prepared for kernel evaluation: a private copy of the chosen rows with their
// squared norms, in an order the SMO solver may permute (swap). Sparse input is kept
// sparse only when at most a quarter of its entries are non-zero.
class KernelRows {
public:
    KernelRows() = default;
    explicit KernelRows(const Features& X);                            // every row, in order
    KernelRows(const Features& X, std::span<const Index> rows);        // the rows given, in that order

    Index size() const { return static_cast<Index>(sqnorm_.size()); }
    Index dim() const { return dim_; }
    bool is_sparse() const { return sparse_ != nullptr; }
    double sqnorm(Index i) const { return sqnorm_[static_cast<std::size_t>(i)]; }
    // Feature 0 of row i: a precomputed kernel's serial number (LIBSVM's 0:serial).
    double first_feature(Index i) const;
    // Exchanges positions i and j (O(dim) dense, O(1) sparse).
    void swap(Index i, Index j);

    // Row access for the evaluation code.
    const double* dense_row(Index i) const { return dense_.data() + i * dim_; }
    const DenseMatrix& dense() const { return dense_; }
    const SparseMatrix& sparse() const { return *sparse_; }
    Index sparse_row(Index i) const { return index_[static_cast<std::size_t>(i)]; }

private:
    Index dim_ = 0;
    DenseMatrix dense_;                            // dense rows, physically in position order
    std::shared_ptr<const SparseMatrix> sparse_;   // sparse rows (shared, never permuted)
    std::vector<Index> index_;                     // sparse: row of sparse_ at each position
    std::vector<double> sqnorm_;
};

// A precomputed kernel's rows hold their serial number s (1-based training row) in
// feature 0 and k(x, x_s) in feature s. Throws DataError naming the first row whose
// serial is not an integer in [1, X.cols() - 1] (`what` names the data in the message).
void check_precomputed_serials(const Features& X, const std::string& what);

class Kernel {
public:
    Kernel() = default;
    // Throws InternalError when the spec is not resolved (see resolve_kernel).
    explicit Kernel(KernelSpec resolved_spec);

    const KernelSpec& spec() const { return spec_; }

    // k(a_i, b_j).
    double operator()(const KernelRows& a, Index i, const KernelRows& b, Index j) const;
    // out[j - begin] = k(a_i, b_j) for j in [begin, end). Parallel over j when the
    // range is large enough to pay for it.
    void row(const KernelRows& a, Index i, const KernelRows& b, Index begin, Index end, double* out,
             int threads) const;
    // K(r, c) = k(a_r, b_c) for every row of a and b: one matrix product per block of
    // rows of a when both sides are dense. Parallel over blocks of rows.
    DenseMatrix block(const KernelRows& a, const KernelRows& b, int threads) const;
    // The same into `out`, resized (its storage is kept when the size is unchanged):
    // for callers that evaluate many blocks of the same shape.
    void block(const KernelRows& a, const KernelRows& b, int threads, DenseMatrix& out) const;
    // K(r, c) = k(a_r, a_c), the symmetric Gram matrix of a's rows: only the lower
    // triangle is evaluated (one matrix product per block of rows on dense data) and
    // then mirrored, so the result is exactly symmetric. Parallel over blocks of rows.
    DenseMatrix gram(const KernelRows& a, int threads) const;

private:
    struct Probe;
    Probe probe(const KernelRows& a, Index i, std::vector<double>& scratch) const;
    // The kernel between one probe row and b's rows [begin, end). `dots`, when given,
    // already holds the dot products for that range.
    void eval_range(const Probe& p, const KernelRows& b, Index begin, Index end, const double* dots,
                    double* out) const;
    void dot_range(const Probe& p, const KernelRows& b, Index begin, Index end, double* out) const;

    struct Factor {
        KernelKind kind;
        double gamma = 0, coef0 = 0;
        int degree = 1;
    };
    struct Term {
        double weight = 1;
        std::vector<Factor> factors;
    };
    void factor_values(const Factor& f, const Probe& p, const KernelRows& b, Index begin, Index end,
                       const double* dots, double* out) const;

    KernelSpec spec_;
    std::vector<Term> terms_;
    bool needs_dot_ = false;
};

}  // namespace kestrel
