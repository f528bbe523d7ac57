#pragma once
// `tree`: a CART decision tree for classification (gini, entropy) and regression
// (variance), with optional cost-complexity or reduced-error pruning
// (docs/models/tree.md). Sparse input is used as it is (never densified).
#include <string>
#include <vector>

#include "kestrel/core/estimator.hpp"
#include "kestrel/core/registry.hpp"
#include "kestrel/tree/tree.hpp"

namespace kestrel {

class DecisionTree : public Estimator {
public:
    // Unfitted: the capability of a classifier (asked before fitting, e.g. by cv);
    // fitted: only when the tree learned classification.
    bool has_predict_proba() const override { return !fitted() || task() == Task::classification; }
    bool supports_sample_weights() const override { return true; }
    bool supports_sparse() const override { return true; }
    std::vector<std::string> report_names() const override { return {"tree"}; }

    const Tree& tree() const { return tree_; }
    // Impurity decrease per feature over the tree's splits, summing to 1 (all zeros
    // for a tree that is a single leaf).
    const Vector& feature_importances() const { return importances_; }

protected:
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Matrix do_predict_proba(const Features& X) const override;
    std::string do_report(const std::string& report_name, const ReportNames& names) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    Tree tree_;
    Vector importances_;
};

ModelInfo tree_model_info();

// Shared by the tree models.
// Throws DataError when X holds a NaN or an infinity (trees need ordered values).
void require_finite_features(const Features& X, const std::string& model);
// Normalised to sum 1 (left as zeros when the sum is 0).
Vector normalised(Vector v);
// Class probabilities of each row from one tree's leaf class counts, added into `out`
// (n x k); or, for regression, the leaf value added into `out` (n x 1).
void add_tree_outputs(const Tree& tree, const Features& X, Matrix& out);
// The same for one row (n_features values) into out[0..n_outputs).
void add_tree_output(const Tree& tree, const double* row, double* out);

// The text rendering of a fitted `tree`, `forest` (every tree, numbered) or
// `adaboost` over trees (every round with its α) for `kestrel-train --dump-tree`;
// UsageError for any other model.
std::string dump_tree(const Estimator& model, const std::vector<std::string>& feature_names,
                      const std::vector<std::string>& classes);

// The decision path of one row (n_features values, as the estimator sees them) for
// `kestrel-predict --explain`: the tree's path; every tree's path, numbered, for a
// forest; every round's path with its α for adaboost over trees. UsageError otherwise.
std::string explain_row(const Estimator& model, const double* row, const std::vector<std::string>& feature_names,
                        const std::vector<std::string>& classes);

}  // namespace kestrel
