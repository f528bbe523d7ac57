#pragma once
// The Nyström approximation k(x, z) ≈ k_m(x)ᵀ K_mm⁺ k_m(z) on m landmark rows: the
// feature map φ(x) = Tᵀ k_m(x) with T = U Λ^-½ over the eigenpairs of K_mm above a
// relative threshold (so duplicate landmarks cannot blow it up). With every training
// row as a landmark the approximation is exact on the training rows.
#include <cstdint>
#include <string>
#include <vector>

#include "kestrel/core/param_binding.hpp"
#include "kestrel/kernels/kernel.hpp"

namespace kestrel {

enum class LandmarkSampling {
    uniform,   // m distinct rows drawn uniformly without replacement
    kmeanspp,  // k-means++ seeding (D² sampling) in the kernel's feature space
};
LandmarkSampling landmark_sampling_from_string(const std::string& s);

// `nystrom` (landmark count, 0 = exact) and `landmarks` (uniform | kmeans++): the Nyström
// parameters of kernel_ridge and kernel_logistic, declared once.
struct NystromParams {
    long long nystrom = 0;
    std::string landmarks;
};
std::vector<Bound<NystromParams>> nystrom_param_bindings(const std::string& help, const std::string& anchor);

// m row indices of X, sorted for uniform, in drawing order for kmeans++.
// Throws ParamError (naming `param`) when m > X.rows().
std::vector<Index> choose_landmarks(const Features& X, const Kernel& kernel, Index m, LandmarkSampling how,
                                    std::uint64_t seed, int threads, const std::string& param = "nystrom");

struct NystromBasis {
    Features landmarks;  // m rows
    KernelRows rows;     // landmarks, prepared for evaluation
    Eigen::MatrixXd T;   // m x r, r <= m the numerical rank of K_mm
};
NystromBasis nystrom_basis(const Features& X, const Kernel& kernel, const std::vector<Index>& landmarks,
                           int threads);

// φ(x) for every row of X: n x r, computed in fixed row chunks.
Eigen::MatrixXd nystrom_features(const NystromBasis& basis, const Kernel& kernel, const Features& X, int threads);

}  // namespace kestrel
