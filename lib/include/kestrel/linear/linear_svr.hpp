#pragma once
// Linear support vector regression (docs/models/linear_svr.md): L2-regularised
// epsilon-insensitive loss (L1, LIBLINEAR -s 13) or its square (L2, -s 12) by dual
// coordinate descent, or the squared loss in the primal by L-BFGS (-s 11's problem).
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

class LinearSvr : public Estimator {
public:
    const Vector& coef() const { return coef_; }
    double intercept() const { return intercept_; }
    // Primal objective ½‖ŵ‖² + Σ C_i ℓ_i at the fitted weights (last fit; not saved).
    double objective() const { return objective_; }
    // With C=auto: the cross-validated C path ("c_search" report, kestrel/linear/c_search.hpp).
    const Json& c_search() const { return c_search_; }
    std::vector<std::string> report_names() const override;

protected:
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;
    std::string do_report(const std::string& report_name, const ReportNames& names) const override;

private:
    Vector coef_;
    double intercept_ = 0;
    double objective_ = 0;
    Json c_search_;  // null unless C=auto
};

ModelInfo linear_svr_model_info();

}  // namespace kestrel
