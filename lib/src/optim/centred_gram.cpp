#include "kestrel/optim/centred_gram.hpp"

#include <algorithm>
#include <vector>

namespace kestrel {

CentredGram centred_gram(const DenseMatrix& X, const Vector& x_mean, const Vector& sqrt_s, const Vector& rhs,
                         int threads) {
    const Index n = X.rows(), d = X.cols();
    const bool centred = x_mean.size() > 0;
    constexpr Index block = 1024;
    const Index blocks = (n + block - 1) / block;
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
            const Index r0 = k * block, len = std::min(block, n - r0);
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

}  // namespace kestrel
