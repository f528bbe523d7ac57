#pragma once
// C-SVC (docs/models/svc.md), LIBSVM's -s 0: for each pair of classes (s, t),
//     min_α ½ αᵀQα - eᵀα,  yᵀα = 0,  0 <= α_i <= C_i,  Q_ij = y_i y_j K(x_i, x_j),
// with y = +1 for class s and -1 for class t, C_i = C · class_weight · sample weight.
// Multiclass is LIBSVM's one-vs-one with voting inside the model, so the learned state
// has LIBSVM's layout: support vectors shared across pairs, per-class counts, k-1 rows
// of dual coefficients and one rho per pair.
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/core/search_space.hpp"
#include "kestrel/svm/platt.hpp"
#include "kestrel/svm/svm_model.hpp"

namespace kestrel {

// One binary C-SVC problem on the given rows: y = ±1, per-sample upper bounds C_i.
struct BinarySvcSolution {
    Vector coef;  // y_i α_i, one per row
    double rho = 0;
    SmoResult smo;
};
// squared_hinge: the L2-SVM dual, Q + diag(1/C_i) with no upper bound (C_i = upper).
BinarySvcSolution solve_binary_svc(const KernelRows& rows, const Kernel& kernel, const std::vector<std::int8_t>& y,
                                   const Vector& upper, const SvmSolverSettings& settings, const Context& ctx,
                                   bool squared_hinge = false);

class Svc : public Estimator {
public:
    const SvmModel& model() const { return model_; }
    // Replaces the learned state (a LIBSVM model file read by io/libsvm_model).
    void set_model(SvmModel m) { model_ = std::move(m); }
    // LIBSVM's decision values: n x k(k-1)/2, positive favours the first class of the pair.
    Eigen::MatrixXd pairwise_decision(const Features& X) const;

protected:
    void on_params(const Params& resolved) override;
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    // Binary: n x 1, positive = classes[1] (LIBSVM's value negated). Multiclass: n x k,
    // votes plus a bounded confidence term (scikit-learn's ovr-shaped function).
    Matrix do_decision_function(const Features& X) const override;
    // Platt's sigmoid per pair, pairwise coupling for k > 2 (LIBSVM's -b 1).
    Matrix do_predict_proba(const Features& X) const override;
    Json do_save_state() const override;
    Json do_save_state_for_file(JsonTextSlots& slots) const override { return model_.to_json(slots); }
    void do_load_state(const Json& state) override;

    // The upper bound C_i of each training row (C · class weight · sample weight).
    virtual Vector sample_upper_bounds(const Dataset& data) const;
    // One pair's binary problem: signed coefficients y_i α_i and rho.
    virtual BinarySvcSolution solve_pair(const KernelRows& rows, const Kernel& kernel,
                                         const std::vector<std::int8_t>& y, const Vector& upper,
                                         const SvmSolverSettings& settings, const Context& ctx) const;
    // probability=1: Platt's sigmoid for one pair, fitted on decision values from an
    // internal 5-fold cross-validation of the pair's problem (LIBSVM's
    // svm_binary_svc_probability); the folds are shuffled from `seed`.
    SigmoidFit pair_sigmoid(const Features& X, const std::vector<Index>& rows, const std::vector<std::int8_t>& y,
                            const Vector& upper, const Kernel& kernel, const SvmSolverSettings& settings,
                            const Context& ctx, std::uint64_t seed) const;

    SvmParams p_;

private:
    SvmModel model_;
};

// svc's and nu_svc's capabilities: probability=true adds Platt-scaled probabilities (LIBSVM -b 1).
Capabilities with_platt_probabilities(const Capabilities& declared, const Params& resolved);
const ParamBinding<SvmParams>& svc_params();
ModelInfo svc_model_info();
SearchSpace svc_search_space();  // kestrel-auto and kestrel-gridsearch without -g

// nu-SVC (LIBSVM -s 1): per pair, min ½αᵀQα subject to yᵀα = 0, eᵀα = nu·l, 0 <= α_i <= 1,
// rescaled by the solver's r so that the decision function has margin 1, as LIBSVM.
// One-vs-one exactly as svc; nu must be feasible for every pair.
class NuSvc final : public Svc {
public:
protected:
    void on_params(const Params& resolved) override;
    Vector sample_upper_bounds(const Dataset& data) const override;
    BinarySvcSolution solve_pair(const KernelRows& rows, const Kernel& kernel, const std::vector<std::int8_t>& y,
                                 const Vector& upper, const SvmSolverSettings& settings,
                                 const Context& ctx) const override;
};

const ParamBinding<SvmParams>& nu_svc_params();
ModelInfo nu_svc_model_info();

}  // namespace kestrel
