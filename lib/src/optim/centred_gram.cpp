#include "kestrel/optim/centred_gram.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kestrel/common/row_shards.hpp"
#include "kestrel/core/memory.hpp"

namespace kestrel {

CentredGram centred_gram(const DenseView& X, const Vector& x_mean, const Vector& sqrt_s, const Vector& rhs,
                         int threads) {
    const Index n = X.rows(), d = X.cols();
    const bool centred = x_mean.size() > 0;
    constexpr Index kBlock = 1024;
    const Index blocks = (n + kBlock - 1) / kBlock;
    // A fixed number of parts, each summed into its own Gram (at most 64 MB of them).
    const auto gram_bytes = static_cast<double>(d) * static_cast<double>(d) * sizeof(double);
    const Index parts =
        std::max<Index>(1, std::min<Index>({8, blocks, static_cast<Index>((64 << 20) / std::max(gram_bytes, 1.0))}));
    std::vector<Eigen::MatrixXd> A(static_cast<std::size_t>(parts));
    std::vector<Vector> b(static_cast<std::size_t>(parts));
#pragma omp parallel for schedule(dynamic) num_threads(std::max(1, threads)) if (parts > 1)
    for (Index g = 0; g < parts; ++g) {
        Eigen::MatrixXd& Ag = A[static_cast<std::size_t>(g)];
        Vector& bg = b[static_cast<std::size_t>(g)];
        Ag = Eigen::MatrixXd::Zero(d, d);
        bg = Vector::Zero(d);
        DenseMatrix Xb;
        for (Index k = g * blocks / parts; k < (g + 1) * blocks / parts; ++k) {
            const Index r0 = k * kBlock, len = std::min(kBlock, n - r0);
            Xb = X.middleRows(r0, len);
            if (centred) Xb.rowwise() -= x_mean.transpose();
            Xb.array().colwise() *= sqrt_s.segment(r0, len).array();
            Ag.selfadjointView<Eigen::Lower>().rankUpdate(Xb.transpose());
            bg.noalias() += Xb.transpose() * rhs.segment(r0, len);
        }
    }
    for (Index g = 1; g < parts; ++g) {
        A[0] += A[static_cast<std::size_t>(g)];
        b[0] += b[static_cast<std::size_t>(g)];
    }
    return {std::move(A[0]), std::move(b[0])};
}

WeightedMoments weighted_moments(const Features& X, const Vector& s, const Vector& y, bool centered,
                                 bool rows_sharded) {
    const Index d = X.cols();
    Vector sums = Vector::Zero(d + 2);
    sums[0] = s.sum();
    if (centered) {
        sums.segment(1, d) = X.transpose_multiply(s);
        sums[d + 1] = s.dot(y);
    }
    sum_over_ranks(rows_sharded, std::span<double>(sums.data(), static_cast<std::size_t>(sums.size())));
    WeightedMoments m;
    m.total = sums[0];
    m.x_mean = Vector::Zero(d);
    if (centered && m.total > 0) {
        m.x_mean = sums.segment(1, d) / m.total;
        m.y_mean = sums[d + 1] / m.total;
    }
    return m;
}

namespace {

// Σ s_i x_i x_iᵀ (lower triangle) from the non-zeros of each row.
Eigen::MatrixXd sparse_weighted_gram(const SparseMatrix& X, const Vector& s) {
    const Index d = X.cols();
    const int* outer = X.outerIndexPtr();
    const int* inner = X.innerIndexPtr();
    const double* val = X.valuePtr();
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(d, d);
    for (Index i = 0; i < X.rows(); ++i) {
        for (int a = outer[i]; a < outer[i + 1]; ++a) {
            const double sa = s[i] * val[a];
            for (int b = outer[i]; b <= a; ++b) {
                const int hi = std::max(inner[a], inner[b]), lo = std::min(inner[a], inner[b]);
                A(hi, lo) += sa * val[b];
            }
        }
    }
    return A;
}

}  // namespace

NormalEquations centred_normal_equations(const Features& X, const Vector& s, const Vector& yc,
                                         const WeightedMoments& m, bool centered, bool rows_sharded, int threads) {
    const Index d = X.cols();
    // A wide design's Gram (and, on shards, its message) may not fit: say so instead of
    // being killed. Small ones skip the look at the available memory.
    const double gram_bytes = static_cast<double>(d) * static_cast<double>(d) * sizeof(double) * (rows_sharded ? 2 : 1);
    if (gram_bytes > 64.0 * (1 << 20))
        check_memory(gram_bytes >= 1.8e19 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(gram_bytes), 0,
                     "the " + std::to_string(d) + " x " + std::to_string(d) + " normal equations");
    NormalEquations ne;
    if (X.is_sparse()) {
        SparseMatrix Xc = X.sparse_ref();
        Xc.makeCompressed();
        ne.A = sparse_weighted_gram(Xc, s);
        // Σ s_i x̄ yc_i = 0, so Xᵀ(s∘yc) is already the centred right-hand side.
        ne.b = Xc.transpose() * s.cwiseProduct(yc);
    } else {
        const Vector sqrt_s = s.cwiseSqrt();
        CentredGram g = centred_gram(X.dense_ref(), centered ? m.x_mean : Vector(), sqrt_s,
                                     sqrt_s.cwiseProduct(yc), threads);
        ne.A = std::move(g.A);
        ne.b = std::move(g.b);
    }
    ne.y_ss = s.dot(yc.cwiseProduct(yc));
    if (rows_sharded) {  // one message: A, b and y_ss
        Vector all(d * d + d + 1);
        all.head(d * d) = Eigen::Map<const Vector>(ne.A.data(), d * d);
        all.segment(d * d, d) = ne.b;
        all[d * d + d] = ne.y_ss;
        sum_over_ranks(rows_sharded, std::span<double>(all.data(), static_cast<std::size_t>(all.size())));
        ne.A = Eigen::Map<const Eigen::MatrixXd>(all.data(), d, d);
        ne.b = all.segment(d * d, d);
        ne.y_ss = all[d * d + d];
    }
    // The sparse Gram is uncentred: its correction needs the whole data's S and x̄.
    if (X.is_sparse() && centered) ne.A.noalias() -= m.total * (m.x_mean * m.x_mean.transpose());
    return ne;
}

}  // namespace kestrel
