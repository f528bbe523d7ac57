#include "kestrel/optim/tall_qr.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <vector>

namespace kestrel {

Eigen::MatrixXd tall_skinny_r(Eigen::Index n, Eigen::Index m, const RowBlockFill& fill, int threads) {
    // Blocks at least 4m (and 1024) rows tall, so that their R factors are a small part
    // of them; up to 32, so that the blocks in flight are a small part of A.
    const Eigen::Index blocks = std::clamp<Eigen::Index>(n / std::max<Eigen::Index>(4 * m, 1024), 1, 32);
    std::vector<Eigen::MatrixXd> r(static_cast<std::size_t>(blocks));
#pragma omp parallel for schedule(dynamic) num_threads(std::max(1, threads)) if (blocks > 1)
    for (Eigen::Index b = 0; b < blocks; ++b) {
        const Eigen::Index first = b * n / blocks, count = (b + 1) * n / blocks - first;
        Eigen::MatrixXd rows;
        fill(first, count, rows);
        Eigen::HouseholderQR<Eigen::Ref<Eigen::MatrixXd>> qr(rows);  // in place
        r[static_cast<std::size_t>(b)] = qr.matrixQR().topRows(std::min(count, m)).triangularView<Eigen::Upper>();
    }
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(m, m);
    if (blocks == 1) {
        out.topRows(r[0].rows()) = r[0];
        return out;
    }
    Eigen::Index total = 0;
    for (const auto& rb : r) total += rb.rows();
    Eigen::MatrixXd stacked(total, m);
    total = 0;
    for (const auto& rb : r) {
        stacked.middleRows(total, rb.rows()) = rb;
        total += rb.rows();
    }
    Eigen::HouseholderQR<Eigen::Ref<Eigen::MatrixXd>> qr(stacked);
    const Eigen::Index k = std::min(total, m);
    out.topRows(k) = qr.matrixQR().topRows(k).triangularView<Eigen::Upper>();
    return out;
}

}  // namespace kestrel
