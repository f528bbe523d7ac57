#pragma once
// The elastic-net path by cyclic coordinate descent (Friedman, Hastie, Tibshirani,
// "Regularization paths for generalized linear models via coordinate descent", 2010):
// the solver behind `lasso` and `elastic_net` (docs/models/lasso.md, elastic_net.md).
//
// At each λ it minimises glmnet's objective
//   (1/(2S)) Σ_i s_i (y_i − b − x_iᵀβ)²  +  λ ( α‖β‖₁ + (1−α)/2 ‖β‖² ),   S = Σ_i s_i,
// warm-started from the previous λ of a geometric path that starts at λ_max (the
// smallest λ whose solution is all zero). Naive updates: a residual vector is kept and
// each coordinate costs one pass over its column's non-zeros; the intercept's centring
// is carried implicitly, so sparse columns stay sparse.
#include <optional>
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

struct ElasticNetSettings {
    double l1_ratio = 1.0;                    // α in [0, 1]; 1 = lasso
    std::optional<double> lambda;             // the final λ; none = the path's last value
    int n_lambda = 100;                       // path length from λ_max down
    std::optional<double> lambda_min_ratio;   // λ_min / λ_max; none = 1e-4 if n > d, else 1e-2
    double tol = 1e-7;                        // max_j v_j Δβ_j² <= tol · (weighted variance of y)
    int max_iter = 100000;                    // coordinate sweeps over the whole path
    bool fit_intercept = true;
    bool standardize = false;                 // penalise β_j · sd_j (glmnet's default TRUE)
};

// Reads the settings out of resolved `lasso` / `elastic_net` parameters (lasso has no
// l1_ratio: it is 1).
ElasticNetSettings elastic_net_settings(const Params& resolved);

struct ElasticNetPath {
    Vector lambdas;          // decreasing; the last one is the final model's λ
    Eigen::MatrixXd coef;    // lambdas.size() x d, on the features' own scale
    Vector intercepts;       // one per λ
    double lambda_max = 0;
    int sweeps = 0;          // coordinate sweeps used in all
    bool converged = true;   // false when max_iter ran out (the remaining λ are at their warm start)
};

// The whole path. Throws DataError for zero total weight.
ElasticNetPath elastic_net_path(const Dataset& data, const ElasticNetSettings& settings);

// The path as CSV text: a header `lambda,intercept,<feature names>` (x1..xd without
// names), then one row per λ, numbers in shortest round-trip form.
std::string path_to_csv(const ElasticNetPath& path, const std::vector<std::string>& feature_names);

}  // namespace kestrel
