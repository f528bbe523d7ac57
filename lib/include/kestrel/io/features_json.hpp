#pragma once
// Feature rows kept inside a model's learned state (support vectors, landmarks),
// as JSON: {"format": "dense", "rows": [[...], ...]} or
// {"format": "sparse", "indices": [[...], ...], "values": [[...], ...]}.
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/json_text.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

Json features_to_json(const Features& X);
// The same value for a model file: the rows are text slots written straight from the
// matrix by model_json_text (the same bytes, without a DOM of every number). A matrix
// holding a NaN or an infinity gets the DOM, whose check refuses it.
Json features_to_json(const Features& X, JsonTextSlots& slots);
// Validates lengths and indices against `n_features`; std::runtime_error on bad input.
Features features_from_json(const Json& j, Index n_features);

}  // namespace kestrel
