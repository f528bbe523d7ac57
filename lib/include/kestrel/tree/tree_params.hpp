#pragma once
// The growth parameters every tree model declares (tree, forest, and the trees of
// boosting), declared once here and read back into a TreeParams.
#include <string>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/params.hpp"
#include "kestrel/tree/tree_builder.hpp"

namespace kestrel {

// criterion, max_depth, min_samples_split, min_samples_leaf, max_features,
// max_leaf_nodes, min_impurity_decrease. `max_features_default` is "all" for a single
// tree and "auto" (sqrt for classification, 1/3 for regression) for a forest.
ParamSpec tree_growth_spec(const std::string& max_features_default);

// Reads resolved params for a fit on `task` with `n_features` columns; throws
// ParamError for a criterion that does not fit the task, max_features above the
// column count, or max_leaf_nodes = 1. `model` names the model in messages.
TreeParams tree_params_from(const Params& p, Task task, Index n_features, const std::string& model);

// max_features: "all" -> d, "sqrt" -> ⌊√d⌋, "log2" -> ⌊log₂ d⌋, "auto" -> sqrt for
// classification and ⌊d/3⌋ for regression, a value in (0, 1) -> ⌊value·d⌋, an integer
// >= 1 -> that count; never below 1.
Index resolve_max_features(const Json& value, Task task, Index n_features, const std::string& model);

}  // namespace kestrel
