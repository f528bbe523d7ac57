#pragma once
// The learned state every kernel SVM shares, in LIBSVM's layout: support vectors
// grouped by class, dual coefficients (k-1 rows for k classes, one row for the
// one-class and regression models), one rho per decision function, and the
// resolved kernel. Also the parameters and pieces of fitting shared by the models.
#include <cstdint>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/json_text.hpp"
#include "kestrel/core/params.hpp"
#include "kestrel/core/search_space.hpp"
#include "kestrel/kernels/kernel.hpp"
#include "kestrel/kernels/kernel_params.hpp"
#include "kestrel/svm/smo_solver.hpp"

namespace kestrel {

struct SvmModel {
    KernelSpec kernel_spec;        // resolved
    Features support_vectors;      // nSV rows, dense or sparse as the training data
    std::vector<Index> support;    // training row of each support vector
    Eigen::MatrixXd sv_coef;       // (k-1) x nSV (classification), 1 x nSV otherwise
    Vector rho;                    // one per pair (classification) or a single value
    std::vector<Index> n_sv;       // per class (classification); empty otherwise
    // probability=1: Platt's sigmoid per pair (classification, LIBSVM's probA/probB),
    // or the Laplace scale of the residuals in prob_a[0] (epsilon/nu-SVR). Empty otherwise.
    Vector prob_a, prob_b;

    bool has_probability() const { return prob_a.size() > 0; }
    // n x k class probabilities from pairwise decision values (k classes, LIBSVM's
    // pair order): Platt's sigmoid per pair, clipped to [1e-7, 1 - 1e-7], coupled.
    Eigen::MatrixXd probabilities(const Eigen::MatrixXd& pairwise, Index k) const;

    // Rebuilds the evaluation objects after support_vectors / kernel_spec change.
    void prepare();
    // K(X[lo:hi], SV) into K, resized to (hi-lo) x nSV (its storage is reused when
    // the size is unchanged).
    void kernel_to_sv(const Features& X, Index lo, Index hi, DenseMatrix& K) const;

    // One-vs-one decision values, n x k(k-1)/2 in LIBSVM's pair order (0,1), (0,2),
    // ..., (1,2), ...; positive favours the first class of the pair.
    Eigen::MatrixXd pairwise_decision(const Features& X) const;
    // Σ_j sv_coef(0, j) K(x, sv_j) - rho[0] (regression, one-class).
    Vector single_decision(const Features& X) const;

    Json to_json() const;
    Json to_json(JsonTextSlots& slots) const;  // the support vectors as text slots
    // Validates shapes against `n_features` and `k` (0 for a single decision).
    static SvmModel from_json(const Json& j, Index n_features, Index k);

    Kernel kernel;                 // built by prepare()
    KernelRows sv_rows;            // built by prepare()

private:
    Json to_json(JsonTextSlots* slots) const;
    // fn(lo, hi, K(X[lo:hi], SV)) over blocks of rows, in parallel.
    template <class Fn>
    void for_row_blocks(const Features& X, Fn&& fn) const;
};

// Solver settings read from the common SVM parameters (eps, shrinking, max_iter,
// cache_mb) and the thread budget of the context.
struct SvmSolverSettings {
    SmoOptions smo;
    double cache_mb = 200;
    int threads = 1;
};
// The parameters of the kernel SVMs: each model binds its own (C, nu, epsilon,
// class_weight, loss, probability) and the common ones (the kernel group, eps, cache_mb,
// shrinking, max_iter); a field a model does not declare keeps LIBSVM's default.
struct SvmParams : KernelParams {
    double C = 1;
    double nu = 0.5;
    double epsilon = 0.1;
    std::string class_weight;
    std::string loss = "hinge";
    bool probability = false;
    bool scale_target = false;  // svr: fit on the standardized target (C and epsilon in its sd's units)
    double eps = 1e-3;
    double cache_mb = 200;
    bool shrinking = true;
    long long max_iter = 0;
};
// A model's binding: its own parameters, then the common ones.
ParamBinding<SvmParams> svm_binding(std::vector<Bound<SvmParams>> own);
// `probability` (svc, nu_svc, svr, nu_svr): fit the probability model at training time.
Bound<SvmParams> probability_param();

// Where kestrel-auto searches a kernel SVM (svc, svr): LIBSVM grid.py's C and gamma ranges,
// then the model's `more_axes`, on at most 20000 rows.
SearchSpace kernel_svm_search_space(std::vector<std::string> more_axes);

SvmSolverSettings solver_settings(const SvmParams& p, const Context& ctx);

// Votes of the one-vs-one decision values: the class with the most votes, ties to
// the lowest class index (LIBSVM's rule in its label order).
Vector ovo_vote(const Eigen::MatrixXd& pairwise, Index k);

}  // namespace kestrel
