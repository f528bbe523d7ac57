#pragma once
// TreeSHAP as XGBoost 1.7 computes pred_contribs, for the gbdt models read from its files
// (Gbdt::xgboost_float32): the same recursion as common/tree_shap.hpp's TreeExplainer, but
// with XGBoost's own arithmetic, every step in float32 and in its order (src/tree/
// tree_model.cc: RegTree::TreeShap, ExtendPath, UnwindPath, UnwoundPathSum,
// CalculateContributions; src/predictor/cpu_predictor.cc: FillNodeMeanValues). A child's
// fraction is its sum_hessian over its parent's (TreeExplainer: over the two children's),
// a node's expected value (mean_l·h_l + mean_r·h_r) / h, and a child no weight reaches is
// still walked, as XGBoost walks it. So the contributions are XGBoost's, bit for bit.
#include <cstddef>
#include <functional>
#include <vector>

#include "kestrel/common/tree.hpp"

namespace kestrel {

class XgboostTreeShap {
public:
    // `tree`'s node weights are XGBoost's sum_hessian and its leaf values its float32
    // leaves; route(node, row): whether the row goes left at internal node `node` (as
    // XGBoost sends it). `tree` must outlive this object.
    XgboostTreeShap(const Tree& tree, std::function<bool(int node, const double* row)> route);

    // Adds the tree's contributions for the row (n_features values) to phi, its features'
    // then the bias (the tree's expected value) at phi[n_features], in float32. XGBoost
    // gives each tree a zeroed vector and adds it to the row's: so does the caller.
    void add(const double* row, float* phi) const;

private:
    struct PathElement {
        int feature = 0;
        float zero = 0, one = 0, weight = 0;
    };
    void recurse(const double* row, float* phi, int node, unsigned depth, PathElement* parent_path, float parent_zero,
                 float parent_one, int parent_feature) const;

    const Tree& tree_;
    std::function<bool(int, const double*)> route_;
    std::vector<float> mean_;  // per node, its expected value
    int max_depth_ = 0;
    std::size_t path_elements_ = 0;  // one thread's path buffer
};

}  // namespace kestrel
