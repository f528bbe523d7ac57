#pragma once
// The weighted, centred normal equations of a dense design, formed without a copy of X:
// A = X̃ᵀ S X̃ and b = X̃ᵀ √S r, with X̃ = X − 1x̄ᵀ and S = diag(s). Shared by ridge's
// d x d solver and the elastic net's covariance updates.
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
CentredGram centred_gram(const DenseMatrix& X, const Vector& x_mean, const Vector& sqrt_s, const Vector& rhs,
                         int threads);

}  // namespace kestrel
