#pragma once
// Pegasos (Shalev-Shwartz, Singer, Srebro, Cotter, "Pegasos: primal estimated sub-gradient
// solver for SVM", ICML 2007 / Math. Programming 2011): stochastic sub-gradient descent on
//   λ/2 ‖ŵ‖² + (1/n) Σ_i c_i max(0, 1 − y_i ŵᵀx̂_i),   λ = 1/(C n),   c_i = C_i / C,
// which is (1/(C n)) times linear_svm's hinge objective ½‖ŵ‖² + Σ_i C_i max(0, 1 − y_i ŵᵀx̂_i).
// Step t (one row i_t): η_t = 1/(λ t); ŵ ← (1 − η_t λ) ŵ + η_t c_i y_i x̂_i when y_i ŵᵀx̂_i < 1;
// then, with `project`, ŵ ← min(1, r/‖ŵ‖) ŵ with r² = max_i c_i / λ, the ball that holds the
// optimum (1/√λ in the paper, where every c_i = 1). `squared` swaps in the squared hinge
// c_i max(0, 1 − y ŵᵀx̂)², whose sub-gradient step is 2 η_t c_i (1 − y ŵᵀx̂) y x̂ and whose
// optimum lies within r² = 2 mean(c_i) / λ (from ½λ‖ŵ*‖² ≤ f(0)).
// Rows are visited epoch by epoch, each epoch a fresh permutation from the seed: one
// sequential stream, so the model depends on the seed only, never on the thread count.
#include <cstdint>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

struct PegasosOptions {
    double C = 1.0;
    int epochs = 10;
    bool project = true;
    bool squared = false;  // squared hinge instead of hinge
    double bias = 0;       // B > 0: a constant feature (penalised, as LIBLINEAR's -B)
    std::uint64_t seed = 1;
};

// Returns ŵ: d weights, then the bias weight when bias > 0. y: +1 / −1; cost: C_i ≥ 0.
Vector solve_pegasos(const Features& X, const Vector& y, const Vector& cost, const PegasosOptions& o);

}  // namespace kestrel
