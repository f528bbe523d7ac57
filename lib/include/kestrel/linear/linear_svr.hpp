#pragma once
// Linear support vector regression (docs/models/linear_svr.md): L2-regularised
// epsilon-insensitive loss (L1, LIBLINEAR -s 13) or its square (L2, -s 12) by dual
// coordinate descent, or the squared loss in the primal by L-BFGS (-s 11's problem).
#include "kestrel/linear/liblinear_params.hpp"
#include "kestrel/linear/linear_model.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

struct LinearSvrParams : IterationParams, LiblinearBiasParams {
    std::string loss;
    bool dual = true;
    RealOrWord C;    // a number, or "auto" (the C search)
    double epsilon = 0;
    RealOrWord eps;  // a number, or "auto" (LIBLINEAR's default for the solver)
    bool l1() const { return loss == "epsilon_insensitive"; }
};
const ParamBinding<LinearSvrParams>& linear_svr_params();

class LinearSvr : public LinearModel {
public:
    // Primal objective ½‖ŵ‖² + Σ C_i ℓ_i at the fitted weights (last fit; not saved).
    double objective() const { return objective_; }

protected:
    void on_params(const Params& resolved) override;
    void do_fit(const Dataset& data, const Context& ctx) override;

private:
    LinearSvrParams p_;
    double objective_ = 0;
};

ModelInfo linear_svr_model_info();

}  // namespace kestrel
