#pragma once
// The pieces of model_to_onnx, each adding its nodes to one graph. Every matrix between
// them is a double tensor [N, columns], so that the steps compute what kestrel computes
// (in double) from the float32 inputs.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/exchange/onnx_graph.hpp"

namespace kestrel {

class Model;
class Tree;

// The graph inputs, one per column of the training table, joined in kestrel's column order
// into a double matrix (a categorical column as its category codes: NaN when missing, -1
// for a category unseen in training).
std::string onnx_input_matrix(const Model& model, OnnxGraphBuilder& g);
// The model's fitted preprocessing steps applied to X; ExportRefused naming a step ONNX
// cannot express.
std::string onnx_pipeline_steps(const Model& model, const std::string& X, OnnxGraphBuilder& g);

// What an estimator's nodes give, as double: a classifier's probabilities [N, classes] in
// kestrel's class order, or (a classifier without them) its decision values [N, columns] as
// kestrel's decision_function (one column: positive for classes[1]); a regressor's
// prediction [N, 1].
struct OnnxScores {
    OnnxScores(std::string scores, bool are_probabilities, std::string ranked_for_label = {})
        : tensor(std::move(scores)), probabilities(are_probabilities), label_scores(std::move(ranked_for_label)) {}
    std::string tensor;
    bool probabilities = false;
    // What the label's ArgMax ranks, when not `tensor` (the kernel SVMs' one-vs-one votes,
    // [N, classes]: their label is the vote, whatever the probabilities say).
    std::string label_scores;
    // A classifier's decision values as decision_function gives them, when `tensor` holds its
    // probabilities and the estimator has both (what a calibration maps; built for a
    // calibrated model); empty otherwise. A regressor's decision values beside its prediction
    // (one_class: Σ coef K − rho, the `scores` output); empty otherwise.
    std::string decision;
    // A classifier's decision columns when not the usual (one for two classes, else one per
    // class): ecoc's k columns for two classes too. 0: the usual.
    Index columns = 0;
};

// The estimator one family's exporter turns into nodes: the model's own, or one nested in it
// (a multiclass wrapper's member, adaboost's weak learner), which reads the same prepared
// matrix as the model and was fitted on `classes` classes (2 for a wrapper's member).
class Estimator;
struct OnnxEstimator {
    const Model& model;  // the envelope: its name, categories and steps
    const Estimator& estimator;
    Index classes = 0;  // 0: a regressor
    // The decision values are wanted beside the probabilities (OnnxScores::decision): the
    // model's calibration maps them, or a wrapper combines its members' decision values.
    bool wants_decision = false;
    // A member or weak learner: no calibration or threshold of its own. Nested without
    // wants_decision (adaboost's weak learners): only its label is read (onnx_label_index).
    bool nested = false;
    bool classifier() const { return classes > 0; }
    // The model's own estimator.
    static OnnxEstimator of(const Model& model);
    // A member of `parent`'s estimator fitted on `classes` classes; `decision`: its decision
    // values wanted beside its probabilities.
    static OnnxEstimator member(const OnnxEstimator& parent, const Estimator& e, Index classes, bool decision = true);
};

// The estimator's scores on the prepared matrix X. `float_inputs`: the model's raw columns
// are the graph's float32 inputs (not a stack's second-layer columns, computed in double),
// so that trees seeing them unchanged take thresholds chosen for them. ExportRefused for an
// estimator (or a setting of it) ONNX cannot express.
OnnxScores onnx_estimator_scores(const Model& model, const std::string& X, bool float_inputs, OnnxGraphBuilder& g);
// The same for a model's own estimator or one nested in it.
OnnxScores onnx_estimator_scores(const OnnxEstimator& e, const std::string& X, bool float_inputs, OnnxGraphBuilder& g);
// The class index an estimator's predict gives from its scores [N] (int64): the argmax of
// its label scores (the first on ties), one decision column: 1 where it is above 0.
std::string onnx_label_index(const OnnxScores& scores, Index classes, OnnxGraphBuilder& g);
// A whole model's scores on its raw columns `raw` (double [N, columns]): its fitted steps,
// its estimator and its calibration, as Model::predict_proba / predict; an ensemble's
// weighted average of its members' (a stack's second layer on its groups' averages).
OnnxScores onnx_model_scores(const Model& model, const std::string& raw, bool float_inputs, OnnxGraphBuilder& g);
// The same for an ensemble model (kestrel-auto's bags, weighted ensembles and stacks).
OnnxScores onnx_ensemble_scores(const Model& model, const std::string& raw, bool float_inputs, OnnxGraphBuilder& g);
// A probability calibration's probabilities [N, classes] on the estimator's scores, as
// Model::probabilities computes them (the calibration's input as uncalibrated_scores takes
// it); ExportRefused when the scores it maps are not in the graph.
OnnxScores onnx_calibrated_scores(const Model& model, const OnnxScores& scores, OnnxGraphBuilder& g);
// Platt's sigmoid 1 / (1 + exp(a s + b)) of every column of s at once (a, b: [1, columns]
// rows or scalars), in the form sigmoid_probability evaluates it: e = exp(−|a s + b|), then
// e / (1 + e) where a s + b ≥ 0, else 1 / (1 + e).
std::string onnx_platt_sigmoid(OnnxGraphBuilder& g, const std::string& s, const std::string& a, const std::string& b);
// Column `c` of a [N, columns] tensor as [N, 1] (c = -1: the last).
std::string onnx_column(OnnxGraphBuilder& g, const std::string& x, std::int64_t c);

// The same for the tree models (tree, forest, gbdt, adaboost over trees); nullopt for another
// estimator.
std::optional<OnnxScores> onnx_tree_scores(const OnnxEstimator& e, const std::string& X, bool float_inputs,
                                           OnnxGraphBuilder& g);
// The same for the linear family; nullopt for another estimator.
// (adaboost's weak learners of another family through onnx_estimator_scores: `float_inputs`.)
std::optional<OnnxScores> onnx_linear_scores(const OnnxEstimator& e, const std::string& X, bool float_inputs,
                                             OnnxGraphBuilder& g);
// A multiclass wrapper's scores from its members' [N, members] decision values (ovr, ovo,
// ecoc) and, where the wrapper gives probabilities (ovr, ovo), their P(positive) [N, members]
// (`positive`; empty: ExportRefused for a wrapper with probabilities). `e`: the wrapper.
class MulticlassWrapper;
OnnxScores onnx_multiclass_scores(const OnnxEstimator& e, const MulticlassWrapper& wrapper, const std::string& members,
                                  OnnxGraphBuilder& g, const std::string& positive = {});
// A wrapper whose members are of any family that exports: each member's nodes as that family
// exports the member alone (OnnxEstimator::member), its score column as member_scores takes
// it (the decision value, else P(positive) − ½) and its P(positive), then the combination.
OnnxScores onnx_wrapper_scores(const OnnxEstimator& e, const MulticlassWrapper& wrapper, const std::string& X,
                               bool float_inputs, OnnxGraphBuilder& g);
// Pairwise coupling of k classes' pair probabilities into class probabilities [N, k], as
// pairwise_coupling computes it (Wu, Lin & Weng 2004, method 2; LIBSVM's
// multiclass_probability): `upper` [N, pairs] holds r(i, j) and `lower` r(j, i) for the
// pairs i < j in order (0,1), (0,2), ..., (1,2), .... An opset-15 Loop of at most
// max(100, k) iterations whose body updates every row at once, a row keeping its values from
// the iteration its stopping rule holds on, as kestrel's loop breaks there.
std::string onnx_pairwise_coupling(OnnxGraphBuilder& g, Index k, const std::string& upper, const std::string& lower);
// The same for the kernel models (svc, nu_svc, svr, nu_svr, one_class, kernel_ridge,
// kernel_logistic, kernel_perceptron); nullopt for another estimator.
std::optional<OnnxScores> onnx_kernel_model_scores(const OnnxEstimator& e, const std::string& X, OnnxGraphBuilder& g);

// The same for knn (euclidean, manhattan, cosine); nullopt for another estimator.
std::optional<OnnxScores> onnx_knn_scores(const OnnxEstimator& e, const std::string& X, OnnxGraphBuilder& g);

// Tree ensembles through ai.onnx.ml's TreeEnsembleRegressor, exact in double: the operator
// finds each row's leaf in every tree (one target per tree, each leaf's weight its index in
// a table of the leaves: a whole number, exact in its float output), and the leaves'
// values are gathered from that table in double and summed per output. The operator's own
// sums would be rounded to float (its only output type in ai.onnx.ml 3).
class TreeEnsembleNodes {
public:
    // The codes a categorical split sends left (with those its missing direction takes when
    // that is left: -1 and the codes it never saw); nullopt at a numeric split.
    using CategoryRoute = std::function<std::optional<std::vector<int>>(const Tree&, int node)>;
    // A leaf's contributions: (output, value) pairs.
    using LeafOutputs = std::function<std::vector<std::pair<std::int64_t, double>>(const Tree&, int leaf)>;

    // `float_thresholds`: the trees see the float32 inputs unchanged (or integers made from
    // them): each numeric threshold is then a float chosen so that a float input goes where
    // kestrel sends the double read from the same decimal (float_threshold).
    TreeEnsembleNodes(std::int64_t outputs, bool float_thresholds)
        : outputs_(outputs), float_thresholds_(float_thresholds) {}
    // Appends a tree; a categorical split becomes a chain of BRANCH_EQ nodes, one per code
    // sent left.
    void add_tree(const Tree& tree, const CategoryRoute& route, const LeafOutputs& leaf);
    // The nodes on X (double); returns the double [N, outputs] tensor of base_values (empty:
    // zeros) plus each output's sum over the trees. ExportRefused past 2^24 leaves (the
    // float32 output holds whole numbers exactly up to there).
    std::string emit(OnnxGraphBuilder& g, const std::string& X, const std::vector<double>& base_values) const;

private:
    struct Split {
        std::int64_t id, feature, true_id, false_id;
        std::string mode;
        double value;
        bool missing_true;
    };
    void add_node(std::int64_t tree, const Split& s);

    std::int64_t outputs_;
    bool float_thresholds_;
    std::int64_t trees_ = 0;
    std::vector<std::int64_t> tree_ids_, node_ids_, features_, true_ids_, false_ids_, missing_true_;
    std::vector<std::string> modes_;
    std::vector<double> values_;
    std::vector<std::int64_t> target_tree_ids_, target_node_ids_;
    std::vector<double> leaf_table_;  // leaves x outputs, row-major
};

// Whether the model's steps pass the float32 inputs on unchanged (imputation, one-hot
// encoding and column selection copy them or make integers): no scaling, no products.
bool steps_keep_input_values(const Model& model);

// logistic_probabilities' two columns of a decision column z [N, 1]: (σ(−z), σ(z)), each
// side from its own sign.
std::string onnx_logistic_pair(OnnxGraphBuilder& g, const std::string& z);

// A double tensor as float (Cast to float32).
std::string onnx_to_float(OnnxGraphBuilder& g, const std::string& x);

}  // namespace kestrel
