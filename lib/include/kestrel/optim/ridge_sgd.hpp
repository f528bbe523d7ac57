#pragma once
// Stochastic gradient descent on the ridge objective (ridge's solver=sgd; the exact
// schedule is in docs/models/ridge.md). Each step costs O(non-zeros of the row):
// the L2 shrinkage is a scalar factor on w, the centring a multiple of x̄, and the
// running average is kept in the same factored form, so sparse data stays sparse.
#include <cstdint>
#include <string>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

struct RidgeSgdOptions {
    int max_iter = 1000;  // epochs
    double tol = 1e-4;    // relative objective improvement per epoch under which it stops
    int n_iter_no_change = 5;
    double eta0 = 0;         // initial step; 0 = 1 / (max_i c_i ||x̃_i||² + λ)
    bool average = true;     // return the average of the iterates (ASGD)
    std::uint64_t seed = 1;  // the per-epoch shuffles
};

struct RidgeSgdResult {
    Vector w;
    int epochs = 0;
    bool converged = false;
    double objective = 0;  // F(w) at the returned w
};

// Minimises F(w) = (1/(2S)) Σ s_i (yc_i − (x_i − x̄)ᵀw)² + (alpha/(2S)) ||w||², S = Σ s_i,
// whose minimiser is the ridge solution. x_mean = 0 when there is no intercept.
// ParamError naming eta0 when the steps diverge.
RidgeSgdResult ridge_sgd(const Features& X, const Vector& s, const Vector& yc, const Vector& x_mean, double alpha,
                         const RidgeSgdOptions& opts);

}  // namespace kestrel
