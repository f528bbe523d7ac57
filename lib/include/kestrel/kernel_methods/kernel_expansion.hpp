#pragma once
// The learned state of the kernel models that are not SVMs: a resolved kernel, a set
// of rows (training rows, or Nyström landmarks) and one coefficient column per output,
//     f_q(x) = Σ_j coef(j, q) k(x, row_j) + intercept_q.
#include "kestrel/core/params.hpp"
#include "kestrel/kernels/kernel.hpp"

namespace kestrel {

struct KernelExpansion {
    KernelSpec kernel_spec;   // resolved
    Features rows;            // dense or sparse, as the training data
    Eigen::MatrixXd coef;     // rows.rows() x outputs
    Vector intercept;         // outputs

    // Rebuilds the evaluation objects after kernel_spec / rows change.
    void prepare();
    // n x outputs; parallel over fixed blocks of X's rows.
    Eigen::MatrixXd decision(const Features& X) const;
    // Keeps only the rows with a non-zero coefficient in some output.
    void drop_zero_rows();

    Json to_json() const;
    // Validates every shape against n_features and outputs; std::runtime_error on bad input.
    static KernelExpansion from_json(const Json& j, Index n_features, Index outputs);

    Kernel kernel;         // built by prepare()
    KernelRows row_cache;  // built by prepare()
};

}  // namespace kestrel
