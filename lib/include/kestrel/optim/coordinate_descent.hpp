#pragma once
// The elastic-net path by cyclic coordinate descent (Friedman, Hastie, Tibshirani,
// "Regularization paths for generalized linear models via coordinate descent", 2010):
// the solver behind `lasso` and `elastic_net` (docs/models/lasso.md, elastic_net.md).
//
// At each λ it minimises glmnet's objective
//   (1/(2S)) Σ_i s_i (y_i − b − x_iᵀβ)²  +  λ ( α‖β‖₁ + (1−α)/2 ‖β‖² ),   S = Σ_i s_i,
// warm-started from the previous λ of a geometric path that starts at λ_max (the
// smallest λ whose solution is all zero). Two update schemes, as glmnet's type.gaussian:
// naive (a residual vector is kept and each coordinate costs one pass over its column's
// non-zeros; the intercept's centring is carried implicitly, so sparse columns stay
// sparse) and covariance (the d x d weighted centred Gram is formed once, and each
// coordinate costs O(d) whatever n is; dense data, no copy of X).
#include <optional>
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

enum class ElasticNetUpdates { automatic, naive, covariance };

struct ElasticNetSettings {
    double l1_ratio = 1.0;                   // α in [0, 1]; 1 = lasso
    std::optional<double> lambda;            // the final λ; none = the path's last value
    int n_lambda = 100;                      // path length from λ_max down
    std::optional<double> lambda_min_ratio;  // λ_min / λ_max; none = 1e-4 if n > d, else 1e-2
    double tol = 1e-7;                       // max_j v_j Δβ_j² <= tol · (weighted variance of y)
    int max_iter = 100000;                   // coordinate sweeps over the whole path
    bool fit_intercept = true;
    bool standardize = false;  // penalise β_j · sd_j (glmnet's default TRUE)
    // automatic: covariance for dense data with n > d and d <= 500 (glmnet's rule), else naive;
    // covariance when asked for, dense or sparse (the sparse Gram from the non-zeros)
    ElasticNetUpdates updates = ElasticNetUpdates::automatic;
};


struct ElasticNetPath {
    Vector lambdas;        // decreasing; the last one is the final model's λ
    Eigen::MatrixXd coef;  // lambdas.size() x d, on the features' own scale
    Vector intercepts;     // one per λ
    double lambda_max = 0;
    int sweeps = 0;         // coordinate sweeps used in all
    bool converged = true;  // false when max_iter ran out (the remaining λ are at their warm start)
};

// The whole path; `threads` form the Gram of the covariance updates (the result does
// not depend on them). `rows_sharded` (kestrel-train --shard): `data` is this rank's part
// of rows spread over the ranks; the covariance updates then run on the Gram, X̃ᵀSy and
// Σs yc² summed over the ranks, every rank the same sweeps (naive updates: InternalError).
// Throws DataError for zero total weight.
ElasticNetPath elastic_net_path(const Dataset& data, const ElasticNetSettings& settings, int threads = 1,
                                bool rows_sharded = false);

// The path as CSV text: a header `lambda,intercept,<feature names>` (x1..xd without
// names), then one row per λ, numbers in shortest round-trip form.
std::string path_to_csv(const ElasticNetPath& path, const std::vector<std::string>& feature_names);

}  // namespace kestrel
