#pragma once
// What each leaf adds to a forest's prediction, worked out once when the trees are
// fitted or loaded instead of once per row and tree: a classification leaf's class
// probabilities v[c] / total (the same double whenever it is computed), a regression
// leaf's value; indexed by the leaf's walk index (common/tree_walk.hpp). The entries
// that are ±0 are left out: adding ±0 to a sum that started at +0 never changes it (such
// a sum is never -0), and a pure leaf then adds one number instead of k.
#include <cstdint>
#include <vector>

#include "kestrel/common/tree.hpp"
#include "kestrel/common/tree_walk.hpp"

namespace kestrel {

class LeafOutputs {
public:
    LeafOutputs() = default;
    LeafOutputs(const std::vector<Tree>& trees, const TreeWalk& walk);
    // out[c] += leaf w's output c, for each c: add_tree_output_at_leaf's sums, bit for bit.
    void add(std::int32_t w, double* out) const {
        const auto e = static_cast<std::size_t>(w);
        for (std::int32_t i = begin_[e]; i < end_[e]; ++i)
            out[column_[static_cast<std::size_t>(i)]] += value_[static_cast<std::size_t>(i)];
    }

private:
    // Per walk index, its entries [begin, end): written in the trees' node order, which
    // reads the nodes and their values front to back.
    std::vector<std::int32_t> begin_, end_;
    std::vector<std::int32_t> column_;
    std::vector<double> value_;
};

}  // namespace kestrel
