#pragma once
// The estimator inside an ensemble Model (kEnsembleModel): whole member Models, each with
// its own preprocessing, averaged with fixed weights. It sits at the pipeline floor
// because it holds Models; no model family knows it, and the registry does not list it
// (nothing trains it from parameters). The ensemble Model has no preprocessing steps of
// its own: it hands the aligned raw columns to the members, which prepare them as they
// were trained to.
//
// A stack (kestrel-auto --stack, docs/auto.md "Stacking") is the same estimator with a
// second layer: the members form consecutive groups (`inputs`: each group's size, its
// weights summing to 1; a group is one first-layer candidate's bag of fold models), each
// group's weighted average is one input of the `stacker` model (a classifier's
// probabilities of every class, a regressor's value), and the stacker's prediction on
// those columns is the stack's. With `features` (kestrel-auto --stack-features, AutoGluon's
// use_orig_features) the raw columns the ensemble is given follow the groups' columns, so
// the stacker sees the row itself beside its members' predictions.
#include <memory>
#include <vector>

#include "kestrel/pipeline/model.hpp"

namespace kestrel::detail {

class EnsembleEstimator final : public Estimator {
public:
    explicit EnsembleEstimator(std::vector<EnsembleMember> members = {});
    // A stack: members in consecutive groups of the sizes `inputs`, each group's weights
    // summing to 1, and the second-layer model fitted on their predictions' columns.
    EnsembleEstimator(std::vector<EnsembleMember> members, std::vector<std::size_t> inputs, Model stacker,
                      bool features = false);

    const std::vector<EnsembleMember>& members() const { return members_; }
    const Model* stacker() const { return stacker_.get(); }
    // Whether the stacker also takes the raw input columns (after the groups' columns).
    bool stack_features() const { return stacker_ && features_; }
    // A stack's group sizes (consecutive members, each group one stacker input); empty for
    // a weighted average.
    const std::vector<std::size_t>& inputs() const { return inputs_; }
    // A stack's second-layer input columns for the raw rows X: each group's weighted
    // average, in group order (a classifier's k probabilities, a regressor's value), then
    // with stack_features() X's own columns (densified).
    DenseMatrix stack_columns(const Features& X) const;
    // After load_state: every member names the envelope's classes and input columns
    // (ModelStateError otherwise; the caller names the file).
    void check_members(const std::vector<std::string>& classes, const std::vector<std::string>& feature_names) const;

    bool has_decision_function() const override { return false; }
    bool has_predict_proba() const override { return task() == Task::classification; }
    // Each member densifies or encodes what it needs itself.
    bool supports_sparse() const override { return true; }
    bool absent_is_missing() const override { return false; }
    // A missing cell is accepted when every member imputes it or takes it natively.
    bool native_missing() const override;
    bool native_categories() const override { return true; }
    bool supports_sample_weights() const override { return true; }
    bool has_contributions() const override { return false; }
    bool watches_eval_sets() const override { return false; }
    bool stops_early() const override { return false; }

protected:
    // The members are fitted already (on these rows): the fit records the shape and checks
    // that every member learned this task, these classes and these input columns.
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Matrix do_predict_proba(const Features& X) const override;
    Json do_save_state() const override;
    Json do_save_state_for_file(JsonTextSlots& slots) const override;
    void do_load_state(const Json& state) override;

private:
    std::vector<EnsembleMember> members_;
    std::vector<std::size_t> inputs_;  // a stack's group sizes; empty for a weighted average
    std::shared_ptr<const Model> stacker_;
    bool features_ = false;  // the stacker takes the raw columns too
    Json save_stack(Json members, Json stacker) const;
};

}  // namespace kestrel::detail
