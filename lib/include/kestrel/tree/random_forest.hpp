#pragma once
// `forest`: Breiman's random forest over the shared tree builder (docs/models/forest.md).
// Tree t draws its sample and its candidate features from derive_seed(seed, t), so
// the forest is the same for any number of threads. tree_method=hist grows the trees on
// binned features level by level instead (src/tree/hist_forest.hpp): the forest that
// trains on rows spread over MPI ranks.
#include <optional>
#include <vector>

#include "kestrel/common/tree.hpp"
#include "kestrel/common/tree_walk.hpp"
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/core/search_space.hpp"
#include "kestrel/tree/leaf_outputs.hpp"
#include "kestrel/tree/tree_params.hpp"

namespace kestrel {

struct RandomForestParams : TreeGrowthParams, ClassWeightParams {
    long long n_estimators = 100;
    bool bootstrap = true;
    double max_samples = 1;
    bool oob = false;
    std::string importance;
    std::string tree_method;  // auto | exact | hist
    long long max_bins = 255;
};
const ParamBinding<RandomForestParams>& forest_params();

class RandomForest : public Estimator {
public:
    // Unfitted: the capability of a classifier (asked before fitting, e.g. by cv);
    // fitted: only when the tree learned classification.
    // 3: splits may be categorical and send missing values left; 2: the trees in the
    // compact layout (TreeLayout); 1: in the full one. Both still read.
    int state_version() const override { return 3; }
    int oldest_state_version() const override { return 1; }

    // Each tree keeps its leaves' values only (Tree::leaf_values_only).
    const std::vector<Tree>& trees() const { return trees_; }
    // Mean over the trees of each tree's normalised impurity importances, normalised.
    const Vector& feature_importances() const { return importances_; }
    // Out-of-bag accuracy (classification) or R² (regression), when fitted with oob=1.
    std::optional<double> oob_score() const { return oob_score_; }
    // Out-of-bag permutation importance (ranger's importance="permutation"), when fitted
    // with importance=permutation: per feature, the mean over the trees of the increase
    // of the tree's out-of-bag error (misclassification rate, or MSE) when the feature's
    // values are permuted among that tree's out-of-bag rows. Not normalised; may be < 0.
    const std::optional<Vector>& permutation_importances() const { return permutation_importances_; }

protected:
    void on_params(const Params& resolved) override { p_ = forest_params().read(resolved); }
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Matrix do_predict_proba(const Features& X) const override;
    Matrix do_contributions(const Features& X) const override;
    std::string do_report(const std::string& report_name, const ReportNames& names) const override;
    std::string do_explain_row(const double* row, const ReportNames& names, const std::string& indent) const override;
    Json do_save_state() const override;
    Json do_save_state_for_file(JsonTextSlots& slots) const override;  // the trees as a text slot
    void do_load_state(const Json& state) override;

private:
    RandomForestParams p_;
    Matrix mean_outputs(const Features& X) const;
    // tree_method=hist: the trees, their importances and what oob / importance ask for.
    void fit_hist(const Dataset& data, const Context& ctx, const TreeParams& tp);
    // The out-of-bag score and permutation importances the parameters ask for (none: reset),
    // from in_bag[t][i], whether row i was in tree t's sample (empty when neither is asked).
    void set_out_of_bag(const std::vector<Tree>& trees, const std::vector<std::vector<char>>& in_bag,
                        const Dataset& data, const Context& ctx);
    Json state_with(Json trees) const;

    // The trees as prediction walks them, and their leaves' outputs (after a fit or a load).
    void build_prediction_tables();

    std::vector<Tree> trees_;
    TreeWalk walk_;
    LeafOutputs leaf_outputs_;
    Vector importances_;
    std::optional<double> oob_score_;
    std::optional<Vector> permutation_importances_;
};

ModelInfo forest_model_info();
SearchSpace forest_search_space();  // kestrel-auto and kestrel-gridsearch without -g

}  // namespace kestrel
