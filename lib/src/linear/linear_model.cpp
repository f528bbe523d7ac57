#include "kestrel/linear/linear_model.hpp"

#include <stdexcept>

#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/context.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel {

void LinearModel::keep(Eigen::MatrixXd coef, Vector intercept) {
    require_finite(coef, intercept, name());
    coef_ = std::move(coef);
    intercept_ = std::move(intercept);
}

void LinearModel::keep(const Vector& coef, double intercept) {
    keep(Eigen::MatrixXd(coef.transpose()), Vector::Constant(1, intercept));
}

std::string LinearModel::do_report(const std::string& report_name, const ReportNames& names) const {
    if (report_name == "c_search") return c_search_.dump();
    return Estimator::do_report(report_name, names);
}

Vector LinearModel::continued_solution(const Context& ctx, double intercept_scale) const {
    const auto* old = dynamic_cast<const LinearModel*>(ctx.init_model);
    if (old == nullptr) return {};
    const Eigen::MatrixXd& W = old->coef_;
    const Index rows = W.rows(), d = W.cols();
    const bool intercept = intercept_scale > 0;
    Vector w((d + (intercept ? 1 : 0)) * rows);
    for (Index r = 0; r < rows; ++r) w.segment(r * d, d) = W.row(r).transpose();
    if (intercept) w.tail(rows) = old->intercept_ / intercept_scale;
    return w;
}

Matrix LinearModel::scores(const Features& X) const {
    if (rows_ == Rows::one) {
        Matrix out = X.multiply(Vector(coef_.row(0).transpose()));
        out.array() += intercept_[0];
        return out;
    }
    Matrix out = X.multiply(Eigen::MatrixXd(coef_.transpose()));
    out.rowwise() += intercept_.transpose();
    return out;
}

Vector LinearModel::do_predict(const Features& X) const {
    if (task() == Task::regression) return scores(X).col(0);
    return scores_to_classes(scores(X));
}

Json LinearModel::do_save_state() const {
    Json state = coef_.rows() == 1 && rows_ != Rows::up_to_k_saved_as_matrix
                     ? coef_state_to_json(coef(), intercept())
                     : Json{{"coef", matrix_to_json(coef_)}, {"intercept", vector_to_json(intercept_)}};
    if (!c_search_.is_null()) state["c_search"] = c_search_;
    return state;
}

void LinearModel::load_weights(const Json& state, Index rows) {
    c_search_ = state.is_object() && state.contains("c_search") ? state.at("c_search") : Json();
    if (rows == 1 && rows_ != Rows::up_to_k_saved_as_matrix) {
        Vector c;
        double b = 0;
        coef_state_from_json(state, name(), n_features(), c, b);
        coef_ = c.transpose();
        intercept_ = Vector::Constant(1, b);
        return;
    }
    if (!state.is_object() || !state.contains("coef") || !state.contains("intercept"))
        throw ModelStateError(name() + " state needs \"coef\" and \"intercept\"");
    Eigen::MatrixXd coef =
        matrix_from_json(state.at("coef"), name() + " coef", rows, n_features() > 0 ? n_features() : -1);
    Vector intercept = vector_from_json(state.at("intercept"), name() + " intercept", coef.rows());
    coef_ = std::move(coef);
    intercept_ = std::move(intercept);
}

}  // namespace kestrel
