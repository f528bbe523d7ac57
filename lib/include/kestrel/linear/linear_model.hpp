#pragma once
// What every linear model is once fitted, whatever its loss and solver: weights w (one
// row per output: one for regression and binary classification, k for a multinomial or
// Crammer-Singer fit), intercepts b, scores X wᵀ + b, and the saved state
// {"coef", "intercept"}: a vector and a number for one output, a matrix (rows) and a
// vector for k (the layout kestrel's model files have always had). With C=auto it also
// keeps the cross-validated C path (kestrel/linear/c_search.hpp) as the "c_search" report.
#include <string>
#include <vector>

#include "kestrel/core/estimator.hpp"

namespace kestrel {

class LinearModel : public Estimator {
public:
    // Binary: the positive class's (classes[1]) row; regression: the one row.
    const Eigen::MatrixXd& coef_matrix() const { return coef_; }
    Vector coef() const { return coef_.row(0).transpose(); }
    double intercept() const { return intercept_[0]; }
    const Vector& intercepts() const { return intercept_; }
    Eigen::MatrixXd linear_weights() const override { return coef_; }
    // One row of weights and its intercept, at the least.
    std::uint64_t fitted_bytes_lower_bound(Index, Index cols) const override {
        return kFittedEstimatorBytes + static_cast<std::uint64_t>(cols + 1) * sizeof(double);
    }
    // With C=auto: the cross-validated C path (the "c_search" report, which the model's
    // ModelInfo::reports declares: c_search_reports); null otherwise.
    const Json& c_search() const { return c_search_; }

protected:
    // A model that may have k rows (logistic, linear_svm) scores by the matrix product
    // even for one row, and logistic saves the matrix layout even then: each model keeps
    // the arithmetic and the file layout it always had, so old files predict bit-identically.
    enum class Rows { one, up_to_k, up_to_k_saved_as_matrix };
    explicit LinearModel(Rows rows = Rows::one) : rows_(rows) {}

    // The fitted weights, refused (InternalError) if any is not finite.
    void keep(Eigen::MatrixXd coef, Vector intercept);
    void keep(const Vector& coef, double intercept);
    void keep_c_search(Json path) { c_search_ = std::move(path); }

    // The solver's starting point for a fit that continues Context::init_model (a fitted
    // model of the same kind, checked by Estimator::fit): its weights, one row after the
    // other, then the intercepts divided by `intercept_scale` (the bias feature's value;
    // ≤ 0: no intercept entry). Empty without a model to continue. scikit-learn's
    // warm_start: a convex objective has one optimum, which the start only reaches sooner.
    Vector continued_solution(const Context& ctx, double intercept_scale) const;

    // X wᵀ + b, n x rows.
    Matrix scores(const Features& X) const;
    // Regression: the one score; classification: sign / argmax of the scores.
    Vector do_predict(const Features& X) const override;
    Matrix do_decision_function(const Features& X) const override { return scores(X); }
    std::string do_report(const std::string& report_name, const ReportNames& names) const override;

    // The weights' state (and c_search when there is one); a model adds its own fields.
    Json do_save_state() const override;
    // Reads the weights back, checked against the fitted shape: `rows` is the number of
    // weight rows the state must have (1 unless a k-row fit).
    void load_weights(const Json& state, Index rows = 1);
    void do_load_state(const Json& state) override { load_weights(state); }

private:
    Rows rows_;
    Eigen::MatrixXd coef_;  // rows x d
    Vector intercept_;      // one per row
    Json c_search_;         // null unless C=auto
};

}  // namespace kestrel
