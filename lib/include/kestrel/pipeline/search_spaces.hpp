#pragma once
// The declared search space of each built-in model (kestrel-gridsearch without -g,
// kestrel-auto). Each family declares its spaces beside its ModelInfo; this is the one
// place that lists them, as builtin_models.cpp lists the models.
#include <string>

#include "kestrel/core/search_space.hpp"

namespace kestrel {

// Model `name`'s space; an undeclared one (SearchSpace::declared() false) for a model
// without one. UsageError listing valid names for an unknown model.
const SearchSpace& search_space(const std::string& name);

}  // namespace kestrel
