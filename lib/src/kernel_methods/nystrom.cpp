#include "kestrel/kernel_methods/nystrom.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <numeric>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {

namespace {
constexpr Index kFeatureRows = 2048;  // rows of X per kernel block when mapping
// Eigenvalues of K_mm below this fraction of the largest are treated as zero.
constexpr double kRankTolerance = 1e-10;
}  // namespace

LandmarkSampling landmark_sampling_from_string(const std::string& s) {
    if (s == "uniform") return LandmarkSampling::uniform;
    if (s == "kmeans++") return LandmarkSampling::kmeanspp;
    throw ParamError("landmarks='" + s + "': expected uniform or kmeans++");
}

std::vector<Index> choose_landmarks(const Features& X, const Kernel& kernel, Index m, LandmarkSampling how,
                                    std::uint64_t seed, int threads, const std::string& param) {
    const Index n = X.rows();
    if (m < 1 || m > n)
        throw ParamError(param + "=" + std::to_string(m) + ": the number of landmarks must be between 1 and the " +
                         std::to_string(n) + " training rows");
    Rng rng(seed);
    std::vector<Index> out;
    if (how == LandmarkSampling::uniform) {
        const std::vector<std::int64_t> picked = rng.sorted_sample(n, m);
        return {picked.begin(), picked.end()};
    }
    // k-means++ in feature space: d²(x, c) = k(x,x) - 2 k(x,c) + k(c,c).
    const KernelRows rows(X);
    Vector self(n);
    for (Index i = 0; i < n; ++i) self[i] = kernel(rows, i, rows, i);
    Vector d2 = Vector::Constant(n, std::numeric_limits<double>::infinity());
    std::vector<double> krow(static_cast<std::size_t>(n));
    std::vector<char> taken(static_cast<std::size_t>(n), 0);
    Index next = static_cast<Index>(rng.below(static_cast<std::uint64_t>(n)));
    for (Index t = 0; t < m; ++t) {
        out.push_back(next);
        taken[static_cast<std::size_t>(next)] = 1;
        kernel.row(rows, next, rows, 0, n, krow.data(), threads);
        for (Index i = 0; i < n; ++i)
            d2[i] = std::min(d2[i], std::max(0.0, self[i] - 2.0 * krow[static_cast<std::size_t>(i)] + self[next]));
        if (t + 1 == m) break;
        double total = 0;
        for (Index i = 0; i < n; ++i)
            if (!taken[static_cast<std::size_t>(i)]) total += d2[i];
        next = -1;
        if (total > 0) {
            double u = rng.uniform() * total;
            for (Index i = 0; i < n; ++i) {
                if (taken[static_cast<std::size_t>(i)] || d2[i] <= 0) continue;
                next = i;
                u -= d2[i];
                if (u < 0) break;
            }
        }
        if (next < 0) {
            // Every remaining row coincides with a landmark: any untaken row will do.
            Index skip = static_cast<Index>(rng.below(static_cast<std::uint64_t>(n - t - 1)));
            for (Index i = 0; i < n; ++i)
                if (!taken[static_cast<std::size_t>(i)] && skip-- == 0) {
                    next = i;
                    break;
                }
        }
    }
    return out;
}

NystromBasis nystrom_basis(const Features& X, const Kernel& kernel, const std::vector<Index>& landmarks,
                           int threads) {
    NystromBasis b;
    b.landmarks = X.rows_subset(landmarks);
    b.rows = KernelRows(b.landmarks);
    const Eigen::MatrixXd Kmm = kernel.gram(b.rows, threads);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(Kmm);
    if (eig.info() != Eigen::Success) throw DataError("nystrom: the landmark kernel matrix has no eigendecomposition");
    const Vector& lam = eig.eigenvalues();  // ascending
    const double top = lam.size() > 0 ? lam[lam.size() - 1] : 0.0;
    if (!(top > 0)) throw DataError("nystrom: the kernel matrix of the landmarks is zero");
    Index first = 0;
    while (first < lam.size() && !(lam[first] > kRankTolerance * top)) ++first;
    const Index r = lam.size() - first;
    b.T = eig.eigenvectors().rightCols(r) * lam.tail(r).cwiseSqrt().cwiseInverse().asDiagonal();
    return b;
}

Eigen::MatrixXd nystrom_features(const NystromBasis& basis, const Kernel& kernel, const Features& X, int threads) {
    const Index n = X.rows();
    Eigen::MatrixXd out(n, basis.T.cols());
    for (Index lo = 0; lo < n; lo += kFeatureRows) {
        const Index hi = std::min(n, lo + kFeatureRows);
        std::vector<Index> idx(static_cast<std::size_t>(hi - lo));
        std::iota(idx.begin(), idx.end(), lo);
        const DenseMatrix K = kernel.block(KernelRows(X, idx), basis.rows, threads);
        out.middleRows(lo, hi - lo).noalias() = K * basis.T;
    }
    return out;
}

std::vector<Bound<NystromParams>> nystrom_param_bindings(const std::string& help, const std::string& anchor) {
    return {
        bind(&NystromParams::nystrom, int_param("nystrom", 0, help).range(0.0, std::nullopt).like(anchor)),
        bind(&NystromParams::landmarks,
             choice_param("landmarks", "uniform", {"uniform", "kmeans++"},
                          "nystrom: landmark rows drawn uniformly or by k-means++ seeding in feature space")
                 .like("scikit-learn Nystroem (uniform)")),
    };
}

}  // namespace kestrel
