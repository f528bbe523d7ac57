#include "kestrel/optim/feature_columns.hpp"

#include <cstring>
#include <numeric>

#include "kestrel/core/error.hpp"

namespace kestrel {
namespace {

// The in-place conversions' default working memory: a fraction of the data (16-byte
// entries for a sparse matrix of 12-byte entries: 1/6 of it; 1/64 of a dense one), and
// never so little that small data takes many passes.
constexpr Index kMinScratch = Index{1} << 16;

Index default_scratch(const Features& X) {
    if (X.is_sparse()) return std::max(kMinScratch, Index{X.sparse_ref().nonZeros()} / 8);
    return std::max(kMinScratch, X.rows() * X.cols() / 64);
}

using RowMajorMap = Eigen::Map<DenseMatrix>;

// The rows x cols row-major block at `a` becomes its cols x rows transpose, through
// `buffer` (rows·cols doubles).
void transpose_block(double* a, Index rows, Index cols, std::vector<double>& buffer) {
    std::copy_n(a, rows * cols, buffer.data());
    RowMajorMap(a, cols, rows) = RowMajorMap(buffer.data(), rows, cols).transpose();
}

// The q x d grid of b-double blocks at `a`, row-major, rearranged into d x q order by
// following the permutation's cycles: each block moves once, as one contiguous copy.
void transpose_blocks(double* a, Index q, Index d, Index b) {
    if (q == 1 || d == 1) return;  // a 1 x d or q x 1 grid is its own transpose
    const Index count = q * d;
    // Block g·d + j goes to j·q + g: slot t = j·q + g receives block (t mod q)·d + t / q.
    auto source = [q, d](Index t) { return (t % q) * d + t / q; };
    std::vector<bool> done(static_cast<std::size_t>(count));
    std::vector<double> carried(static_cast<std::size_t>(b));
    for (Index s = 0; s < count; ++s) {
        if (done[static_cast<std::size_t>(s)]) continue;
        std::copy_n(a + s * b, b, carried.data());
        Index t = s;
        for (Index from = source(t); from != s; t = from, from = source(t)) {
            std::copy_n(a + from * b, b, a + t * b);
            done[static_cast<std::size_t>(t)] = true;
        }
        std::copy_n(carried.data(), b, a + t * b);
        done[static_cast<std::size_t>(t)] = true;
    }
}

// A tall n x d matrix (n >= d) goes to its transpose in groups of b rows: each group is
// transposed within itself through scratch, which leaves it as d pieces of b values, one
// per column; then the pieces move into column order as whole blocks. The rows past the
// last whole group (fewer than b) wait aside meanwhile. Grouping the long side keeps the
// blocks long whatever the shape (b = 1, one-value blocks, only for tiny scratch).
struct TallLayout {
    Index n, d, b, groups, head, tail_rows;
    TallLayout(Index rows, Index cols, Index scratch)
        : n(rows),
          d(cols),
          b(std::clamp(scratch / cols, Index{1}, rows)),
          groups(n / b),
          head(groups * b),
          tail_rows(n - head) {}
};

// Row-major n x d at `a` to row-major d x n.
void transpose_tall(double* a, const TallLayout& l) {
    const std::vector<double> tail(a + l.head * l.d, a + l.n * l.d);
    std::vector<double> buffer(static_cast<std::size_t>(l.b > 1 ? l.b * l.d : 0));
    if (l.b > 1)
        for (Index g = 0; g < l.groups; ++g) transpose_block(a + g * l.b * l.d, l.b, l.d, buffer);
    transpose_blocks(a, l.groups, l.d, l.b);
    // [0, head·d) now holds the first head rows column by column. Spread the columns to
    // stride n, the last first so that none is overwritten before it moves, and put the
    // waiting rows' values after each.
    if (l.tail_rows == 0) return;
    for (Index j = l.d - 1; j >= 0; --j) {
        std::memmove(a + j * l.n, a + j * l.head, static_cast<std::size_t>(l.head) * sizeof(double));
        for (Index t = 0; t < l.tail_rows; ++t) a[j * l.n + l.head + t] = tail[static_cast<std::size_t>(t * l.d + j)];
    }
}

// The inverse, step by step in reverse: row-major d x n at `a` to row-major n x d.
void untranspose_tall(double* a, const TallLayout& l) {
    std::vector<double> tail(static_cast<std::size_t>(l.tail_rows * l.d));
    if (l.tail_rows > 0)
        for (Index j = 0; j < l.d; ++j) {
            for (Index t = 0; t < l.tail_rows; ++t)
                tail[static_cast<std::size_t>(t * l.d + j)] = a[j * l.n + l.head + t];
            std::memmove(a + j * l.head, a + j * l.n, static_cast<std::size_t>(l.head) * sizeof(double));
        }
    transpose_blocks(a, l.d, l.groups, l.b);
    std::vector<double> buffer(static_cast<std::size_t>(l.b > 1 ? l.b * l.d : 0));
    if (l.b > 1)
        for (Index g = 0; g < l.groups; ++g) transpose_block(a + g * l.b * l.d, l.d, l.b, buffer);
    std::copy(tail.begin(), tail.end(), a + l.head * l.d);
}

// One entry of the columns a pass of csr_to_csc_in_place takes out of the rows.
struct Entry {
    double value;
    int row;
    int col;
};

// Takes the entries of columns >= lo out of the CSR arrays (into `out`, in row order)
// and closes the gaps they leave, updating the row starts: the rows then end where
// column lo's entries start in column order.
void take_columns_from(int lo, Index n, int* row_start, int* index, double* value, std::vector<Entry>& out) {
    out.clear();
    int kept = 0, begin = row_start[0];
    for (Index i = 0; i < n; ++i) {
        const int end = row_start[i + 1];
        row_start[i] = kept;
        for (int k = begin; k < end; ++k) {
            if (index[k] >= lo) {
                out.push_back({value[k], static_cast<int>(i), index[k]});
            } else {
                value[kept] = value[k];
                index[kept] = index[k];
                ++kept;
            }
        }
        begin = end;
    }
    row_start[n] = kept;
}

// Puts the entries taken out for columns [lo, hi) into their places in column order, in
// the order given (row order), each column from start[j].
void put_in_columns(const std::vector<Entry>& taken, Index lo, Index hi, const std::vector<int>& start, int* index,
                    double* value) {
    std::vector<int> cursor(start.begin() + lo, start.begin() + hi);
    for (const Entry& e : taken) {
        const int p = cursor[static_cast<std::size_t>(e.col - lo)]++;
        value[p] = e.value;
        index[p] = e.row;
    }
}

// Where each of the d columns starts in column order (d + 1 entries), from the column
// indices of the nnz stored entries.
std::vector<int> column_starts(const int* index, Index nnz, Index d) {
    std::vector<int> start(static_cast<std::size_t>(d + 1), 0);
    for (Index k = 0; k < nnz; ++k) ++start[static_cast<std::size_t>(index[k]) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    return start;
}

}  // namespace

namespace detail {

void transpose_in_place(DenseMatrix& m, Index scratch) {
    const Index n = m.rows(), d = m.cols();
    // A wide matrix is the transpose of a tall one: undo that one's transposition.
    if (n >= d && d > 1) transpose_tall(m.data(), TallLayout(n, d, scratch));
    if (n < d && n > 1) untranspose_tall(m.data(), TallLayout(d, n, scratch));
    m.resize(d, n);  // as many coefficients as before: Eigen keeps the buffer and its values
}

std::vector<int> csr_to_csc_in_place(SparseMatrix& m, Index scratch) {
    if (!m.isCompressed()) throw InternalError("csr_to_csc_in_place: the matrix is not compressed");
    const Index n = m.rows(), d = m.cols(), nnz = m.nonZeros();
    int* index = m.innerIndexPtr();
    double* value = m.valuePtr();
    std::vector<int> start = column_starts(index, nnz, d);
    Index widest = 0;
    for (Index j = 0; j < d; ++j) widest = std::max<Index>(widest, start[j + 1] - start[j]);
    const Index capacity = std::min(nnz, std::max(scratch, widest));
    std::vector<Entry> taken;
    taken.reserve(static_cast<std::size_t>(capacity));
    // Passes from the last columns down: each takes the highest columns still in the rows
    // (at most `capacity` entries) out, in row order, which frees exactly their place at
    // the end of the column order, and puts them there, so that each column lists its
    // rows in increasing order, as a stable counting sort (Eigen's conversion) would.
    for (Index hi = d; hi > 0;) {
        Index lo = hi - 1;
        while (lo > 0 && start[hi] - start[lo - 1] <= capacity) --lo;
        take_columns_from(static_cast<int>(lo), n, m.outerIndexPtr(), index, value, taken);
        put_in_columns(taken, lo, hi, start, index, value);
        hi = lo;
    }
    return start;
}

}  // namespace detail

FeatureColumns::FeatureColumns(const Features& X) : rows_(X.rows()), cols_(X.cols()), sparse_(X.is_sparse()) {
    if (sparse_) {
        // Converted straight into a local and swapped in (Eigen 3.4's SparseMatrix copies
        // where a C++ type would move): the columns of X are the rows of its transpose.
        SparseMatrix columns = X.sparse_ref().transpose();
        col_start_.assign(columns.outerIndexPtr(), columns.outerIndexPtr() + cols_ + 1);
        csc_.swap(columns);
    } else {
        dense_ = X.dense_ref().transpose();
    }
}

FeatureColumns::FeatureColumns(Features&& X, Index scratch) : rows_(X.rows()), cols_(X.cols()), sparse_(X.is_sparse()) {
    if (scratch <= 0) scratch = default_scratch(X);
    if (sparse_) {
        csc_.swap(X.sparse_mut());
        csc_.makeCompressed();
        col_start_ = detail::csr_to_csc_in_place(csc_, scratch);
    } else {
        dense_ = std::move(X.dense_mut());
        detail::transpose_in_place(dense_, scratch);
    }
}

}  // namespace kestrel
