#pragma once
// A model refit on the features a selection kept (kestrel-select --save-model), so that it
// reads the same files as the model on every feature.
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

// The data's feature names, or "x1", "x2", ... (LIBSVM's 1-based indices) where it has none.
std::vector<std::string> selection_feature_names(const Dataset& data);

// `spec` with a first step that keeps the columns `selected` (0-based), fitted on every row
// of `data`, its provenance stamped (stamp_provenance: data.source, ctx.seed) with the
// names of the selected features ("selected_features").
Model refit_on_selected(const ModelSpec& spec, const Dataset& data, const std::vector<Index>& selected,
                        const Context& ctx);

}  // namespace kestrel
