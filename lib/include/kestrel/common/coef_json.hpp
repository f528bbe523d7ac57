#pragma once
// JSON for learned coefficients, shared by every family that saves weight vectors or
// matrices (linear models, kernel expansions, forests, gbdt), so that they all save
// them the same way: numbers as JSON numbers (nlohmann writes the shortest text that
// reads back to the same double), never NaN.
#include <string>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

Json vector_to_json(const Vector& v);
Json matrix_to_json(const Eigen::MatrixXd& m);  // array of rows

// Read back with validation; std::runtime_error naming `what` on a wrong type,
// a non-finite value or a wrong size (expected < 0: any size).
Vector vector_from_json(const Json& j, const std::string& what, Index expected = -1);
Eigen::MatrixXd matrix_from_json(const Json& j, const std::string& what, Index rows = -1, Index cols = -1);

// The {"coef": [...], "intercept": x} state of a single-output linear model.
Json coef_state_to_json(const Vector& coef, double intercept);
// Reads it back, checking the width against n_features (when positive); `model` names it in errors.
void coef_state_from_json(const Json& state, const std::string& model, Index n_features, Vector& coef,
                          double& intercept);

// Throws a kestrel::Error (exit code internal) when a solver produced non-finite
// coefficients, so that such a model is never saved.
void require_finite(const Eigen::MatrixXd& coef, const Vector& intercept, const std::string& model);

}  // namespace kestrel
