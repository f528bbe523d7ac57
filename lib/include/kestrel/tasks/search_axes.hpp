#pragma once
// The axes a search without a grid of its own runs on (kestrel-gridsearch without -g).
#include <vector>

#include "kestrel/model_selection/grid.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

// The model's declared search space (declared_axes) without what the spec already fixes:
// a parameter it gives, and the scale axis when it scales (a "standard" or "minmax" step).
// UsageError naming the model when it declares no space.
std::vector<GridAxis> default_search_axes(const ModelSpec& spec);

}  // namespace kestrel
