#include "kestrel/kernels/kernel_info.hpp"

#include <Eigen/Eigenvalues>
#include <Spectra/MatOp/DenseSymMatProd.h>
#include <Spectra/SymEigsSolver.h>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/kernels/kernel.hpp"
#include "kestrel/kernels/kernel_params.hpp"

namespace kestrel {

namespace {

// Off-diagonal mass below this share of the diagonal: K ≈ I.
constexpr double kIdentityShare = 1e-3;
// Leading eigenvalue above this share of the trace, with off-diagonal entries close
// to the diagonal ones: K ≈ c·11ᵀ.
constexpr double kConstantShare = 0.999;

std::vector<double> leading_eigenvalues(const Eigen::MatrixXd& K, Index top) {
    const Index m = K.rows();
    std::vector<double> out;
    if (m <= std::max<Index>(2 * top + 1, 20)) {
        // Small samples: the dense solver is exact and cheaper than Lanczos.
        const Vector lam = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K, Eigen::EigenvaluesOnly).eigenvalues();
        for (Index i = m - 1; i >= 0 && static_cast<Index>(out.size()) < top; --i) out.push_back(lam[i]);
        return out;
    }
    Spectra::DenseSymMatProd<double> op(K);
    const Index ncv = std::min(m, std::max<Index>(2 * top + 1, 20));
    Spectra::SymEigsSolver<Spectra::DenseSymMatProd<double>> eigs(op, top, ncv);
    eigs.init();
    eigs.compute(Spectra::SortRule::LargestAlge, 1000, 1e-10);
    if (eigs.info() != Spectra::CompInfo::Successful)
        throw DataError(option_named("kernel_info") +
                        ": the Lanczos iteration for the leading eigenvalues did not converge");
    const Vector lam = eigs.eigenvalues();  // largest first
    out.assign(lam.data(), lam.data() + lam.size());
    return out;
}

}  // namespace

KernelInfo kernel_info(const Params& p, const Features& X, const Context& ctx, Index sample, Index top) {
    if (!p.contains("kernel")) throw ParamError(option_named("kernel_info") + ": the model has no kernel parameter");
    KernelInfo info;
    info.rows = X.rows();
    if (info.rows < 2) throw DataError(option_named("kernel_info") + ": needs at least two rows");
    info.kernel_given = get_string(p, "kernel");
    const KernelSpec spec = kernel_from_params(p, X, ctx);
    info.kernel_resolved = spec.to_string();
    info.median_distance = median_pairwise_distance(X, false, derive_seed(ctx.seed, 0x6b65726e), sample);
    if (info.median_distance > 0) info.median_gamma = 1.0 / (2.0 * info.median_distance * info.median_distance);

    const Kernel kernel(spec);
    const int threads = std::max(1, ctx.resolved_threads());
    // Stream "info": the sample is independent of the median heuristic's.
    Rng sampler(derive_seed(ctx.seed, 0x696e666f));
    const std::vector<std::int64_t> picked = sampler.sorted_sample(info.rows, std::min(sample, info.rows));
    const std::vector<Index> rows(picked.begin(), picked.end());
    const Eigen::MatrixXd K = kernel.gram(KernelRows(X, rows), threads);
    const Index m = K.rows();
    info.sample_rows = m;
    info.trace = K.trace();
    info.diagonal_mean = info.trace / static_cast<double>(m);
    // Summed apart from the diagonal: subtracting the trace from the total would
    // cancel to rounding noise exactly when the off-diagonal entries are tiny.
    double off = 0, off_abs = 0;
    for (Index j = 0; j < m; ++j)
        for (Index i = j + 1; i < m; ++i) {
            off += K(i, j);
            off_abs += std::abs(K(i, j));
        }
    const double pairs = static_cast<double>(m) * static_cast<double>(m - 1) / 2;
    info.off_diagonal_mean = off / pairs;
    off_abs /= pairs;
    info.leading_eigenvalues = leading_eigenvalues(K, std::min(top, m - 1));

    const double diag_abs = K.diagonal().cwiseAbs().mean();
    std::ostringstream w;
    if (diag_abs > 0 && off_abs < kIdentityShare * diag_abs) {
        w << "K is close to the identity (off-diagonal entries average " << off_abs / diag_abs
          << " of the diagonal): the bandwidth is far too small (gamma too large); every point looks unlike every "
             "other and the model will memorise. Try gamma=median";
        info.warnings.push_back(w.str());
    }
    const double lead = info.leading_eigenvalues.empty() ? 0.0 : info.leading_eigenvalues.front();
    if (info.trace > 0 && lead > kConstantShare * info.trace && info.off_diagonal_mean > kConstantShare * info.diagonal_mean) {
        w.str("");
        w << "K is close to a constant matrix c·11ᵀ (the leading eigenvalue holds " << lead / info.trace
          << " of the trace): the bandwidth is far too large (gamma too small); every point looks the same. Try "
             "gamma=median";
        info.warnings.push_back(w.str());
    }
    return info;
}

std::string KernelInfo::to_text() const {
    std::ostringstream o;
    o.precision(6);
    o << "kernel:            " << kernel_given << "\n";
    o << "resolved:          " << kernel_resolved << "\n";
    o << "median distance:   " << median_distance << "  (median heuristic: rbf gamma = " << median_gamma << ")\n";
    o << "Gram sample:       " << sample_rows << " of " << rows << " rows\n";
    o << "diagonal mean:     " << diagonal_mean << "\n";
    o << "off-diagonal mean: " << off_diagonal_mean << "\n";
    o << "trace:             " << trace << "\n";
    o << "leading eigenvalues (share of trace):\n";
    double cum = 0;
    for (std::size_t i = 0; i < leading_eigenvalues.size(); ++i) {
        cum += leading_eigenvalues[i];
        o << "  " << i + 1 << "  " << leading_eigenvalues[i] << "  (" << (trace > 0 ? leading_eigenvalues[i] / trace : 0)
          << ", cumulative " << (trace > 0 ? cum / trace : 0) << ")\n";
    }
    for (const auto& w : warnings) o << "warning: " << w << "\n";
    return o.str();
}

Json KernelInfo::to_json() const {
    return {{"kernel", kernel_given},
            {"resolved", kernel_resolved},
            {"median_distance", median_distance},
            {"median_gamma", median_gamma},
            {"rows", rows},
            {"sample_rows", sample_rows},
            {"diagonal_mean", diagonal_mean},
            {"off_diagonal_mean", off_diagonal_mean},
            {"trace", trace},
            {"leading_eigenvalues", leading_eigenvalues},
            {"warnings", warnings}};
}

}  // namespace kestrel
