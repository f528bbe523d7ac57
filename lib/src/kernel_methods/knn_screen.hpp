#pragma once
// Internal to knn_search: screening a block of dense queries against every training
// row with dot products. On common/simd's AVX2 path (chosen at run time, so the build
// stays portable) a register-blocked kernel over training rows packed in panels of 8
// fuses the products with the comparison against each query's k-th; elsewhere one
// Eigen matrix product per block of training rows.
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "knn_candidates.hpp"

namespace kestrel::knn_detail {

// Training rows in panels of 8 (panel p, feature j: rows 8p..8p+7 contiguous), with the
// per-row coefficient of the screening value; padding rows have NaN, which never passes.
struct PackedRows {
    Index n = 0, d = 0;
    std::vector<double> panels;
    std::vector<double> coef;  // euclidean: ||z||²; cosine: 1/||z|| (0 for a zero row)
    bool empty() const { return panels.empty(); }
};
// Empty when the CPU lacks AVX2/FMA (the Eigen path is used then).
PackedRows pack_rows(const DenseView& T, const std::vector<double>& norm, bool cosine);

class DotScreen {
public:
    // For queries Q[q0, q0+bq) and every training row j, offers lists[r] the value
    //   euclidean: ||z_j||² - 2 x·z_j           (norm[j] = ||z_j||²)
    //   cosine:    -x·z_j / ||z_j||, 0 if z_j = 0 (norm[j] = ||z_j||)
    // which orders the rows as the exact distance does, up to rounding.
    void run(const DenseView& Q, Index q0, Index bq, const DenseView& T, const std::vector<double>& norm,
             bool cosine, const PackedRows& packed, std::vector<CandidateList>& lists);

private:
    DenseMatrix g_;  // bq x training block of dot products (Eigen path)
};

}  // namespace kestrel::knn_detail
