// Turning a kernel spec into numbers: model-level defaults, 1/num_features and the
// median heuristic.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/kernels/kernel_spec.hpp"

namespace kestrel {

namespace {

std::vector<Index> sample_rows(Index n, Index sample, std::uint64_t seed) {
    std::vector<Index> rows(static_cast<std::size_t>(n));
    std::iota(rows.begin(), rows.end(), Index{0});
    if (n > sample) {
        Rng rng(seed);
        // Partial Fisher-Yates: the first `sample` entries are a uniform sample.
        for (Index i = 0; i < sample; ++i) {
            Index j = i + static_cast<Index>(rng.below(static_cast<std::uint64_t>(n - i)));
            std::swap(rows[static_cast<std::size_t>(i)], rows[static_cast<std::size_t>(j)]);
        }
        rows.resize(static_cast<std::size_t>(sample));
        std::sort(rows.begin(), rows.end());
    }
    return rows;
}

}  // namespace

double median_pairwise_distance(const Features& X, bool l1, std::uint64_t seed, Index sample) {
    const Index n = X.rows();
    if (n < 2) throw DataError("the median heuristic needs at least two rows");
    std::vector<Index> rows = sample_rows(n, std::max<Index>(sample, 2), seed);
    const DenseMatrix S = X.rows_subset(rows).to_dense();
    const Index m = S.rows();
    std::vector<double> dist;
    dist.reserve(static_cast<std::size_t>(m * (m - 1) / 2));
    if (l1) {
        for (Index i = 0; i < m; ++i)
            for (Index j = i + 1; j < m; ++j) dist.push_back((S.row(i) - S.row(j)).cwiseAbs().sum());
    } else {
        const Eigen::MatrixXd G = S * S.transpose();
        for (Index i = 0; i < m; ++i)
            for (Index j = i + 1; j < m; ++j)
                dist.push_back(std::sqrt(std::max(0.0, G(i, i) + G(j, j) - 2.0 * G(i, j))));
    }
    // Lower median for an even count: a value that actually occurs, independent of
    // the selection algorithm's tie handling.
    auto mid = dist.begin() + static_cast<std::ptrdiff_t>((dist.size() - 1) / 2);
    std::nth_element(dist.begin(), mid, dist.end());
    return *mid;
}

KernelSpec resolve_kernel(const KernelSpec& spec, const KernelDefaults& defaults, const Features& X,
                          std::uint64_t seed, Index median_sample) {
    KernelSpec out = spec;
    const Index d = X.cols();
    // The median distances are computed at most once each.
    std::optional<double> median_l2, median_l1;
    for (auto& t : out.terms) {
        for (auto& k : t.factors) {
            if (kernel_uses_gamma(k.kind) && !k.gamma) {
                GammaRule rule = k.gamma_rule.value_or(defaults.gamma_rule);
                if (rule == GammaRule::given) {
                    k.gamma = defaults.gamma;
                } else if (rule == GammaRule::automatic) {
                    k.gamma = d > 0 ? 1.0 / static_cast<double>(d) : 1.0;
                } else {
                    const bool l1 = k.kind == KernelKind::laplacian;
                    if (k.kind == KernelKind::poly || k.kind == KernelKind::sigmoid)
                        throw ParamError(std::string("gamma=median applies to distance kernels (rbf, laplacian, "
                                                     "exponential, anova), not ") +
                                         to_string(k.kind));
                    auto& cached = l1 ? median_l1 : median_l2;
                    if (!cached) cached = median_pairwise_distance(X, l1, seed, median_sample);
                    const double m = *cached;
                    if (!(m > 0)) throw DataError("gamma=median: the median pairwise distance is 0");
                    // Bandwidth sigma = median distance: rbf/anova exp(-d²/(2σ²)),
                    // laplacian exp(-d₁/σ), exponential exp(-d/σ) (2 nu = σ).
                    if (k.kind == KernelKind::rbf || k.kind == KernelKind::anova) k.gamma = 1.0 / (2.0 * m * m);
                    else k.gamma = 1.0 / m;
                }
                k.gamma_rule.reset();
            }
            if (kernel_uses_degree(k.kind) && !k.degree) k.degree = defaults.degree;
            if (kernel_uses_coef0(k.kind) && !k.coef0) k.coef0 = defaults.coef0;
        }
    }
    return out;
}

}  // namespace kestrel
