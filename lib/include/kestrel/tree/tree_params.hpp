#pragma once
// The growth parameters every tree model declares (tree, forest, and the trees of
// boosting), declared once here and read back into a TreeParams.
#include <string>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/param_binding.hpp"
#include "kestrel/core/params.hpp"
#include "kestrel/tree/split_criteria.hpp"

namespace kestrel {

struct TreeParams {
    Criterion criterion = Criterion::gini;
    int max_depth = 0;                 // 0 = unlimited
    Index min_samples_split = 2;       // a node with fewer rows is a leaf
    Index min_samples_leaf = 1;        // each child keeps at least this many rows
    Index max_features = 0;            // features tried per node; 0 = all (in column order, no draw)
    Index max_leaf_nodes = 0;          // > 0: best-first growth up to this many leaves
    double min_impurity_decrease = 0;  // split only if (W_t/W)(I_t − W_L/W_t I_L − W_R/W_t I_R) >= this
    double cat_smooth = 10;            // prior weight of the node's statistic in a category's (categorical splits)
};

// The growth parameters as given (the group tree and forest derive their parameters from).
struct TreeGrowthParams {
    std::string criterion;
    long long max_depth = 0;
    long long min_samples_split = 2;
    long long min_samples_leaf = 1;
    RealOrWord max_features;
    long long max_leaf_nodes = 0;
    double min_impurity_decrease = 0;
    double cat_smooth = 10;
};
// criterion, max_depth, min_samples_split, min_samples_leaf, max_features,
// max_leaf_nodes, min_impurity_decrease, cat_smooth. `max_features_default` is "all" for a single
// tree and "auto" (sqrt for classification, 1/3 for regression) for a forest.
std::vector<Bound<TreeGrowthParams>> tree_growth_bindings(const std::string& max_features_default);

// class_weight as tree and forest declare it: a class's weight multiplies its rows'
// sample weights. `anchor` names the matching option of another tool.
Bound<ClassWeightParams> tree_class_weight_param(std::string anchor);

// The growth parameters for a fit on `task` with `n_features` columns; throws
// ParamError for a criterion that does not fit the task, max_features above the
// column count, or max_leaf_nodes = 1. `model` names the model in messages.
TreeParams tree_params_from(const TreeGrowthParams& p, Task task, Index n_features, const std::string& model);

// Throws DataError before `trees` trees are grown on `rows` rows when their nodes, each
// holding `outputs` values (k classes, or 1), cannot fit in memory. A node count is
// bounded by the leaves the rows allow (min_samples_leaf each), max_leaf_nodes and
// 2^max_depth. A classification over thousands of classes (a label column of ids) is
// then refused with the figure, instead of found by the out-of-memory killer.
void check_tree_memory(const TreeParams& tp, Index rows, Index outputs, Index trees, const std::string& model);

// max_features: "all" -> d, "sqrt" -> ⌊√d⌋, "log2" -> ⌊log₂ d⌋, "auto" -> sqrt for
// classification and ⌊d/3⌋ for regression, a value in (0, 1) -> ⌊value·d⌋, an integer
// >= 1 -> that count; never below 1.
Index resolve_max_features(const RealOrWord& value, Task task, Index n_features, const std::string& model);

}  // namespace kestrel
