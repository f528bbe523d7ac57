#pragma once
// Linear support vector machine (docs/models/linear_svm.md), LIBLINEAR's SVM solvers:
// L2-regularised hinge / squared hinge by dual coordinate descent (-s 3 / -s 1), squared
// hinge in the primal by trust-region Newton (-s 2), L1-regularised squared hinge by
// coordinate descent (-s 5), Crammer-Singer multiclass (-s 4, multiclass=crammer_singer)
// and Pegasos SGD. Binary otherwise; k > 2 classes go through one-vs-rest, as LIBLINEAR.
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

class LinearSvm : public Estimator {
public:
    // Binary: one row (positive class classes[1]); crammer_singer with k > 2: k rows.
    const Eigen::MatrixXd& coef_matrix() const { return coef_; }
    Vector coef() const { return coef_.row(0).transpose(); }
    Eigen::MatrixXd linear_weights() const override { return coef_; }
    double intercept() const { return intercept_[0]; }
    const Vector& intercepts() const { return intercept_; }
    // The objective the solver reports for the last fit (LIBLINEAR's "Objective value"):
    // the dual ½αᵀ(Q+D)α − Σα for solver=dual and crammer_singer, the primal for
    // solver=primal and penalty=l1, the primal hinge objective for pegasos. Not saved.
    double objective() const { return objective_; }
    double dual_objective() const { return objective_; }
    // With C=auto: the cross-validated C path ("c_search" report, kestrel/linear/c_search.hpp).
    const Json& c_search() const { return c_search_; }
    std::vector<std::string> report_names() const override;

protected:
    void do_fit(const Dataset& data, const Context& ctx) override;
    // penalty=l1 at one C: the solver's columns are the rows' own storage, rearranged.
    void do_fit_owned(Dataset&& data, const Context& ctx) override;
    Matrix do_decision_function(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;
    std::string do_report(const std::string& report_name, const ReportNames& names) const override;

private:
    void fit_binary(const Dataset& data, const Context& ctx);
    void fit_crammer_singer(const Dataset& data, const Context& ctx);
    // A binary fit's weights (d, then the bias weight) as coef_ / intercept_, checked finite.
    void keep_binary(const Vector& w, double objective, Index d);

    Eigen::MatrixXd coef_;  // rows x d
    Vector intercept_;      // bias weight times intercept_scaling, per row
    double objective_ = 0;
    Json c_search_;  // null unless C=auto
};

ModelInfo linear_svm_model_info();

}  // namespace kestrel
