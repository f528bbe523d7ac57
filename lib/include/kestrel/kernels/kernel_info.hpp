#pragma once
// Kernel diagnostics for `kestrel-train --kernel-info`: the resolved kernel (with the
// median heuristic's bandwidth), the spectrum of the Gram matrix on a seeded sample of
// rows (leading eigenvalues by Spectra's Lanczos solver), and warnings when the kernel
// matrix degenerates: K ≈ I (bandwidth far too small: every point looks unlike every
// other) or K ≈ c·11ᵀ (bandwidth far too large: every point looks the same).
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/core/params.hpp"
#include "kestrel/kernels/kernel_spec.hpp"

namespace kestrel {

struct KernelInfo {
    std::string kernel_given;     // the spec as written
    std::string kernel_resolved;  // every parameter a number
    double median_distance = 0;   // median pairwise Euclidean distance on the sample
    double median_gamma = 0;      // the rbf gamma of the median heuristic, 1/(2 median²)
    Index rows = 0, sample_rows = 0;
    std::vector<double> leading_eigenvalues;  // largest first
    double trace = 0;
    double diagonal_mean = 0, off_diagonal_mean = 0;
    std::vector<std::string> warnings;

    std::string to_text() const;
    Json to_json() const;
};

// `p` holds the kernel parameters (kernel, gamma, degree, coef0) of a resolved model
// spec. ParamError when it has no `kernel`.
KernelInfo kernel_info(const Params& p, const Features& X, const Context& ctx, Index sample = 1000,
                       Index top = 10);

}  // namespace kestrel
