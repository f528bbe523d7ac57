#include "kestrel/common/coef_json.hpp"

#include <cmath>
#include <stdexcept>

#include "kestrel/core/error.hpp"

namespace kestrel {

Json vector_to_json(const Vector& v) {
    Json out = Json::array();
    for (Index i = 0; i < v.size(); ++i) out.push_back(v[i]);
    return out;
}

Json matrix_to_json(const Eigen::MatrixXd& m) {
    Json out = Json::array();
    for (Index r = 0; r < m.rows(); ++r) out.push_back(vector_to_json(m.row(r).transpose()));
    return out;
}

Vector vector_from_json(const Json& j, const std::string& what, Index expected) {
    if (!j.is_array()) throw ModelStateError(what + " must be an array of numbers");
    if (expected >= 0 && static_cast<Index>(j.size()) != expected)
        throw ModelStateError(what + " has " + std::to_string(j.size()) + " values, expected " +
                              std::to_string(expected));
    Vector v(static_cast<Index>(j.size()));
    for (std::size_t i = 0; i < j.size(); ++i) {
        if (!j[i].is_number()) throw ModelStateError(what + " must be an array of numbers");
        v[static_cast<Index>(i)] = j[i].get<double>();
        if (!std::isfinite(v[static_cast<Index>(i)])) throw ModelStateError(what + " holds a non-finite value");
    }
    return v;
}

Eigen::MatrixXd matrix_from_json(const Json& j, const std::string& what, Index rows, Index cols) {
    if (!j.is_array() || j.empty()) throw ModelStateError(what + " must be a non-empty array of rows");
    if (rows >= 0 && static_cast<Index>(j.size()) != rows)
        throw ModelStateError(what + " has " + std::to_string(j.size()) + " rows, expected " + std::to_string(rows));
    const Vector first = vector_from_json(j[0], what + " row 1", cols);
    Eigen::MatrixXd m(static_cast<Index>(j.size()), first.size());
    m.row(0) = first.transpose();
    for (std::size_t r = 1; r < j.size(); ++r)
        m.row(static_cast<Index>(r)) =
            vector_from_json(j[r], what + " row " + std::to_string(r + 1), first.size()).transpose();
    return m;
}

void require_finite(const Eigen::MatrixXd& coef, const Vector& intercept, const std::string& model) {
    if (!coef.allFinite() || !intercept.allFinite())
        throw Error(ExitCode::bad_input,
                    model +
                        ": the solver produced non-finite coefficients (NaN or infinity); the features "
                        "are probably too large or badly scaled: rescale them (e.g. a standard scaling step)");
}

Json coef_state_to_json(const Vector& coef, double intercept) {
    return Json{{"coef", vector_to_json(coef)}, {"intercept", intercept}};
}

void coef_state_from_json(const Json& state, const std::string& model, Index n_features, Vector& coef,
                          double& intercept) {
    if (!state.is_object() || !state.contains("coef") || !state.contains("intercept"))
        throw ModelStateError(model + " state needs \"coef\" and \"intercept\"");
    Vector c = vector_from_json(state.at("coef"), model + " coef", n_features > 0 ? n_features : -1);
    const Vector b = vector_from_json(Json::array({state.at("intercept")}), model + " intercept", 1);
    coef = std::move(c);
    intercept = b[0];
}

}  // namespace kestrel
