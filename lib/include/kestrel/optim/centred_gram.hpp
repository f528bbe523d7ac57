#pragma once
// The weighted, centred normal equations, formed without a copy of X:
// A = X̃ᵀ S X̃ and b = X̃ᵀ √S r, with X̃ = X − 1x̄ᵀ and S = diag(s). Shared by ridge's and
// least_squares' d x d solvers and the elastic net's covariance updates, which is also
// what they sum over the ranks when the rows are spread over them (kestrel-train --shard).
#include "kestrel/core/dataset.hpp"

namespace kestrel {

struct CentredGram {
    Eigen::MatrixXd A;  // d x d, lower triangle only (the upper is left zero)
    Vector b;           // d
};

// `x_mean` empty: no centring. `sqrt_s` holds √s_i; `rhs` is the right-hand side
// already scaled by √s (for b = X̃ᵀ S y, pass √s ∘ y). Rows are centred in blocks and
// the blocks summed in a fixed order: the result depends on the sizes, never on
// `threads`. Centring each row before the product avoids the cancellation of
// XᵀSX − S x̄x̄ᵀ when the means are large.
CentredGram centred_gram(const DenseView& X, const Vector& x_mean, const Vector& sqrt_s, const Vector& rhs,
                         int threads);

// S = Σ s_i, x̄ = Σ s_i x_i / S and ȳ = Σ s_i y_i / S over every row, of every rank when
// `rows_sharded` (one message of d + 2 numbers). Without `centered` the means are zero.
struct WeightedMoments {
    double total = 0;
    Vector x_mean;
    double y_mean = 0;
};
WeightedMoments weighted_moments(const Features& X, const Vector& s, const Vector& y, bool centered,
                                 bool rows_sharded);

// The system of min Σ s_i (yc_i − (x_i − x̄)ᵀw)² over every row (of every rank when
// `rows_sharded`): A = X̃ᵀSX̃ (lower triangle), b = X̃ᵀS yc and y_ss = Σ s_i yc_i², with
// the moments' x̄ (no centring when `centered` is false) and yc = y − ȳ. Dense X: rows
// centred in blocks (centred_gram); sparse X: from the non-zeros, A = Σ s_i x_i x_iᵀ −
// S x̄x̄ᵀ, never densified. On shards each rank forms its part on the whole data's means
// and one message of d² + d + 1 numbers sums them.
struct NormalEquations {
    Eigen::MatrixXd A;
    Vector b;
    double y_ss = 0;
};
NormalEquations centred_normal_equations(const Features& X, const Vector& s, const Vector& yc,
                                         const WeightedMoments& m, bool centered, bool rows_sharded, int threads);

}  // namespace kestrel
