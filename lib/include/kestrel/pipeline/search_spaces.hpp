#pragma once
// The declared search space of each registered model (kestrel-gridsearch without a grid,
// kestrel-auto): ModelInfo::search_space, which each family fills beside its parameters.
#include <string>

#include "kestrel/core/search_space.hpp"

namespace kestrel {

// Model `name`'s space; an undeclared one (SearchSpace::declared() false) for a model
// without one. UsageError listing valid names for an unknown model.
const SearchSpace& search_space(const std::string& name);

}  // namespace kestrel
