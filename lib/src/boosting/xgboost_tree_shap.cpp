// XGBoost 1.7's TreeSHAP in float32 (boosting/xgboost_tree_shap.hpp). The arithmetic is
// XGBoost's expression by expression: each product and quotient in its order, the integer
// factors converted to float where XGBoost converts them.
#include "kestrel/boosting/xgboost_tree_shap.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kestrel/common/tree_shap.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"

namespace kestrel {
namespace {

template <class Element>
void extend_path(Element* path, unsigned depth, float zero, float one, int feature) {
    path[depth].feature = feature;
    path[depth].zero = zero;
    path[depth].one = one;
    path[depth].weight = depth == 0 ? 1.0F : 0.0F;
    const auto n = static_cast<float>(depth + 1);
    for (int i = static_cast<int>(depth) - 1; i >= 0; i--) {
        const auto u = static_cast<std::size_t>(i);
        path[u + 1].weight += one * path[u].weight * static_cast<float>(i + 1) / n;
        path[u].weight = zero * path[u].weight * static_cast<float>(depth - static_cast<unsigned>(i)) / n;
    }
}

template <class Element>
void unwind_path(Element* path, unsigned depth, unsigned index) {
    const float one = path[index].one, zero = path[index].zero;
    float next = path[depth].weight;
    for (int i = static_cast<int>(depth) - 1; i >= 0; --i) {
        const auto u = static_cast<std::size_t>(i);
        const auto rest = static_cast<float>(depth - static_cast<unsigned>(i));
        if (one != 0) {
            const float kept = path[u].weight;
            path[u].weight = next * static_cast<float>(depth + 1) / (static_cast<float>(i + 1) * one);
            next = kept - path[u].weight * zero * rest / static_cast<float>(depth + 1);
        } else {
            path[u].weight = (path[u].weight * static_cast<float>(depth + 1)) / (zero * rest);
        }
    }
    for (unsigned i = index; i < depth; ++i) {
        path[i].feature = path[i + 1].feature;
        path[i].zero = path[i + 1].zero;
        path[i].one = path[i + 1].one;
    }
}

template <class Element>
float unwound_path_sum(const Element* path, unsigned depth, unsigned index) {
    const float one = path[index].one, zero = path[index].zero;
    float next = path[depth].weight, total = 0;
    for (int i = static_cast<int>(depth) - 1; i >= 0; --i) {
        const auto u = static_cast<std::size_t>(i);
        const float share = static_cast<float>(depth - static_cast<unsigned>(i)) / static_cast<float>(depth + 1);
        if (one != 0) {
            const float w = next * static_cast<float>(depth + 1) / (static_cast<float>(i + 1) * one);
            total += w;
            next = path[u].weight - w * zero * share;
        } else if (zero != 0) {
            total += (path[u].weight / zero) / share;
        }
    }
    return total;
}

}  // namespace

XgboostTreeShap::XgboostTreeShap(const Tree& tree, std::function<bool(int, const double*)> route)
    : tree_(tree), route_(std::move(route)), max_depth_(tree.depth()) {
    // TreeExplainer's limits: the walk recurses once per level, and a level's path follows
    // its parent's in one buffer per thread. A path at level i holds at most min(i, u) + 1
    // elements, u = min(D, features) (a feature met again replaces its element).
    if (max_depth_ > TreeExplainer::kMaxTreeShapDepth)
        throw DataError(option_named("contributions") + ": a tree " + std::to_string(max_depth_) +
                        " levels deep is deeper than TreeSHAP's " + std::to_string(TreeExplainer::kMaxTreeShapDepth) +
                        " levels");
    const auto u = static_cast<std::size_t>(std::min<Index>(max_depth_, tree.n_features()));
    path_elements_ = u + 3;
    for (std::size_t i = 0; i <= static_cast<std::size_t>(max_depth_); ++i) path_elements_ += std::min(i, u) + 1;
    check_memory(path_elements_ * sizeof(PathElement) * static_cast<std::uint64_t>(std::max(1, omp_get_max_threads())), 0,
                 option_named("contributions") + ": TreeSHAP's paths for a tree " + std::to_string(max_depth_) +
                     " levels deep");
    // FillNodeMeanValues: a leaf's value; a split's (mean_l·h_l + mean_r·h_r) / h.
    mean_.assign(static_cast<std::size_t>(tree.size()), 0.0F);
    for (int i = 0; i < tree.size(); ++i)
        if (tree.node(i).is_leaf()) mean_[static_cast<std::size_t>(i)] = static_cast<float>(tree.value(i)[0]);
    tree.for_each_split_children_first([&](int i) {
        const TreeNode& n = tree.node(i);
        float m = mean_[static_cast<std::size_t>(n.left)] * static_cast<float>(tree.node(n.left).weight);
        m += mean_[static_cast<std::size_t>(n.right)] * static_cast<float>(tree.node(n.right).weight);
        m /= static_cast<float>(n.weight);
        mean_[static_cast<std::size_t>(i)] = m;
    });
}

void XgboostTreeShap::add(const double* row, float* phi) const {
    phi[tree_.n_features()] += mean_[0];
    thread_local std::vector<PathElement> paths;  // one per thread, grown to the deepest tree seen
    if (paths.size() < path_elements_) paths.resize(path_elements_);
    recurse(row, phi, 0, 0, paths.data(), 1, 1, -1);
}

void XgboostTreeShap::recurse(const double* row, float* phi, int node, unsigned depth, PathElement* parent_path,
                              float parent_zero, float parent_one, int parent_feature) const {
    PathElement* path = parent_path + depth + 1;
    std::copy(parent_path, parent_path + depth + 1, path);
    extend_path(path, depth, parent_zero, parent_one, parent_feature);
    const TreeNode& n = tree_.node(node);
    if (n.is_leaf()) {
        const auto leaf = static_cast<float>(tree_.value(node)[0]);
        for (unsigned i = 1; i <= depth; ++i) {
            const float w = unwound_path_sum(path, depth, i);
            const PathElement& e = path[i];
            phi[e.feature] += w * (e.one - e.zero) * leaf * 1.0F;  // (XGBoost's condition_fraction, 1)
        }
        return;
    }
    const int hot = route_(node, row) ? n.left : n.right;
    const int cold = hot == n.left ? n.right : n.left;
    const auto w = static_cast<float>(n.weight);
    const float hot_zero = static_cast<float>(tree_.node(hot).weight) / w;
    const float cold_zero = static_cast<float>(tree_.node(cold).weight) / w;
    float in_zero = 1, in_one = 1;
    // A feature met again: its earlier element leaves the path (XGBoost searches from the
    // root's element, whose feature -1 never matches).
    unsigned index = 0;
    for (; index <= depth; ++index)
        if (path[index].feature == n.feature) break;
    if (index != depth + 1) {
        in_zero = path[index].zero;
        in_one = path[index].one;
        unwind_path(path, depth, index);
        depth -= 1;
    }
    recurse(row, phi, hot, depth + 1, path, hot_zero * in_zero, in_one, n.feature);
    recurse(row, phi, cold, depth + 1, path, cold_zero * in_zero, 0, n.feature);
}

}  // namespace kestrel
