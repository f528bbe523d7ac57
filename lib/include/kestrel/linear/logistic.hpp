#pragma once
// Logistic regression with LIBLINEAR's C (docs/models/logistic.md). penalty=l2: binary
// for two classes, native multinomial (softmax) for more, solved by trust-region Newton
// (solver=tron, LIBLINEAR -s 0's) or L-BFGS. penalty=l1:
// binary, coordinate descent (kestrel/optim/l1_logistic.hpp).
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

class LogisticRegression : public Estimator {
public:
    // Learned coefficients: one row per class for k > 2, a single row (the positive
    // class, classes[1]) for binary; intercepts to match.
    const Eigen::MatrixXd& coef() const { return coef_; }
    Eigen::MatrixXd linear_weights() const override { return coef_; }
    const Vector& intercept() const { return intercept_; }
    // With C=auto: the cross-validated C path ("c_search" report, kestrel/linear/c_search.hpp).
    const Json& c_search() const { return c_search_; }
    std::vector<std::string> report_names() const override;

protected:
    void do_fit(const Dataset& data, const Context& ctx) override;
    // penalty=l1 at one C: the solver's columns are the rows' own storage, rearranged.
    void do_fit_owned(Dataset&& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Matrix do_decision_function(const Features& X) const override;
    Matrix do_predict_proba(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;
    std::string do_report(const std::string& report_name, const ReportNames& names) const override;

private:
    void keep(Eigen::MatrixXd coef, Vector intercept);  // the fit's result, checked finite

    Eigen::MatrixXd coef_;  // rows x d, rows = 1 (binary) or k
    Vector intercept_;
    Json c_search_;  // null unless C=auto
};

ModelInfo logistic_model_info();

}  // namespace kestrel
