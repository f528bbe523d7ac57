#include "kestrel/tasks/search_axes.hpp"

#include <algorithm>

#include "kestrel/model_selection/auto_search.hpp"

namespace kestrel {

std::vector<GridAxis> default_search_axes(const ModelSpec& spec) {
    const bool scaled = std::any_of(spec.preprocessing.begin(), spec.preprocessing.end(),
                                    [](const std::string& s) { return s == "standard" || s == "minmax"; });
    std::vector<GridAxis> axes;
    for (auto& axis : declared_axes(spec.model)) {
        if (spec.params.contains(axis.name)) continue;
        if (axis.name == "scale" && scaled) continue;
        axes.push_back(std::move(axis));
    }
    return axes;
}

}  // namespace kestrel
