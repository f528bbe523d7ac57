#pragma once
// Linear support vector machine (docs/models/linear_svm.md), LIBLINEAR's SVM solvers:
// L2-regularised hinge / squared hinge by dual coordinate descent (-s 3 / -s 1), squared
// hinge in the primal by trust-region Newton (-s 2), L1-regularised squared hinge by
// coordinate descent (-s 5), Crammer-Singer multiclass (-s 4, multiclass=crammer_singer)
// and Pegasos SGD. Binary otherwise; k > 2 classes go through one-vs-rest, as LIBLINEAR.
#include "kestrel/core/param_binding.hpp"
#include "kestrel/linear/liblinear_params.hpp"
#include "kestrel/linear/linear_model.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/core/search_space.hpp"

namespace kestrel {

struct LinearSvmParams : IterationParams, LiblinearBiasParams, ClassWeightParams {
    std::string loss, penalty, solver;
    RealOrWord C;    // a number, or "auto" (the C search)
    RealOrWord eps;  // a number, or "auto" (LIBLINEAR's default for the solver)
    long long epochs = 0;
    bool projection = true;
    bool crammer_singer = false;  // the registry's multiclass=crammer_singer
    bool hinge() const { return loss == "hinge"; }
};
const ParamBinding<LinearSvmParams>& linear_svm_params();

class LinearSvm : public LinearModel {
public:
    LinearSvm() : LinearModel(Rows::up_to_k) {}
    // The objective the solver reports for the last fit (LIBLINEAR's "Objective value"):
    // the dual ½αᵀ(Q+D)α − Σα for solver=dual and crammer_singer, the primal for
    // solver=primal and penalty=l1, the primal hinge objective for pegasos. Not saved.
    double objective() const { return objective_; }
    double dual_objective() const { return objective_; }

protected:
    void on_params(const Params& resolved) override;
    void do_fit(const Dataset& data, const Context& ctx) override;
    // penalty=l1 at one C: the solver's columns are the rows' own storage, rearranged.
    void do_fit_owned(Dataset&& data, const Context& ctx) override;
    void do_load_state(const Json& state) override;

private:
    void fit_binary(const Dataset& data, const Context& ctx);
    void fit_crammer_singer(const Dataset& data, const Context& ctx);
    // A binary fit's weights (d, then the bias weight) as the one row, checked finite.
    void keep_binary(const Vector& w, double objective, Index d);

    LinearSvmParams p_;
    double objective_ = 0;
};

ModelInfo linear_svm_model_info();
SearchSpace linear_svm_search_space();  // kestrel-auto and kestrel-gridsearch without -g

}  // namespace kestrel
