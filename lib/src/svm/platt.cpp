// The Laplace scale and the probability folds, transcribed from LIBSVM 3.24's
// svm_svr_probability and svm_binary_svc_probability (the sigmoid fit is calibration/sigmoid.cpp).
#include "kestrel/svm/platt.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {

double laplace_scale(std::span<const double> residuals) {
    if (residuals.empty()) throw InternalError("laplace_scale: no residuals");
    double mae = 0;
    for (double r : residuals) mae += std::fabs(r);
    mae /= static_cast<double>(residuals.size());
    const double std_dev = std::sqrt(2 * mae * mae);
    int count = 0;
    mae = 0;
    for (double r : residuals) {
        if (std::fabs(r) > 5 * std_dev) ++count;
        else mae += std::fabs(r);
    }
    mae /= static_cast<double>(residuals.size() - static_cast<std::size_t>(count));
    return mae;
}

std::vector<int> probability_folds(Index n, std::uint64_t seed) {
    const Index k = std::min<Index>(5, n);
    std::vector<Index> perm(static_cast<std::size_t>(n));
    std::iota(perm.begin(), perm.end(), Index{0});
    Rng rng(seed);
    rng.shuffle(perm);
    // LIBSVM's fold boundaries: fold f holds perm[f n / k, (f+1) n / k).
    std::vector<int> fold(static_cast<std::size_t>(n), 0);
    for (Index f = 0; f < k; ++f)
        for (Index j = f * n / k; j < (f + 1) * n / k; ++j) fold[static_cast<std::size_t>(perm[static_cast<std::size_t>(j)])] = static_cast<int>(f);
    return fold;
}

}  // namespace kestrel
