// Kernel evaluation: rows and blocks of the kernel matrix.
#include "kestrel/kernels/kernel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kestrel/common/simd.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel {

namespace {

// Chunk sizes are fixed so that which values are computed together (and so their
// rounding) never depends on the number of threads.
constexpr Index kRowChunk = 1024;   // right-hand rows per task in Kernel::row
constexpr Index kKernelBlockRows = 64;    // left-hand rows per matrix product in Kernel::block
constexpr Index kGramRows = 64;     // rows per task in Kernel::gram
// Below this many multiply-adds a row is computed on one thread. A fork-join costs ~1 µs
// from libgomp's pool on an idle machine, but a scheduler time slice when the cores are
// shared, and an SVM solver asks for a row at most iterations: a 30000 x 6 C-SVC at C = 1000
// spent 38 s of CPU at two threads for 3.2 s of work with 2^16 here (load 18). Rows of
// 2^20 (20000 x 50, ~0.5 ms) and more still split.
constexpr Index kParallelKernelWork = 1 << 20;
constexpr double kDensifyAbove = 0.25;     // fraction of non-zeros above which sparse rows are stored dense

double powi(double base, int times) {
    double result = 1.0;
    for (int t = times; t > 0; t /= 2) {
        if (t % 2 == 1) result *= base;
        base *= base;
    }
    return result;
}

bool uses_dot(KernelKind k) {
    return k == KernelKind::linear || k == KernelKind::poly || k == KernelKind::rbf ||
           k == KernelKind::exponential || k == KernelKind::sigmoid;
}

// Per-feature term of the separable kernels: kernel = post(Σ_j elem(x_j, z_j)).
inline double elem(KernelKind kind, double gamma, int degree, double a, double b) {
    switch (kind) {
        case KernelKind::laplacian: return std::abs(a - b);
        case KernelKind::min: return std::min(a, b);
        default: {  // anova
            const double d = a - b;
            return powi(std::exp(-gamma * d * d), degree);
        }
    }
}

thread_local std::vector<double> tl_dots;
thread_local std::vector<double> tl_term;
thread_local std::vector<double> tl_factor;

double* buffer(std::vector<double>& v, Index n) {
    if (static_cast<Index>(v.size()) < n) v.resize(static_cast<std::size_t>(n));
    return v.data();
}

}  // namespace

// ---------------------------------------------------------------- KernelRows

KernelRows::KernelRows(const Features& X) {
    dim_ = X.cols();
    const Index n = X.rows();
    // Sparse input with mostly non-zero entries (LIBSVM files of dense data) is
    // evaluated faster as dense rows, for at most ~3x the memory.
    const bool keep_sparse = X.is_sparse() && static_cast<double>(X.sparse_ref().nonZeros()) <
                                                  kDensifyAbove * static_cast<double>(n) * static_cast<double>(dim_);
    if (keep_sparse) {
        auto s = std::make_shared<SparseMatrix>(X.sparse_ref());
        s->makeCompressed();
        sparse_ = s;
        index_.resize(static_cast<std::size_t>(n));
        for (Index i = 0; i < n; ++i) index_[static_cast<std::size_t>(i)] = i;
        sqnorm_.resize(static_cast<std::size_t>(n));
        for (Index i = 0; i < n; ++i) sqnorm_[static_cast<std::size_t>(i)] = s->row(i).squaredNorm();
    } else {
        if (X.is_sparse())
            dense_ = X.to_dense();
        else
            dense_ = X.dense_ref();  // the kernel's rows are its own copy
        sqnorm_.resize(static_cast<std::size_t>(n));
        for (Index i = 0; i < n; ++i) sqnorm_[static_cast<std::size_t>(i)] = dense_.row(i).squaredNorm();
    }
}

KernelRows::KernelRows(const Features& X, std::span<const Index> rows) : KernelRows(X.rows_subset(rows)) {}

double KernelRows::first_feature(Index i) const {
    if (dim_ == 0) return 0.0;
    if (!sparse_) return dense_(i, 0);
    SparseMatrix::InnerIterator it(*sparse_, index_[static_cast<std::size_t>(i)]);
    return it && it.index() == 0 ? it.value() : 0.0;
}

void KernelRows::swap(Index i, Index j) {
    if (i == j) return;
    std::swap(sqnorm_[static_cast<std::size_t>(i)], sqnorm_[static_cast<std::size_t>(j)]);
    if (sparse_) std::swap(index_[static_cast<std::size_t>(i)], index_[static_cast<std::size_t>(j)]);
    else dense_.row(i).swap(dense_.row(j));
}

void check_precomputed_serials(const Features& X, const std::string& what) {
    const KernelRows rows(X);
    for (Index i = 0; i < rows.size(); ++i) {
        const double s = rows.first_feature(i);
        if (!(s >= 1 && s < static_cast<double>(X.cols()) && s == std::floor(s)))
            throw DataError(what + ": row " + std::to_string(i + 1) + " has serial number " + std::to_string(s) +
                            " in feature 1; a precomputed kernel row holds its training row's serial s (1 to " +
                            std::to_string(X.cols() - 1) + ") in feature 1 and K(x, x_s) in feature s + 1");
    }
}

// ---------------------------------------------------------------- Kernel

struct Kernel::Probe {
    const double* x = nullptr;  // the left row, dense (scattered when the source is sparse)
    double sq = 0;              // its squared norm
    Index dim = 0;
};

Kernel::Kernel(KernelSpec resolved_spec) : spec_(std::move(resolved_spec)) {
    if (!spec_.resolved() || spec_.terms.empty()) throw InternalError("Kernel built from an unresolved spec");
    for (const auto& t : spec_.terms) {
        Term term;
        term.weight = t.weight;
        for (const auto& k : t.factors) {
            Factor f;
            f.kind = k.kind;
            f.gamma = k.gamma.value_or(0.0);
            f.coef0 = k.coef0.value_or(0.0);
            f.degree = k.degree.value_or(1);
            needs_dot_ = needs_dot_ || uses_dot(k.kind);
            term.factors.push_back(f);
        }
        terms_.push_back(std::move(term));
    }
}

Kernel::Probe Kernel::probe(const KernelRows& a, Index i, std::vector<double>& scratch) const {
    Probe p;
    p.dim = a.dim();
    p.sq = a.sqnorm(i);
    if (!a.is_sparse()) {
        p.x = a.dense_row(i);
        return p;
    }
    scratch.assign(static_cast<std::size_t>(a.dim()), 0.0);
    for (SparseMatrix::InnerIterator it(a.sparse(), a.sparse_row(i)); it; ++it)
        scratch[static_cast<std::size_t>(it.index())] = it.value();
    p.x = scratch.data();
    return p;
}

void Kernel::dot_range(const Probe& p, const KernelRows& b, Index begin, Index end, double* out) const {
    const Index n = end - begin;
    if (!b.is_sparse()) {
        // A fixed summation order per pair (not a library GEMV whose blocking depends on
        // the range): a kernel value never depends on which columns were computed with it,
        // nor on the vector path (common/simd.hpp).
        simd_loops().dot_rows(p.x, b.dense_row(begin), n, p.dim, out);
        return;
    }
    const SparseMatrix& s = b.sparse();
    const int* outer = s.outerIndexPtr();
    const int* inner = s.innerIndexPtr();
    const double* val = s.valuePtr();
    for (Index j = 0; j < n; ++j) {
        const Index r = b.sparse_row(begin + j);
        double sum = 0;
        for (int k = outer[r]; k < outer[r + 1]; ++k) sum += p.x[inner[k]] * val[k];
        out[j] = sum;
    }
}

void Kernel::factor_values(const Factor& f, const Probe& p, const KernelRows& b, Index begin, Index end,
                           const double* dots, double* out) const {
    const Index n = end - begin;
    switch (f.kind) {
        case KernelKind::linear:
            if (out != dots) std::copy(dots, dots + n, out);
            return;
        case KernelKind::poly:
            for (Index j = 0; j < n; ++j) out[j] = powi(f.gamma * dots[j] + f.coef0, f.degree);
            return;
        case KernelKind::sigmoid:
            for (Index j = 0; j < n; ++j) out[j] = std::tanh(f.gamma * dots[j] + f.coef0);
            return;
        case KernelKind::rbf:
            for (Index j = 0; j < n; ++j)
                out[j] = -f.gamma * std::max(0.0, p.sq + b.sqnorm(begin + j) - 2.0 * dots[j]);
            simd_loops().exp_inplace(out, n);
            return;
        case KernelKind::exponential:
            for (Index j = 0; j < n; ++j)
                out[j] = -f.gamma * std::sqrt(std::max(0.0, p.sq + b.sqnorm(begin + j) - 2.0 * dots[j]));
            simd_loops().exp_inplace(out, n);
            return;
        case KernelKind::precomputed:
            // LIBSVM's kernel_precomputed: x_a[serial(b)], the serial in b's feature 0.
            // Serials are checked before any evaluation (check_precomputed_serials); this
            // runs inside parallel loops, where a throw would terminate, so a bad one is NaN.
            for (Index j = 0; j < n; ++j) {
                const double serial = b.first_feature(begin + j);
                const auto col = static_cast<Index>(serial);
                out[j] = (static_cast<double>(col) == serial && col >= 1 && col < p.dim)
                             ? p.x[col]
                             : std::numeric_limits<double>::quiet_NaN();
            }
            return;
        default: break;
    }
    // Separable kernels: post(Σ_j elem(x_j, z_j)).
    const Index d = p.dim;
    if (!b.is_sparse()) {
        for (Index j = 0; j < n; ++j) {
            const double* z = b.dense_row(begin + j);
            double s = 0;
            for (Index c = 0; c < d; ++c) s += elem(f.kind, f.gamma, f.degree, p.x[c], z[c]);
            out[j] = s;
        }
    } else {
        // Against a sparse row only its stored entries differ from "z_j = 0", whose
        // sum over all features (base) is shared by every row.
        double base = 0;
        for (Index c = 0; c < d; ++c) base += elem(f.kind, f.gamma, f.degree, p.x[c], 0.0);
        const SparseMatrix& s = b.sparse();
        const int* outer = s.outerIndexPtr();
        const int* inner = s.innerIndexPtr();
        const double* val = s.valuePtr();
        for (Index j = 0; j < n; ++j) {
            const Index r = b.sparse_row(begin + j);
            double sum = base;
            for (int k = outer[r]; k < outer[r + 1]; ++k) {
                const double xa = p.x[inner[k]];
                sum += elem(f.kind, f.gamma, f.degree, xa, val[k]) - elem(f.kind, f.gamma, f.degree, xa, 0.0);
            }
            out[j] = sum;
        }
    }
    if (f.kind == KernelKind::laplacian) {
        for (Index j = 0; j < n; ++j) out[j] *= -f.gamma;
        simd_loops().exp_inplace(out, n);
    }
}

void Kernel::eval_range(const Probe& p, const KernelRows& b, Index begin, Index end, const double* dots,
                        double* out) const {
    const Index n = end - begin;
    if (n <= 0) return;
    if (needs_dot_ && !dots) {
        double* buf = buffer(tl_dots, n);
        dot_range(p, b, begin, end, buf);
        dots = buf;
    }
    if (terms_.size() == 1 && terms_[0].factors.size() == 1 && terms_[0].weight == 1.0) {
        factor_values(terms_[0].factors[0], p, b, begin, end, dots, out);
        return;
    }
    double* term = buffer(tl_term, n);
    double* fac = buffer(tl_factor, n);
    std::fill(out, out + n, 0.0);
    for (const auto& t : terms_) {
        std::fill(term, term + n, t.weight);
        for (const auto& f : t.factors) {
            factor_values(f, p, b, begin, end, dots, fac);
            for (Index j = 0; j < n; ++j) term[j] *= fac[j];
        }
        for (Index j = 0; j < n; ++j) out[j] += term[j];
    }
}

double Kernel::operator()(const KernelRows& a, Index i, const KernelRows& b, Index j) const {
    std::vector<double> scratch;
    const Probe p = probe(a, i, scratch);
    double out = 0;
    eval_range(p, b, j, j + 1, nullptr, &out);
    return out;
}

void Kernel::row(const KernelRows& a, Index i, const KernelRows& b, Index begin, Index end, double* out,
                 int threads) const {
    const Index n = end - begin;
    if (n <= 0) return;
    std::vector<double> scratch;
    const Probe p = probe(a, i, scratch);
    const Index chunks = (n + kRowChunk - 1) / kRowChunk;
    // A sparse right-hand row costs its non-zeros, not its width (50000 for text, ~50 stored).
    const Index per_row = b.is_sparse() ? b.sparse().nonZeros() / std::max<Index>(b.sparse().rows(), 1) : b.dim();
    const bool parallel = threads > 1 && chunks > 1 && n * std::max<Index>(per_row, 1) >= kParallelKernelWork;
#pragma omp parallel for num_threads(threads) schedule(static) if (parallel)
    for (Index c = 0; c < chunks; ++c) {
        const Index lo = begin + c * kRowChunk;
        const Index hi = std::min(end, lo + kRowChunk);
        eval_range(p, b, lo, hi, nullptr, out + (lo - begin));
    }
}

DenseMatrix Kernel::block(const KernelRows& a, const KernelRows& b, int threads) const {
    DenseMatrix out;
    block(a, b, threads, out);
    return out;
}

void Kernel::block(const KernelRows& a, const KernelRows& b, int threads, DenseMatrix& out) const {
    const Index na = a.size(), nb = b.size();
    out.resize(na, nb);
    if (na == 0 || nb == 0) return;
    const Index blocks = (na + kKernelBlockRows - 1) / kKernelBlockRows;
    const bool gemm = needs_dot_ && !a.is_sparse() && !b.is_sparse();
    // A single kernel function maps each dot product to its value in place, so the
    // products can go straight into `out` (no second block-sized buffer to fault in).
    const bool in_place = terms_.size() == 1 && terms_[0].factors.size() == 1 && terms_[0].weight == 1.0;
    const bool parallel = threads > 1 && blocks > 1;
#pragma omp parallel for num_threads(threads) schedule(dynamic) if (parallel)
    for (Index blk = 0; blk < blocks; ++blk) {
        const Index lo = blk * kKernelBlockRows;
        const Index hi = std::min(na, lo + kKernelBlockRows);
        std::vector<double> scratch;
        DenseMatrix dots;
        if (gemm) {
            // One matrix product gives every dot product of the block.
            if (!in_place) dots.resize(hi - lo, nb);
            DenseMatrix& dst = in_place ? out : dots;
            dst.middleRows(in_place ? lo : 0, hi - lo).noalias() = a.dense().middleRows(lo, hi - lo) * b.dense().transpose();
        }
        for (Index r = lo; r < hi; ++r) {
            const Probe p = probe(a, r, scratch);
            const double* d = !gemm ? nullptr : in_place ? out.row(r).data() : dots.row(r - lo).data();
            eval_range(p, b, 0, nb, d, out.row(r).data());
        }
    }
}

DenseMatrix Kernel::gram(const KernelRows& a, int threads) const {
    const Index n = a.size();
    DenseMatrix out(n, n);
    if (n == 0) return out;
    const Index blocks = (n + kGramRows - 1) / kGramRows;
    const bool gemm = needs_dot_ && !a.is_sparse();
    // Block b evaluates columns [0, hi): later blocks carry more work, so they are
    // handed out first and the cheap early ones fill the gaps.
#pragma omp parallel for num_threads(threads) schedule(dynamic) if (threads > 1 && blocks > 1)
    for (Index q = 0; q < blocks; ++q) {
        const Index blk = blocks - 1 - q;
        const Index lo = blk * kGramRows;
        const Index hi = std::min(n, lo + kGramRows);
        std::vector<double> scratch;
        DenseMatrix dots;
        if (gemm) {
            dots.resize(hi - lo, hi);
            dots.noalias() = a.dense().middleRows(lo, hi - lo) * a.dense().topRows(hi).transpose();
        }
        for (Index r = lo; r < hi; ++r) {
            const Probe p = probe(a, r, scratch);
            eval_range(p, a, 0, r + 1, gemm ? dots.row(r - lo).data() : nullptr, out.row(r).data());
        }
    }
    // Mirror tile by tile: a plain row loop would read the lower triangle by columns.
#pragma omp parallel for num_threads(threads) schedule(dynamic) if (threads > 1 && blocks > 1)
    for (Index bi = 0; bi < blocks; ++bi) {
        const Index r0 = bi * kGramRows, r1 = std::min(n, r0 + kGramRows);
        for (Index c0 = r0; c0 < n; c0 += kGramRows) {
            const Index c1 = std::min(n, c0 + kGramRows);
            for (Index r = r0; r < r1; ++r)
                for (Index c = std::max(c0, r + 1); c < c1; ++c) out(r, c) = out(c, r);
        }
    }
    return out;
}

}  // namespace kestrel
