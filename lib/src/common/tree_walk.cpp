#include "kestrel/common/tree_walk.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "kestrel/core/error.hpp"

namespace kestrel {

namespace {
constexpr int kShallowDepth = 8;
}  // namespace

TreeWalk::TreeWalk(const std::vector<Tree>& trees, bool tables) {
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
        if (tables) add_levels(tree, index);
    }
    begin_.push_back(size());
}

void TreeWalk::add_levels(const Tree& tree, const std::int32_t* index) {
    const int depth = depth_.back();
    top_.push_back(-1);
    sub_.push_back(-1);
    if (depth <= 0) return;  // a lone leaf, or categorical splits
    std::vector<int> bottom;
    top_.back() = add_table(tree, 0, std::min(depth, kWalkLevels), index, &bottom);
    if (depth <= kWalkLevels) return;
    // Deeper trees: a second tier, the next levels of the subtree under each bottom
    // position of the first (a leaf's: a table of depth 0, the leaf itself).
    std::vector<int> height(static_cast<std::size_t>(tree.size()), 0);  // edges below each node
    tree.for_each_split_children_first([&](int i) {
        const TreeNode& n = tree.node(i);
        height[static_cast<std::size_t>(i)] =
            1 + std::max(height[static_cast<std::size_t>(n.left)], height[static_cast<std::size_t>(n.right)]);
    });
    sub_.back() = static_cast<std::int32_t>(tables_.size());
    for (int root : bottom) {
        const int h = std::min(height[static_cast<std::size_t>(root)], kWalkLevels);
        if (h == 0) {
            tables_.push_back({0, level_bottom_.size(), 0});
            level_bottom_.push_back(index[root]);
        } else {
            add_table(tree, root, h, index);
        }
    }
}

std::int32_t TreeWalk::add_table(const Tree& tree, int root, int depth, const std::int32_t* index,
                                 std::vector<int>* bottom) {
    const std::size_t t0 = level_threshold_.size(), entries = static_cast<std::size_t>(kWalkLevelOffset[depth]);
    level_threshold_.resize(t0 + entries, std::numeric_limits<double>::infinity());
    level_key_.resize(t0 + entries, 1);
    // A level's nodes left to right; a leaf stands for itself in every position below it
    // (threshold +inf, key 1: always left, the positions under it all map to it).
    std::vector<int> at{root}, next;
    for (int l = 0; l < depth; ++l) {
        next.assign(2 * at.size(), 0);
        for (std::size_t p = 0; p < at.size(); ++p) {
            const TreeNode& n = tree.node(at[p]);
            if (n.is_leaf()) {
                next[2 * p] = next[2 * p + 1] = at[p];
                continue;
            }
            const std::size_t e = t0 + static_cast<std::size_t>(kWalkLevelOffset[l]) + p;
            level_threshold_[e] = n.threshold;
            level_key_[e] = 2 * n.feature + (n.missing_left ? 1 : 0);
            next[2 * p] = n.left;
            next[2 * p + 1] = n.right;
        }
        at.swap(next);
    }
    tables_.push_back({t0, level_bottom_.size(), depth});
    for (int i : at) level_bottom_.push_back(index[i]);
    if (bottom) *bottom = std::move(at);
    return static_cast<std::int32_t>(tables_.size() - 1);
}

WalkLevels TreeWalk::table(std::int32_t id) const {
    const Table& tb = tables_[static_cast<std::size_t>(id)];
    return {level_threshold_.data() + tb.entries, level_key_.data() + tb.entries, level_bottom_.data() + tb.bottom,
            tb.depth};
}

WalkLevels TreeWalk::levels(std::size_t t) const {
    if (top_.empty() || top_[t] < 0) return {nullptr, nullptr, nullptr, 0};
    return table(top_[t]);
}

namespace {

// Each bottom position of a first tier as itself (the second tier sorts the rows by it).
constexpr auto kWalkPositions = [] {
    std::array<std::int32_t, std::size_t{1} << kWalkLevels> p{};
    for (std::size_t q = 0; q < p.size(); ++q) p[q] = static_cast<std::int32_t>(q);
    return p;
}();

// Below this many rows the second tier's sort costs more than it saves.
constexpr Index kTierRows = 256;

// One thread's scratch for the second tier: rows sorted by their first-tier position.
struct TierScratch {
    std::vector<std::int32_t> row, at;
    std::vector<std::int64_t> offset;
};

}  // namespace

void TreeWalk::leaves(std::size_t t, const double* x, Index stride, Index n, std::int32_t* at, Index group,
                      const SimdLoops& loops) const {
    const std::int32_t root = begin_[t];
    // A tree with categorical splits has no walk (its family routes it); walking it would
    // read tables it does not have (a gbdt file whose trees carried category arrays once did).
    if (!numeric(t)) throw InternalError("tree walk: tree " + std::to_string(t) + " has categorical splits");
    if (depth_[t] == 0 || n <= 0) {  // a lone leaf (and a table of no features has no x to read)
        std::fill(at, at + n, root);
        return;
    }
    const std::int32_t* key = key_.data();
    const std::int32_t* left = left_.data();
    const double* threshold = threshold_.data();
    // The way taken as an index, not a branch: a split's two ways are equally likely,
    // which a branch predictor cannot learn. Row r's values start at x + offset(r).
    const auto step = [&](std::int32_t w, Index offset) {
        const std::int32_t k = key[w];
        const double v = x[offset + (k >> 1)];
        const std::int32_t goes_left =
            static_cast<std::int32_t>(v <= threshold[w]) | (k & static_cast<std::int32_t>(std::isnan(v)));
        return left[w] + 1 - goes_left;
    };
    // Rows [g, end) from level `from` on until none moves.
    const auto walk_groups = [&](int from, std::int32_t* w, const auto& offset) {
        for (Index g = 0; g < n; g += group) {
            const Index end = std::min(n, g + group);
            bool moved = true;
            for (int level = from; level < depth_[t] && moved; ++level) {
                moved = false;
                for (Index r = g; r < end; ++r) {
                    const std::int32_t next = step(w[r], offset(r));
                    moved |= next != w[r];
                    w[r] = next;
                }
            }
        }
    };
    const auto row_offset = [stride](Index r) { return r * stride; };
    int from = 0;
    const bool tables = loops.walk_levels && !top_.empty() && top_[t] >= 0;
    if (tables && loops.walk_levels_rows && sub_[t] >= 0 && n >= kTierRows) {
        // Two tiers of tables: the first takes each row to a position q < 2^kWalkLevels,
        // the rows are sorted by q (a counting sort, stable), and the rows at q walk the
        // next levels of the subtree there, whose tables then serve every row of the
        // group; the lockstep walk on from there, in that order.
        WalkLevels top = table(top_[t]);
        top.bottom = kWalkPositions.data();
        loops.walk_levels(top, x, stride, n, at);
        thread_local TierScratch scratch;
        scratch.row.resize(static_cast<std::size_t>(n));
        scratch.at.resize(static_cast<std::size_t>(n));
        scratch.offset.resize(static_cast<std::size_t>(n));
        std::array<Index, kWalkPositions.size() + 1> first{};
        for (Index r = 0; r < n; ++r) ++first[static_cast<std::size_t>(at[r]) + 1];
        for (std::size_t q = 0; q < kWalkPositions.size(); ++q) first[q + 1] += first[q];
        std::array<Index, kWalkPositions.size()> slot{};
        std::copy(first.begin(), first.end() - 1, slot.begin());
        for (Index r = 0; r < n; ++r) {
            const Index i = slot[static_cast<std::size_t>(at[r])]++;
            scratch.row[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(r);
            scratch.offset[static_cast<std::size_t>(i)] = r * stride;
        }
        std::int32_t* w = scratch.at.data();
        for (std::size_t q = 0; q < kWalkPositions.size(); ++q) {
            const Index b = first[q], m = first[q + 1] - b;
            if (m == 0) continue;
            const WalkLevels sub = table(sub_[t] + static_cast<std::int32_t>(q));
            if (sub.depth == 0) std::fill(w + b, w + b + m, sub.bottom[0]);
            else loops.walk_levels_rows(sub, x, scratch.offset.data() + b, m, w + b);
        }
        if (depth_[t] > 2 * kWalkLevels)
            walk_groups(2 * kWalkLevels, w, [&](Index i) { return static_cast<Index>(scratch.offset[static_cast<std::size_t>(i)]); });
        for (Index i = 0; i < n; ++i) at[scratch.row[static_cast<std::size_t>(i)]] = w[i];
        return;
    }
    if (tables) {
        // The top levels by the vector path's tables, the rest as below.
        const WalkLevels top = table(top_[t]);
        loops.walk_levels(top, x, stride, n, at);
        from = top.depth;
        if (from == depth_[t]) return;
    } else {
        std::fill(at, at + n, root);
    }
    // Shallow trees (boosting's) are walked to their depth: most rows go that deep, and
    // watching for a group that stopped early costs more than the levels it saves.
    if (depth_[t] <= kShallowDepth) {
        for (int level = from; level < depth_[t]; ++level)
            for (Index r = 0; r < n; ++r) at[r] = step(at[r], r * stride);
        return;
    }
    walk_groups(from, at, row_offset);
}

}  // namespace kestrel
