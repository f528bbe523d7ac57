#pragma once
// `tree`: a CART decision tree for classification (gini, entropy) and regression
// (variance), with optional cost-complexity or reduced-error pruning
// (docs/models/tree.md). Sparse input is used as it is (never densified).
#include <string>
#include <vector>

#include "kestrel/common/tree.hpp"
#include "kestrel/common/tree_shap.hpp"
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/core/search_space.hpp"
#include "kestrel/tree/tree_params.hpp"

namespace kestrel {

struct DecisionTreeParams : TreeGrowthParams, ClassWeightParams {
    double ccp_alpha = 0;
    std::string prune;
    double validation_fraction = 0.2;
};
const ParamBinding<DecisionTreeParams>& decision_tree_params();

class TreeGrower;
class TreeRefitter;

class DecisionTree : public Estimator {
public:
    // Unfitted: the capability of a classifier (asked before fitting, e.g. by cv);
    // fitted: only when the tree learned classification.

    const Tree& tree() const { return tree_; }
    // Impurity decrease per feature over the tree's splits, summing to 1 (all zeros
    // for a tree that is a single leaf).
    const Vector& feature_importances() const { return importances_; }

    // Boosting's rounds: the columns are sorted once for every fit on `data`, and a
    // fit with new weights grows the tree that fit() on the data with them grows.
    std::unique_ptr<Refitter> refitter(const Dataset& data, const Context& ctx) const override;

protected:
    void on_params(const Params& resolved) override { p_ = decision_tree_params().read(resolved); }
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Matrix do_predict_proba(const Features& X) const override;
    Matrix do_contributions(const Features& X) const override;
    std::string do_report(const std::string& report_name, const ReportNames& names) const override;
    std::string do_explain_row(const double* row, const ReportNames& names, const std::string& indent) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;
    // 2: splits may be categorical (the tree's category arrays) and send missing values
    // left; 1: numeric splits only, still read.
    int state_version() const override { return 2; }
    int oldest_state_version() const override { return 1; }

private:
    friend class TreeRefitter;

    DecisionTreeParams p_;
    Tree tree_;
    Vector importances_;
    const TreeGrower* prepared_ = nullptr;  // set by a TreeRefitter for the one fit it makes
};

ModelInfo tree_model_info();
SearchSpace tree_search_space();  // kestrel-auto and kestrel-gridsearch without -g

// Shared by the tree models.
// What a tree, and a forest of them, can do with their default parameters.
inline constexpr Capabilities kTreeCapabilities = {.predict_proba = true,
                                                   .sparse_input = true,
                                                   .sample_weights = true,
                                                   .native_missing = true,
                                                   .native_categories = true,
                                                   .contributions = true,
                                                   .explains_rows = true};
// Throws DataError when X holds an infinity, or a NaN in a sparse matrix (dense
// features may be missing: NaN; sparse ones have no missing-value direction), unless
// sparse_nan_is_missing (the histogram forest bins sparse rows dense).
void require_finite_features(const Features& X, const std::string& model, bool sparse_nan_is_missing = false);
// Class probabilities of each row from one tree's leaf class counts, added into `out`
// (n x k); or, for regression, the leaf value added into `out` (n x 1).
void add_tree_outputs(const Tree& tree, const Features& X, Matrix& out);
// The same for one row (n_features values) into out[0..n_outputs).
void add_tree_output(const Tree& tree, const double* row, double* out);
// The same for the row's leaf.
void add_tree_output_at_leaf(const Tree& tree, int leaf, double* out);
// TreeSHAP of a tree as the tree models predict with it (add_tree_output: the leaf's
// class probabilities, or its value), with `cover` per node.
TreeExplainer cart_explainer(const Tree& tree, std::vector<double> cover);

}  // namespace kestrel
