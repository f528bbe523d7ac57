#pragma once
// `gbdt` (docs/models/gbdt.md): gradient boosting of regression trees grown on quantile
// histograms with second-order (Newton) steps, as XGBoost's `hist` method and
// scikit-learn's HistGradientBoosting*: squared, absolute, Huber and quantile losses and
// the log-link poisson, gamma and tweedie for regression, logistic for two classes, softmax (one tree per class and round) for more.
// Missing values (NaN, and entries absent from a sparse row) follow each split's learned
// default direction. Categorical features (Dataset::category_counts) are split natively,
// on sets of categories (LightGBM's rule; docs/models/gbdt.md "Categorical features").
#include <cstdint>
#include <string>
#include <vector>

#include "kestrel/core/param_binding.hpp"
#include "kestrel/boosting/losses.hpp"
#include "kestrel/common/tree.hpp"
#include "kestrel/common/tree_walk.hpp"
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/core/search_space.hpp"

namespace kestrel {

struct GbdtParams {
    std::string loss;
    std::string hessian;  // softmax's Hessian convention: "xgboost" (2p(1−p)) or "sklearn" (p(1−p))
    long long n_estimators = 100;
    RealOrWord learning_rate;  // a number, or "auto" (0.1 as a step: 0.2 for softmax under hessian=xgboost)
    long long max_depth = 6;
    long long max_leaves = 0;
    double min_child_weight = 1;
    RealOrWord min_data_in_leaf;  // rows (estimated from the Hessian) in each child: a count (0 = no rule) or "auto"
    double lambda = 1;
    double gamma = 0;
    long long max_bins = 255;
    double subsample = 1;
    double colsample = 1;
    long long early_stopping_rounds = 0;
    double validation_fraction = 0.1;
    std::string eval_metric;  // comma-separated (eval_metrics.hpp), or "auto"
    double huber_delta = 1;
    double alpha = 0.5;                   // loss=quantile
    double tweedie_variance_power = 1.5;  // loss=tweedie
    RealOrWord max_delta_step;            // a number, or "auto" (0.7 for poisson, else 0)
    double scale_pos_weight = 1;          // loss=logistic
    double sigmoid = 1;                   // lambdarank, rank_pairwise: σ
    long long lambdarank_truncation_level = 0;  // ranking: pairs with a document in the top T (0 = all)
    RealOrWord base_score;  // a number, or "auto"
    double cat_smooth = 10;
    long long min_data_per_group = 100;
    long long max_cat_threshold = 32;
    long long max_cat_to_onehot = 4;
    std::string monotone_constraints;     // gbdt_constraints.hpp: "(1,0,-1)" or "name:sign,..."
    std::string interaction_constraints;  // gbdt_constraints.hpp: "[[0,1],[2,3]]"
};
const ParamBinding<GbdtParams>& gbdt_params();

// The bytes gbdt's fit holds beside its training data for `rows` rows of `classes` classes
// (0: regression) on `threads` threads: its scores and gradient pairs, its learners' row
// lists, a subsample's, a hold-out's scores, and its trees at their largest
// (ModelInfo::fit_bytes).
std::uint64_t gbdt_fit_bytes(const GbdtParams& p, Index rows, Index classes, int threads);

class Gbdt : public Estimator {
public:
    // The most categories a categorical feature may have (the codes are read as int).
    static constexpr Index kMaxCategories = Index{1} << 24;

    bool has_decision_function() const override { return !fitted() || task() == Task::classification; }

    // Round-major: tree t is round t / K for raw score t % K (K = n_outputs()).
    const std::vector<Tree>& trees() const { return trees_; }
    Index n_outputs() const { return static_cast<Index>(base_score_.size()); }
    const std::vector<double>& base_score() const { return base_score_; }
    LossKind loss() const { return loss_; }
    // Total split gain per feature, normalised to sum 1 (XGBoost's total_gain).
    const Vector& feature_importances() const { return importances_; }
    // Mean training / validation loss after each round run (validation: with early stopping).
    const std::vector<double>& train_loss() const { return train_loss_; }
    const std::vector<double>& validation_loss() const { return validation_loss_; }
    // Rounds kept: all of them, or the best validation round with early stopping.
    Index rounds() const { return n_outputs() ? static_cast<Index>(trees_.size()) / n_outputs() : 0; }
    // The evaluation columns ("validation_0-logloss": set, metric) and their value after
    // each round run; empty when no set was watched.
    const std::vector<std::string>& eval_columns() const { return eval_columns_; }
    const std::vector<std::vector<double>>& eval_history() const { return eval_history_; }
    // XGBoost's best_iteration with early stopping: the 0-based round of the best value of
    // the last metric on the last set, the model's last round (rounds() − 1); −1 when off.
    Index best_iteration() const override { return best_iteration_; }

    // n x K raw scores: base score plus the sum of the trees' values (in double; in float32
    // when xgboost_float32()).
    Matrix raw_scores(const Features& X) const;
    // Whether the model predicts as XGBoost 1.7 does: a model read from an XGBoost file
    // (boosting/xgboost_model.hpp) sums each output's base margin and leaves in float32, in
    // XGBoost's tree order, and applies the link in float32 with XGBoost's formulas
    // (docs/exchange.md "Float32 predictions"). False for a model kestrel fitted (a
    // continued fit clears it).
    bool xgboost_float32() const { return xgboost_float32_; }

    // Categorical features: per feature 0 (numeric) or its k categories; empty when every
    // feature was numeric.
    const std::vector<Index>& category_counts() const { return category_counts_; }
    // A categorical split: tree node `node` sends the codes `left` (ascending) left, the
    // other codes seen in training right, and missing, invalid or unseen codes (no training
    // row) where the node's missing_left says.
    struct CategoricalSplit {
        int node = 0;
        std::vector<int> left;
        bool operator==(const CategoricalSplit&) const = default;
    };
    // Per tree (parallel to trees()), its categorical splits by node; empty when every
    // feature was numeric.
    const std::vector<std::vector<CategoricalSplit>>& categorical_splits() const { return cat_splits_; }
    // Per feature, the codes of a categorical feature that no training row had.
    const std::vector<std::vector<int>>& unseen_categories() const { return unseen_; }
    // The leaf of tree t a row (n_features values) falls into.
    int apply_tree(std::size_t t, const double* row) const {
        return routes_.empty() || routes_[t].offset.empty() ? trees_[t].apply(row) : apply_categorical(t, row);
    }

protected:
    // Reads the parameters and checks the constraints' syntax (their names wait for the data).
    void on_params(const Params& resolved) override;
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Matrix do_decision_function(const Features& X) const override;
    Matrix do_predict_proba(const Features& X) const override;
    // TreeSHAP of the raw scores: per raw score, its trees' contributions, the base score
    // in the bias.
    Matrix do_contributions(const Features& X) const override;
    // do_contributions of an xgboost_float32 model: XGBoost's float32 TreeSHAP
    // (boosting/xgboost_tree_shap.hpp).
    Matrix xgboost_contributions(const Features& X) const;
    std::string do_report(const std::string& report_name, const ReportNames& names) const override;
    Json do_save_state() const override;
    Json do_save_state_for_file(JsonTextSlots& slots) const override;  // the trees as a text slot
    void do_load_state(const Json& state) override;
    // (state key "xgboost_float32": true, written only when set, read by version 3)
    // 3: the trees in the boosted layout (common/tree.hpp); 2: categorical features
    // ("categorical_features", "categorical_splits"); 1: numeric only.
    int state_version() const override { return 3; }
    int oldest_state_version() const override { return 1; }

private:
    GbdtParams p_;
    Json state_without_trees() const;
    // raw_scores, the sums kept in Sum (double, or float for xgboost_float32_).
    template <class Sum>
    Matrix sum_trees(const Features& X) const;
    int apply_categorical(std::size_t t, const double* row) const;
    // Whether a row goes left at node i of tree t, a tree with categorical splits.
    bool goes_left_categorical(std::size_t t, int i, const double* row) const;
    // The prediction tables of the trees (routes_, walk_, leaf_value_), after a fit or a load.
    void build_prediction_tables();
    void build_routes();
    void build_walk_tables();
    std::string dump_categorical_tree(std::size_t t, const std::vector<std::string>& features,
                                      const CategoryLists* categories) const;

    LossKind loss_ = LossKind::squared;
    bool xgboost_float32_ = false;
    std::vector<double> base_score_;
    std::vector<Tree> trees_;
    Vector importances_;
    std::vector<double> train_loss_, validation_loss_;
    std::vector<std::string> eval_columns_;
    std::vector<std::vector<double>> eval_history_;
    Index best_iteration_ = -1;
    std::vector<Index> category_counts_;
    std::vector<std::vector<int>> unseen_;
    std::vector<std::vector<CategoricalSplit>> cat_splits_;
    // Prediction tables of the categorical splits, per tree (empty: a numeric tree): per
    // node the offset of its words (−1: a numeric split), whose bit c says whether code c
    // goes left (an unseen code: the missing direction).
    struct Routes {
        std::vector<int> offset;
        std::vector<std::uint32_t> words;
    };
    std::vector<Routes> routes_;
    // The trees as raw_scores walks them (the numeric ones; routes_ walks the others), and
    // each leaf's η·w by its walk index.
    TreeWalk walk_;
    std::vector<double> leaf_value_;
};

ModelInfo gbdt_model_info();
SearchSpace gbdt_search_space();  // kestrel-auto and kestrel-gridsearch without -g

// The loss a fit on `data` uses: `loss` (auto: squared for regression, logistic for two
// classes, softmax for more). ParamError when it does not fit the task.
LossKind resolve_loss(const std::string& loss, const Dataset& data);

}  // namespace kestrel
