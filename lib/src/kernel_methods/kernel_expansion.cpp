#include "kestrel/kernel_methods/kernel_expansion.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/features_json.hpp"

namespace kestrel {

namespace {
constexpr Index kPredictRows = 128;  // rows of X per task at prediction (bounds memory)
}

void KernelExpansion::prepare() {
    kernel = Kernel(kernel_spec);
    row_cache = KernelRows(rows);
}

Eigen::MatrixXd KernelExpansion::decision(const Features& X) const {
    const Index n = X.rows();
    Eigen::MatrixXd out(n, coef.cols());
    const Index blocks = (n + kPredictRows - 1) / kPredictRows;
    const int threads = omp_get_max_threads();
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1 && blocks > 1)
    for (Index blk = 0; blk < blocks; ++blk) {
        const Index lo = blk * kPredictRows, hi = std::min(n, lo + kPredictRows);
        std::vector<Index> idx(static_cast<std::size_t>(hi - lo));
        for (Index i = lo; i < hi; ++i) idx[static_cast<std::size_t>(i - lo)] = i;
        const KernelRows xr = (lo == 0 && hi == n) ? KernelRows(X) : KernelRows(X, idx);
        const DenseMatrix K = kernel.block(xr, row_cache, 1);
        out.middleRows(lo, hi - lo).rowwise() = intercept.transpose();
        if (K.cols() > 0) out.middleRows(lo, hi - lo).noalias() += K * coef;
    }
    return out;
}

void KernelExpansion::drop_zero_rows() {
    std::vector<Index> keep;
    for (Index i = 0; i < coef.rows(); ++i)
        if ((coef.row(i).array() != 0.0).any()) keep.push_back(i);
    if (static_cast<Index>(keep.size()) == coef.rows()) return;
    Eigen::MatrixXd c(static_cast<Index>(keep.size()), coef.cols());
    for (std::size_t r = 0; r < keep.size(); ++r) c.row(static_cast<Index>(r)) = coef.row(keep[r]);
    coef = std::move(c);
    rows = rows.rows_subset(keep);
}

Json KernelExpansion::to_json() const {
    return {{"kernel", kernel_spec.to_json()},
            {"rows", features_to_json(rows)},
            {"coef", matrix_to_json(coef)},
            {"intercept", vector_to_json(intercept)}};
}

KernelExpansion KernelExpansion::from_json(const Json& j, Index n_features, Index outputs) {
    if (!j.is_object()) throw ModelStateError("kernel expansion state must be an object");
    KernelExpansion e;
    e.kernel_spec = KernelSpec::from_json(j.at("kernel"));
    if (!e.kernel_spec.resolved()) throw ModelStateError("kernel parameters are not resolved numbers");
    e.rows = features_from_json(j.at("rows"), n_features);
    if (e.kernel_spec.single() && e.kernel_spec.single()->kind == KernelKind::precomputed)
        check_precomputed_serials(e.rows, "kernel expansion rows");
    const Index m = e.rows.rows();
    // An empty expansion (a perceptron that never erred) has no rows to give the width.
    e.coef = m > 0 ? matrix_from_json(j.at("coef"), "coef", m, outputs) : Eigen::MatrixXd::Zero(0, outputs);
    e.intercept = vector_from_json(j.at("intercept"), "intercept", outputs);
    e.prepare();
    return e;
}

}  // namespace kestrel
