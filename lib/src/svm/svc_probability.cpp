// probability=1 for svc and nu_svc: each pair's held-out decision values.
#include <vector>

#include "kestrel/svm/svc.hpp"

namespace kestrel {

SigmoidFit Svc::pair_sigmoid(const Features& X, const std::vector<Index>& rows, const std::vector<std::int8_t>& y,
                             const Vector& upper, const Kernel& kernel, const SvmSolverSettings& settings,
                             const Context& ctx, std::uint64_t seed) const {
    const auto l = static_cast<Index>(rows.size());
    const std::vector<int> fold = probability_folds(l, seed);
    const int k = static_cast<int>(std::min<Index>(5, l));
    std::vector<double> dec(static_cast<std::size_t>(l), 0.0);
    for (int f = 0; f < k; ++f) {
        std::vector<Index> train, test, test_pos;
        std::vector<std::int8_t> ty;
        std::vector<double> tupper;
        Index n_pos = 0;
        for (Index i = 0; i < l; ++i) {
            const auto u = static_cast<std::size_t>(i);
            if (fold[u] == f) {
                test.push_back(rows[u]);
                test_pos.push_back(i);
            } else {
                train.push_back(rows[u]);
                ty.push_back(y[u]);
                tupper.push_back(upper[i]);
                n_pos += y[u] > 0 ? 1 : 0;
            }
        }
        if (test.empty()) continue;
        const auto n_train = static_cast<Index>(train.size());
        if (n_pos == 0 || n_pos == n_train) {
            // A fold whose training part has one class: LIBSVM's ±1 (0 with no rows at all).
            const double v = n_train == 0 ? 0.0 : (n_pos > 0 ? 1.0 : -1.0);
            for (Index i : test_pos) dec[static_cast<std::size_t>(i)] = v;
            continue;
        }
        const KernelRows train_rows(X, train);
        const BinarySvcSolution sol =
            solve_pair(train_rows, kernel, ty, Eigen::Map<const Vector>(tupper.data(), n_train), settings, ctx);
        std::vector<Index> sv;
        std::vector<double> coef;
        for (Index i = 0; i < n_train; ++i)
            if (sol.coef[i] != 0) {
                sv.push_back(train[static_cast<std::size_t>(i)]);
                coef.push_back(sol.coef[i]);
            }
        if (sv.empty()) {
            for (Index i : test_pos) dec[static_cast<std::size_t>(i)] = -sol.rho;
            continue;
        }
        const DenseMatrix K = kernel.block(KernelRows(X, test), KernelRows(X, sv), settings.threads);
        const Vector d = K * Eigen::Map<const Vector>(coef.data(), static_cast<Index>(coef.size()));
        for (std::size_t r = 0; r < test_pos.size(); ++r)
            dec[static_cast<std::size_t>(test_pos[r])] = d[static_cast<Index>(r)] - sol.rho;
    }
    return fit_sigmoid(dec, y);
}

}  // namespace kestrel
