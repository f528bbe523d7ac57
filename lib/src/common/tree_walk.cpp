#include "kestrel/common/tree_walk.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kestrel/core/error.hpp"

namespace kestrel {

namespace {
constexpr int kShallowDepth = 8;
}  // namespace

TreeWalk::TreeWalk(const std::vector<Tree>& trees) {
    std::size_t nodes = 0;
    for (const Tree& tree : trees) nodes += static_cast<std::size_t>(tree.size());
    if (nodes >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        throw InternalError("tree walk: more than 2^31 nodes");
    index_.assign(nodes, -1);
    std::vector<int> level;  // per node, its depth
    std::size_t first = 0;
    for (const Tree& tree : trees) {
        const std::int32_t base = size();
        first_.push_back(first);
        begin_.push_back(base);
        std::int32_t* index = index_.data() + first;
        first += static_cast<std::size_t>(tree.size());
        // The root first, then each split's children given the next two indices, the
        // splits taken in the tree's own order: the nodes are read front to back (a
        // breadth-first order read them at random, which cost more than the walk).
        index[0] = base;
        std::int32_t next = base + 1;
        level.assign(static_cast<std::size_t>(tree.size()), 0);
        int depth = 0;
        bool parents_first = true;
        for (int i = 0; i < tree.size(); ++i) {
            const TreeNode& n = tree.node(i);
            if (n.is_leaf()) continue;
            index[n.left] = next++;
            index[n.right] = next++;
            parents_first = parents_first && n.left > i && n.right > i;
            const int d = level[static_cast<std::size_t>(i)] + 1;
            level[static_cast<std::size_t>(n.left)] = level[static_cast<std::size_t>(n.right)] = d;
            depth = std::max(depth, d);
        }
        depth_.push_back(tree.has_categories() ? -1 : parents_first ? depth : tree.depth());
        const std::size_t count = static_cast<std::size_t>(next - base);
        key_.resize(key_.size() + count, 1);
        threshold_.resize(threshold_.size() + count, std::numeric_limits<double>::infinity());
        left_.resize(left_.size() + count);
        node_.resize(node_.size() + count);
        for (int i = 0; i < tree.size(); ++i) {
            const std::int32_t w = index[i];
            if (w < 0) continue;  // no split leads to it
            const auto u = static_cast<std::size_t>(w);
            const TreeNode& n = tree.node(i);
            node_[u] = i;
            if (n.is_leaf()) {
                left_[u] = w;  // key 1 and threshold +inf: every row stays
                continue;
            }
            if (n.feature >= (1 << 30)) throw InternalError("tree walk: a feature index past 2^30");
            key_[u] = 2 * n.feature + (n.missing_left ? 1 : 0);
            threshold_[u] = n.threshold;
            left_[u] = index[n.left];
        }
    }
    begin_.push_back(size());
}

void TreeWalk::leaves(std::size_t t, const double* x, Index stride, Index n, std::int32_t* at, Index group) const {
    const std::int32_t root = begin_[t];
    std::fill(at, at + n, root);
    if (depth_[t] == 0) return;  // a lone leaf (and a table of no features has no x to read)
    const std::int32_t* key = key_.data();
    const std::int32_t* left = left_.data();
    const double* threshold = threshold_.data();
    // The way taken as an index, not a branch: a split's two ways are equally likely,
    // which a branch predictor cannot learn.
    const auto step = [&](Index r) {
        const std::int32_t w = at[r], k = key[w];
        const double v = x[r * stride + (k >> 1)];
        const std::int32_t goes_left =
            static_cast<std::int32_t>(v <= threshold[w]) | (k & static_cast<std::int32_t>(std::isnan(v)));
        return left[w] + 1 - goes_left;
    };
    // Shallow trees (boosting's) are walked to their depth: most rows go that deep, and
    // watching for a group that stopped early costs more than the levels it saves.
    if (depth_[t] <= kShallowDepth) {
        for (int level = 0; level < depth_[t]; ++level)
            for (Index r = 0; r < n; ++r) at[r] = step(r);
        return;
    }
    for (Index g = 0; g < n; g += group) {
        const Index end = std::min(n, g + group);
        bool moved = true;
        for (int level = 0; level < depth_[t] && moved; ++level) {
            moved = false;
            for (Index r = g; r < end; ++r) {
                const std::int32_t next = step(r);
                moved |= next != at[r];
                at[r] = next;
            }
        }
    }
}

}  // namespace kestrel
