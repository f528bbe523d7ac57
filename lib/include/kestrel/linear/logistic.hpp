#pragma once
// Logistic regression with LIBLINEAR's C (docs/models/logistic.md). penalty=l2: binary
// for two classes, native multinomial (softmax) for more, solved by trust-region Newton
// (solver=tron, LIBLINEAR -s 0's) or L-BFGS. penalty=l1:
// binary, coordinate descent (kestrel/optim/l1_logistic.hpp).
#include "kestrel/core/model_info.hpp"
#include "kestrel/core/param_binding.hpp"
#include "kestrel/core/search_space.hpp"
#include "kestrel/linear/linear_model.hpp"

namespace kestrel {

struct LogisticParams : IterationParams, InterceptParams, ClassWeightParams {
    RealOrWord C;  // a number, or "auto" (the C search)
    std::string penalty;
    std::string solver;
    bool l1() const { return penalty == "l1"; }
};
const ParamBinding<LogisticParams>& logistic_params();

// Coefficients: one row per class for k > 2, a single row (the positive class,
// classes[1]) for binary, saved as a matrix either way.
class LogisticRegression : public LinearModel {
public:
    LogisticRegression() : LinearModel(Rows::up_to_k_saved_as_matrix) {}
    const Eigen::MatrixXd& coef() const { return coef_matrix(); }
    const Vector& intercept() const { return intercepts(); }

protected:
    void on_params(const Params& resolved) override;
    void do_fit(const Dataset& data, const Context& ctx) override;
    // penalty=l1 at one C: the solver's columns are the rows' own storage, rearranged.
    void do_fit_owned(Dataset&& data, const Context& ctx) override;
    Matrix do_predict_proba(const Features& X) const override;
    void do_load_state(const Json& state) override;

private:
    LogisticParams p_;
};

ModelInfo logistic_model_info();
SearchSpace logistic_search_space();  // kestrel-auto and kestrel-gridsearch without -g

}  // namespace kestrel
