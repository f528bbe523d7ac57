// A model's search space is part of its ModelInfo (each family declares it beside the
// model's parameters); this answers by name through the registry.
#include "kestrel/pipeline/search_spaces.hpp"

#include "kestrel/pipeline/registry.hpp"

namespace kestrel {

const SearchSpace& search_space(const std::string& name) {
    return registry().info(name).search_space;  // an unknown name is a UsageError listing the models
}

}  // namespace kestrel
