#include "kestrel/tree/tree_params.hpp"

#include <algorithm>
#include <cmath>

#include "kestrel/common/tree.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"

namespace kestrel {

std::vector<Bound<TreeGrowthParams>> tree_growth_bindings(const std::string& max_features_default) {
    using P = TreeGrowthParams;
    ParamDef max_features =
        real_param("max_features", 0,
                   "features tried per split: all, sqrt, log2, auto, a fraction in (0,1) or a count >= 1")
            .range(0.0, std::nullopt)
            .open_below()
            .also({"all", "sqrt", "log2", "auto"})
            .defaults_to(max_features_default)  // symbolic: depends on the data
            .like("scikit-learn max_features; ranger mtry");
    return {
        bind(&P::criterion, choice_param("criterion", "auto", {"auto", "gini", "entropy", "variance"},
                                         "split impurity: gini or entropy (classification), variance (regression); "
                                         "auto = gini or variance")
                                .like("scikit-learn criterion='gini'|'entropy'|'squared_error'")),
        bind(&P::max_depth, int_param("max_depth", 0, "maximum depth of a tree (0 = unlimited)")
                                .range(0, std::nullopt)
                                .like("scikit-learn max_depth (None = 0); ranger max.depth")),
        bind(&P::min_samples_split, int_param("min_samples_split", 2, "a node with fewer rows is not split")
                                        .range(2, std::nullopt)
                                        .like("scikit-learn min_samples_split")),
        bind(&P::min_samples_leaf, int_param("min_samples_leaf", 1, "each child of a split keeps at least this many rows")
                                       .range(1, std::nullopt)
                                       .like("scikit-learn min_samples_leaf; ranger min.node.size (roughly)")),
        bind(&P::max_features, max_features),
        bind(&P::max_leaf_nodes,
             int_param("max_leaf_nodes", 0, "grow best-first up to this many leaves (0 = unlimited, depth-first)")
                 .range(0, std::nullopt)
                 .like("scikit-learn max_leaf_nodes (None = 0)")),
        bind(&P::min_impurity_decrease,
             real_param("min_impurity_decrease", 0.0, "split only if the weighted impurity decrease is at least this")
                 .range(0.0, std::nullopt)
                 .like("scikit-learn min_impurity_decrease")),
        bind(&P::cat_smooth,
             real_param("cat_smooth", 10.0,
                        "categorical splits: categories are ordered by their class-1 share / class share / mean "
                        "target, each shrunk toward the node's by this many rows' weight")
                 .range(0.0, std::nullopt)
                 .like("LightGBM cat_smooth")),
    };
}

Bound<ClassWeightParams> tree_class_weight_param(std::string anchor) {
    return class_weight_param(
        "\"\" (all 1), \"balanced\" (n/(k*n_c)) or label:weight,...; multiplies the sample weight of that class's rows",
        std::move(anchor));
}

Index resolve_max_features(const RealOrWord& v, Task task, Index d, const std::string& model) {
    double k = 0;
    if (!v.word.empty()) {
        const std::string& s = v.word;
        const double dd = static_cast<double>(d);
        if (s == "all")
            k = dd;
        else if (s == "sqrt")
            k = std::floor(std::sqrt(dd));
        else if (s == "log2")
            k = std::floor(std::log2(dd));
        else if (s == "auto")
            k = task == Task::classification ? std::floor(std::sqrt(dd)) : std::floor(dd / 3);
        else
            throw ParamError("parameter max_features=" + s + " of model " + model +
                             " (valid: all, sqrt, log2, auto, a fraction in (0,1), a count)");
    } else {
        const double x = v.value;
        if (x < 1) {
            k = std::floor(x * static_cast<double>(d));
        } else {
            if (x != std::floor(x))
                throw ParamError("parameter max_features=" + std::to_string(x) + " of model " + model +
                                 ": a count must be an integer (a fraction must be below 1)");
            if (x > static_cast<double>(d))
                throw ParamError("parameter max_features=" + std::to_string(static_cast<long long>(x)) + " of model " +
                                 model + " exceeds the " + std::to_string(d) + " features of the data");
            k = x;
        }
    }
    return std::clamp<Index>(static_cast<Index>(k), 1, d);
}

TreeParams tree_params_from(const TreeGrowthParams& p, Task task, Index n_features, const std::string& model) {
    TreeParams t;
    const std::string& c = p.criterion;
    t.criterion =
        c == "auto" ? (task == Task::classification ? Criterion::gini : Criterion::variance) : criterion_from_string(c);
    if (is_classification(t.criterion) != (task == Task::classification))
        throw ParamError("parameter criterion=" + c + " of model " + model + " does not fit " + to_string(task) +
                         " (valid: " + (task == Task::classification ? "gini, entropy" : "variance") + ", auto)");
    t.max_depth = static_cast<int>(std::min<long long>(p.max_depth, 1 << 30));
    t.min_samples_split = static_cast<Index>(p.min_samples_split);
    t.min_samples_leaf = static_cast<Index>(p.min_samples_leaf);
    t.max_features = resolve_max_features(p.max_features, task, n_features, model);
    if (t.max_features >= n_features) t.max_features = 0;  // all, in column order
    t.max_leaf_nodes = static_cast<Index>(p.max_leaf_nodes);
    if (t.max_leaf_nodes == 1)
        throw ParamError("parameter max_leaf_nodes=1 of model " + model + " (valid: 0 = unlimited, or >= 2)");
    t.min_impurity_decrease = p.min_impurity_decrease;
    t.cat_smooth = p.cat_smooth;
    return t;
}

void check_tree_memory(const TreeParams& tp, Index rows, Index outputs, Index trees, const std::string& model) {
    double leaves = static_cast<double>(std::max<Index>(1, rows / std::max<Index>(1, tp.min_samples_leaf)));
    if (tp.max_leaf_nodes > 0) leaves = std::min(leaves, static_cast<double>(tp.max_leaf_nodes));
    if (tp.max_depth > 0) leaves = std::min(leaves, std::ldexp(1.0, std::min(tp.max_depth, 62)));
    const double per_node = static_cast<double>(sizeof(TreeNode)) + static_cast<double>(outputs) * sizeof(double);
    const double bytes = static_cast<double>(trees) * (2 * leaves - 1) * per_node;
    check_memory(bytes >= 1.8e19 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(bytes), 0,
                 model + " with " + std::to_string(trees) + (trees == 1 ? " tree" : " trees") + " of up to " +
                     std::to_string(static_cast<long long>(leaves)) + " leaves holding " + std::to_string(outputs) +
                     (outputs == 1 ? " value" : " class values") + " per node");
}

}  // namespace kestrel
