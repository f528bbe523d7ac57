#include "tree_sample.hpp"

#include "kestrel/core/error.hpp"

namespace kestrel {

void TreeSample::gather(std::span<const double> row_weights, const Vector& y, Index n_classes) {
    const Index n = y.size();
    if (static_cast<Index>(row_weights.size()) != n) throw InternalError("tree builder: one weight per row expected");
    local_of.assign(static_cast<std::size_t>(n), -1);
    global_of.clear();
    klass.clear();
    target.clear();
    weight.clear();
    for (Index i = 0; i < n; ++i) {
        if (!(row_weights[i] > 0)) continue;
        local_of[static_cast<std::size_t>(i)] = static_cast<int>(weight.size());
        global_of.push_back(static_cast<int>(i));
        weight.push_back(row_weights[i]);
        if (n_classes > 0)
            klass.push_back(static_cast<int>(y[i]));
        else
            target.push_back(y[i]);
    }
}

}  // namespace kestrel
