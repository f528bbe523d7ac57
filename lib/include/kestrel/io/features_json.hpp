#pragma once
// Feature rows kept inside a model's learned state (support vectors, landmarks),
// as JSON: {"format": "dense", "rows": [[...], ...]} or
// {"format": "sparse", "indices": [[...], ...], "values": [[...], ...]}.
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

Json features_to_json(const Features& X);
// Validates lengths and indices against `n_features`; std::runtime_error on bad input.
Features features_from_json(const Json& j, Index n_features);

}  // namespace kestrel
