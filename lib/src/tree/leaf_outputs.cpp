#include "kestrel/tree/leaf_outputs.hpp"

#include <cmath>
#include <limits>

#include "kestrel/core/error.hpp"

namespace kestrel {

LeafOutputs::LeafOutputs(const std::vector<Tree>& trees, const TreeWalk& walk) {
    begin_.assign(static_cast<std::size_t>(walk.size()), 0);
    end_.assign(static_cast<std::size_t>(walk.size()), 0);
    for (std::size_t t = 0; t < trees.size(); ++t) {
        const Tree& tree = trees[t];
        const Index k = tree.n_outputs();
        for (int i = 0; i < tree.size(); ++i) {
            const TreeNode& n = tree.node(i);
            const std::int32_t w = walk.index(t, i);
            if (!n.is_leaf() || w < 0) continue;
            begin_[static_cast<std::size_t>(w)] = static_cast<std::int32_t>(value_.size());
            // add_tree_output_at_leaf's terms: the value, or each class count over the leaf's
            // weight. A zero count over a weight that is neither 0 nor NaN is ±0, left out
            // without the division.
            const double* v = tree.value(i);
            const double total = n.weight;
            const bool divides = total != 0 && !std::isnan(total);
            for (Index c = 0; c < k; ++c) {
                if (k > 1 && v[c] == 0 && divides) continue;
                const double term = k == 1 ? v[0] : v[c] / total;
                if (term == 0) continue;
                column_.push_back(static_cast<std::int32_t>(c));
                value_.push_back(term);
            }
            if (value_.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
                throw InternalError("leaf outputs: more than 2^31 entries");
            end_[static_cast<std::size_t>(w)] = static_cast<std::int32_t>(value_.size());
        }
    }
}

}  // namespace kestrel
