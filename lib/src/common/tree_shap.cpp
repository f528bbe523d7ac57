#include "kestrel/common/tree_shap.hpp"

#include <omp.h>

#include <algorithm>
#include <exception>
#include <optional>
#include <string>

#include "kestrel/common/row_scatter.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"

namespace kestrel {
namespace {

// The path of unique features from the root to the current node, each with the fraction
// of the "zero" (feature unknown: cover-weighted) and "one" (feature known: the row's
// way) paths through its splits, and the weights of the subsets of each size (the
// paper's EXTEND, UNWIND and the sum UNWIND would leave).
template <class Element>
void extend(Element* path, int depth, double zero, double one, int feature) {
    path[depth] = {feature, zero, one, depth == 0 ? 1.0 : 0.0};
    const double n = depth + 1;
    for (int i = depth - 1; i >= 0; --i) {
        path[i + 1].weight += one * path[i].weight * (i + 1) / n;
        path[i].weight = zero * path[i].weight * (depth - i) / n;
    }
}

template <class Element>
void unwind(Element* path, int depth, int index) {
    const double one = path[index].one, zero = path[index].zero, n = depth + 1;
    double next = path[depth].weight;
    for (int i = depth - 1; i >= 0; --i) {
        if (one != 0) {
            const double kept = path[i].weight;
            path[i].weight = next * n / ((i + 1) * one);
            next = kept - path[i].weight * zero * (depth - i) / n;
        } else {
            path[i].weight = path[i].weight * n / (zero * (depth - i));
        }
    }
    for (int i = index; i < depth; ++i) {
        path[i].feature = path[i + 1].feature;
        path[i].zero = path[i + 1].zero;
        path[i].one = path[i + 1].one;
    }
}

template <class Element>
double unwound_sum(const Element* path, int depth, int index) {
    const double one = path[index].one, zero = path[index].zero, n = depth + 1;
    double next = path[depth].weight, total = 0;
    for (int i = depth - 1; i >= 0; --i) {
        if (one != 0) {
            const double w = next * n / ((i + 1) * one);
            total += w;
            next = path[i].weight - w * zero * (depth - i) / n;
        } else {
            total += path[i].weight * n / (zero * (depth - i));
        }
    }
    return total;
}

}  // namespace

TreeExplainer::TreeExplainer(const Tree& tree, std::vector<double> cover, std::vector<double> leaf_values,
                             TreeRoute route)
    : tree_(tree), cover_(std::move(cover)), values_(std::move(leaf_values)), route_(std::move(route)),
      n_outputs_(tree.n_outputs()), depth_(tree.depth()) {
    const auto nodes = static_cast<std::size_t>(tree.size());
    if (nodes == 0 || cover_.size() != nodes || values_.size() != nodes * static_cast<std::size_t>(n_outputs_))
        throw InternalError("TreeExplainer: covers or values do not match the tree");
    // The walk recurses once per level, and each level's path follows its parent's in one
    // buffer per thread: a path at depth i holds at most u = min(i, features) elements
    // besides the root's (a feature met again replaces its earlier element), so the
    // buffer holds Σ_{i<=D} min(i, u) + u + 1 elements. Both are checked here, before any
    // row is explained and outside the parallel region (a tree 40,000 levels deep once
    // threw bad_alloc inside it, which ended the process).
    if (depth_ > kMaxTreeShapDepth)
        throw DataError(option_named("contributions") + ": a tree " + std::to_string(depth_) +
                        " levels deep is deeper than TreeSHAP's " + std::to_string(kMaxTreeShapDepth) + " levels");
    const Index u = std::min<Index>(depth_, tree.n_features());
    path_elements_ = static_cast<std::uint64_t>(u) + 3;  // (two to spare)
    for (Index i = 1; i <= depth_; ++i) path_elements_ += static_cast<std::uint64_t>(std::min(i, u));
    check_memory(
        path_bytes() * static_cast<std::uint64_t>(std::max(1, omp_get_max_threads())), 0,
        option_named("contributions") + ": TreeSHAP's paths for a tree " + std::to_string(depth_) + " levels deep");
    // Expected output per node, children before parents (a child's index is larger in a
    // grown tree, but a loaded one need not be ordered: go by an explicit post-order).
    std::vector<double> mean(values_);
    tree.for_each_split_children_first([&](int i) {
        const TreeNode& n = tree.node(i);
        const double fl = fraction(i, n.left), fr = fraction(i, n.right);
        for (Index o = 0; o < n_outputs_; ++o)
            mean[static_cast<std::size_t>(i * n_outputs_ + o)] =
                fl * mean[static_cast<std::size_t>(n.left * n_outputs_ + o)] +
                fr * mean[static_cast<std::size_t>(n.right * n_outputs_ + o)];
    });
    expected_.assign(mean.begin(), mean.begin() + n_outputs_);
}

double TreeExplainer::fraction(int parent, int child) const {
    const TreeNode& n = tree_.node(parent);
    const double total = cover_[static_cast<std::size_t>(n.left)] + cover_[static_cast<std::size_t>(n.right)];
    return total > 0 ? cover_[static_cast<std::size_t>(child)] / total : 0.5;
}

bool TreeExplainer::goes_left(int node, const double* row) const {
    if (route_) return route_(node, row);
    const TreeNode& n = tree_.node(node);
    return tree_.goes_left(node, row[n.feature]);
}

void TreeExplainer::add(const double* row, double* phi) const {
    const auto d = tree_.n_features();
    // Each level copies its parent's path after it: depth+1 elements at depth `depth`. One
    // buffer per thread, grown to the deepest tree seen: no allocation per row and tree.
    thread_local std::vector<PathElement> paths;
    const auto needed = static_cast<std::size_t>(path_elements_);
    if (paths.size() < needed) paths.resize(needed);
    recurse(0, row, phi, paths.data(), 0, 1, 1, -1);
    for (Index o = 0; o < n_outputs_; ++o) phi[o * (d + 1) + d] += expected_[static_cast<std::size_t>(o)];
}

void TreeExplainer::recurse(int node, const double* row, double* phi, PathElement* parent_path, int length,
                            double zero, double one, int feature) const {
    // This node's path: the parent's, extended by the split that led here.
    PathElement* path = parent_path + length;
    if (length > 0) std::copy(parent_path, parent_path + length, path);
    extend(path, length, zero, one, feature);
    const TreeNode& n = tree_.node(node);
    const Index d = tree_.n_features();
    if (n.is_leaf()) {
        const double* v = values_.data() + static_cast<std::size_t>(node) * static_cast<std::size_t>(n_outputs_);
        for (int i = 1; i <= length; ++i) {
            const double w = unwound_sum(path, length, i) * (path[i].one - path[i].zero);
            for (Index o = 0; o < n_outputs_; ++o) phi[o * (d + 1) + path[i].feature] += w * v[o];
        }
        return;
    }
    const bool left = goes_left(node, row);
    const int hot = left ? n.left : n.right, cold = left ? n.right : n.left;
    // A feature met again on the path: its earlier split leaves the path, its fractions
    // carry on into this one.
    double in_zero = 1, in_one = 1;
    int depth = length;
    for (int k = 1; k <= length; ++k) {
        if (path[k].feature != n.feature) continue;
        in_zero = path[k].zero;
        in_one = path[k].one;
        unwind(path, length, k);
        --depth;
        break;
    }
    // A child that neither the row nor an unknown-feature path reaches adds nothing (and
    // would divide by 0 in unwound_sum).
    const double hot_zero = fraction(node, hot) * in_zero, cold_zero = fraction(node, cold) * in_zero;
    if (hot_zero != 0 || in_one != 0) recurse(hot, row, phi, path, depth + 1, hot_zero, in_one, n.feature);
    if (cold_zero != 0) recurse(cold, row, phi, path, depth + 1, cold_zero, 0, n.feature);
}

std::uint64_t TreeExplainer::path_bytes() const {
    return path_elements_ * sizeof(PathElement);
}

Matrix contributions_by_row(const Features& X, Index width, double absent,
                            const std::function<void(const double* row, double* phi)>& add_row) {
    const Index n = X.rows();
    check_memory(static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(width) * 2 * sizeof(double), 0,
                 option_named("contributions") + ": " + std::to_string(n) + " rows x " + std::to_string(width) +
                     " contributions");
    std::vector<double> out(static_cast<std::size_t>(n * width), 0.0);
    constexpr Index kBlock = 64;
    const Index blocks = (n + kBlock - 1) / kBlock;
    // No exception may leave an OpenMP region (it would end the process): the first one
    // thrown is kept, the blocks not yet begun are skipped, and it is thrown again after.
    std::exception_ptr failure;
    bool stop = false;
    const auto record = [&] {
#pragma omp critical(kestrel_contributions_failure)
        {
            if (!failure) failure = std::current_exception();
#pragma omp atomic write
            stop = true;
        }
    };
#pragma omp parallel num_threads(std::max(1, omp_get_max_threads())) if (blocks > 1)
    {
        std::optional<RowScatter> rows;
        try {
            rows.emplace(X, absent);
        } catch (...) {
            record();
        }
#pragma omp for schedule(dynamic)
        for (Index b = 0; b < blocks; ++b) {
            bool halt = false;
#pragma omp atomic read
            halt = stop;
            if (halt || !rows) continue;
            try {
                for (Index i = b * kBlock; i < std::min(n, (b + 1) * kBlock); ++i)
                    add_row(rows->row(i), out.data() + i * width);
            } catch (...) {
                record();
            }
        }
    }
    if (failure) std::rethrow_exception(failure);
    Matrix m(n, width);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < width; ++j) m(i, j) = out[static_cast<std::size_t>(i * width + j)];
    return m;
}

std::vector<double> covers_from_leaves(const Tree& tree, const std::function<double(int leaf)>& leaf_cover) {
    std::vector<double> cover(static_cast<std::size_t>(tree.size()), 0.0);
    std::vector<std::pair<int, bool>> stack{{0, false}};
    while (!stack.empty()) {
        const auto [i, done] = stack.back();
        stack.pop_back();
        const TreeNode& n = tree.node(i);
        if (n.is_leaf()) {
            cover[static_cast<std::size_t>(i)] = leaf_cover(i);
        } else if (!done) {
            stack.emplace_back(i, true);
            stack.emplace_back(n.left, false);
            stack.emplace_back(n.right, false);
        } else {
            cover[static_cast<std::size_t>(i)] =
                cover[static_cast<std::size_t>(n.left)] + cover[static_cast<std::size_t>(n.right)];
        }
    }
    return cover;
}

}  // namespace kestrel
