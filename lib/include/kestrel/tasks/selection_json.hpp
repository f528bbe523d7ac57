#pragma once
// A feature selection's result as JSON, as kestrel-select --json writes it (the features
// by name: the data's, or "x1", "x2", ... where it has none, selection_feature_names).
#include <cstdint>
#include <string>
#include <vector>

#include "kestrel/model_selection/feature_selection.hpp"

namespace kestrel {

// The names of `features` (0-based columns) among `names`, as a JSON array.
Json feature_names_json(const std::vector<Index>& features, const std::vector<std::string>& names);

// {"method" (forward or backward), "model", "metric", "rows", "features", "k", "seed", "stop"
// (why it stopped, naming options by the library's names), "trajectory": [{"change" ("+x3",
// "-x1", "" for the start), "features", "score", "error"}], "selected"}.
Json sequential_selection_json(const SelectionResult& r, const std::string& model, const Dataset& data,
                               const SelectionOptions& opts, std::uint64_t seed);

// {"method": "l1", "model", "metric", "rows", "features", "k", "seed", "strength" (lambda or
// C), "path": [{STRENGTH, "nonzero", "score", "error"}], "chosen", "entry_order", "selected"}.
Json l1_selection_json(const L1SelectionResult& r, const Dataset& data, const SelectionOptions& opts,
                       std::uint64_t seed);

}  // namespace kestrel
