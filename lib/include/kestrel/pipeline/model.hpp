#pragma once
// A trained model as the user knows it: preprocessing steps + an estimator + what it
// was trained on (task, feature names, class labels) + provenance. It is what
// kestrel-train writes, kestrel-predict reads, and what cv/gridsearch fit per fold,
// so preprocessing is always fitted on training rows only.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kestrel/calibration/calibration.hpp"
#include "kestrel/core/context.hpp"
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/estimator.hpp"
#include "kestrel/io/read_options.hpp"
#include "kestrel/preprocess/transformer.hpp"

namespace kestrel {

inline constexpr const char* kModelFormat = "kestrel-model";
// Version 2 adds the optional "threshold" field, version 3 the optional
// "features.categories", version 4 the optional "calibration" and "feature_mean" (a
// linear model's training mean, for its contributions), version 5 the model kind
// "ensemble" (kestrel-auto --ensemble: whole member models and their weights), version 6
// the optional "label" (the training file's label column and ignored columns); a file is
// written with the lowest version that holds it, so that older readers keep reading what
// they can (and refuse an ensemble as a newer format rather than an unknown model);
// version 7 a stack (an ensemble with a second layer: "inputs" and "stacker" in its state);
// version 8 a stack whose second layer also takes the row's own columns ("stack_features").
inline constexpr int kModelFormatVersion = 8;
// The model kind of a weighted average of whole Models (docs/model-format.md). It is not
// in the registry: nothing trains it from parameters; kestrel-auto --ensemble builds it
// from members it has fitted (Model::ensemble).
inline constexpr const char* kEnsembleModel = "ensemble";
const char* kestrel_version();

class ResolvedParams;
struct EnsembleMember;
namespace detail {
class EnsembleEstimator;
}

// What to train: a model name, its parameters as given, and the preprocessing steps to
// fit first.
struct ModelSpec {
    std::string model;
    Params params = Params::object();
    std::vector<std::string> preprocessing;  // step kinds in order, e.g. {"impute_mean", "standard"}
    std::optional<Task> task;                // forced task; else the model's choice for the labels
    std::string resample;                    // train-time class rebalancing ("smote:5"; see preprocess/resample.hpp)
    // Missing cells: "auto" (the model's own handling when it has one, else "median"),
    // "keep" (the model must handle them), or an imputer: "mean", "median",
    // "most_frequent", "constant=VALUE" (categorical columns always take their most
    // frequent category). See preprocess/encoders.hpp.
    std::string missing = "auto";
    bool missing_indicator = false;          // imputers append a 0/1 column per feature with missing cells
    // Categorical columns: "auto" (as they are for a model that splits categories
    // natively, else "onehot"), "onehot", or "ordinal" (the codes as numbers, unknown =
    // -1), for every model; rare-category folding for onehot.
    std::string encode = "auto";
    Index max_categories = 0;                // 0 = no limit
    double min_frequency = 0;
    // Probability calibration of a classifier: "" (none), "sigmoid" or "isotonic", fitted
    // on the out-of-fold scores of calibrate_folds stratified folds (docs/calibration.md).
    std::string calibrate{};
    int calibrate_folds = 5;
    // `params` checked against the model's spec, by resolve_params() where the spec is
    // made, so that a command resolves its -m parameters once; empty on a spec built or
    // edited without it (resolved_params() then resolves where it is needed).
    std::shared_ptr<const ResolvedParams> resolved{};
};

// Resolves spec.params once and keeps the result in spec.resolved (UsageError for an
// unknown model, ParamError for a bad value).
void resolve_params(ModelSpec& spec);
// spec.params resolved: spec.resolved when it is the resolution of these very params,
// else a new resolution (a spec edited after resolve_params, or never passed to it).
std::shared_ptr<const ResolvedParams> resolved_params(const ModelSpec& spec);

// A decision threshold of a binary classifier: predict classes[1] when the score is
// above `value`. The score is P(classes[1]) when the model gives probabilities, else
// its decision value.
struct DecisionThreshold {
    double value = 0;
    std::string score;      // "proba" or "decision"
    std::string criterion;  // how it was chosen ("recall=0.9", "f1", "user"), for the record
};

// The task a model learns from these labels: forced, or the model's only task, or
// classification unless every label is a number and some are not integers or they take
// more than kMaxIntegerClasses distinct values.
inline constexpr std::size_t kMaxIntegerClasses = 30;
Task choose_task(const ModelSpec& spec, const RawLabels& labels);

// Builds a Dataset from a read Table for training under `task`.
Dataset make_dataset(Table table, Task task);

// Where a table read with `read` found its label (Dataset::label_column): the header name,
// or for a CSV file without a header the field index; unknown for a LIBSVM file.
LabelColumn label_column_of(const Table& table, const ReadOptions& read);

// A LIBSVM model file (svm-train's text; svm/libsvm_model.hpp reads it into the SVM
// family's SvmModel) as the model envelope kestrel-train would have written for it.
// ModelFileError ("source:line: what") on a malformed file.
Json libsvm_model_to_json(std::string_view text, const std::string& source);
// An XGBoost model file (Booster.save_model's JSON or UBJSON; boosting/xgboost_model.hpp
// reads its trees into gbdt's state) as the gbdt model envelope. ModelFileError
// ("source: XGBoost model: what") naming the field of a malformed or unsupported file.
Json xgboost_model_to_json(std::string_view text, const std::string& source);

class Model {
public:
    // Fits preprocessing then the estimator on `data` (the dataset's task is used).
    // ctx.eval_sets, if any, are raw rows read like `data` (labels in its encoding): the
    // fitted preprocessing is applied to them before the estimator watches them.
    static Model train(const ModelSpec& spec, const Dataset& data, const Context& ctx);
    // The same model from data the caller gives up (left valid but unspecified): the
    // estimator may take the features' storage over instead of copying them.
    static Model train(const ModelSpec& spec, Dataset&& data, const Context& ctx);
    // The weighted average of `members`, every one fitted on `data` (the same task,
    // classes and input columns): predict_proba is sum_m w_m P_m(X) for a classifier,
    // predict the argmax of it (the first class on ties); a regressor predicts
    // sum_m w_m f_m(X). Each member keeps its own preprocessing. The weights must be
    // positive and sum to 1 (UsageError otherwise).
    static Model ensemble(std::vector<EnsembleMember> members, const Dataset& data, const Context& ctx);
    // A stack (kestrel-auto --stack, docs/auto.md "Stacking"): `inputs` are the first
    // layer, each the weighted average of its members (a candidate's bag: its K fold models
    // of weight 1/K), all fitted on `data`; their predictions on a row (a classifier's
    // probabilities of each class, a regressor's value), input after input, are the
    // columns the second-layer model `stacker` was fitted on and predicts from (of kind
    // ensemble itself when it is a bag). With `features` (kestrel-auto --stack-features)
    // the row's own columns, as the stack is given them, follow the inputs' columns: the
    // stacker was fitted on both. Saved as a model of kind ensemble, envelope version 7
    // (8 with features). UsageError for weights as Model::ensemble's, per input.
    static Model stacked(std::vector<std::vector<EnsembleMember>> inputs, Model stacker, const Dataset& data,
                         const Context& ctx, bool features = false);
    // An ensemble's members, in the order saved (a stack's first layer, input after input);
    // nullptr for any other model.
    const std::vector<EnsembleMember>* ensemble_members() const;
    // A stack's second-layer model; nullptr for any other model.
    const Model* stacker() const;
    // Whether a stack's second layer takes the row's own columns too (--stack-features).
    bool stacker_takes_features() const;

    // Prediction on raw features (the preprocessing is applied here).
    Vector predict(const Features& X) const;  // class index or value
    Matrix decision_function(const Features& X) const;
    Matrix predict_proba(const Features& X) const;
    // Per-row feature contributions (docs/explanations.md), one column per input column
    // of the data (a category's one-hot columns and a missing indicator summed into their
    // column) then the bias, for each explained output: n x K·(n_features + 1). Tree
    // models: Estimator::contributions; a linear model: w_j (x_j − mean_j) with the
    // training mean of the columns it sees, the bias its decision value (or prediction) at
    // that mean. UsageError when the estimator gives none, a linear model's file holds no
    // mean, or a preprocessing step mixes columns.
    Matrix contributions(const Features& X) const;
    // Per column the estimator sees, the input column its contributions go to; the same
    // UsageError as contributions() when there are none.
    std::vector<Index> contribution_sources() const;
    // Their column names for K outputs: the feature names and `bias`; each prefixed by
    // `CLASS:` when K > 1 (one output per class).
    std::vector<std::string> contribution_names(Index outputs) const;
    // Each row's path through the model's trees (kestrel-predict --explain): per row
    // "row N: predicted LABEL" (`predicted` as predict() gives it), then the split lines
    // and the leaf as report("tree") renders them. check_explains_rows() first.
    std::string explain_rows(const Features& X, const Vector& predicted) const;
    // UsageError unless the model renders rows' paths (Capabilities::explains_rows: the
    // error lists the models that do, from the registry).
    void check_explains_rows() const;
    bool has_decision_function() const { return estimator_->has_decision_function(); }
    bool has_predict_proba() const { return estimator_->has_predict_proba() || calibration_.has_value(); }
    // With a calibration, predict_proba is calibrated and predict() its argmax (or the
    // threshold on its P(classes[1])); decision_function stays the estimator's.
    const std::optional<Calibration>& calibration() const { return calibration_; }
    // The scores the calibration maps: the decision values when they have a column per
    // calibrator, else the probabilities (binary: of classes[1]), as scikit-learn.
    Matrix calibration_scores(const Features& X) const;

    // Binary classifiers with scores only (UsageError naming --threshold otherwise).
    // predict() then compares the score with it; decision_function / predict_proba are unchanged.
    void set_threshold(const DecisionThreshold& t);
    const std::optional<DecisionThreshold>& threshold() const { return threshold_; }
    // "proba" or "decision": the score a threshold applies to; empty when the model has neither.
    std::string threshold_score() const;

    // The read options a predict-time file needs to line up with this model. Where `base`
    // names no label column, the training file's (label_column()) is the label: by name in
    // a file with a header, by field in one without; a file without it has no labels. A
    // model file without the record keeps the reader's default ("label", else the first
    // column).
    ReadOptions align_options(ReadOptions base) const;
    // The training file's label column and ignored columns; unknown for a model trained on
    // a LIBSVM file or on rows built in code, and in a model file older than version 6.
    const LabelColumn& label_column() const { return label_column_; }

    // For a fit that continues this model (Context::init_model = &estimator(), `kestrel-train
    // --init-model`): checks that `spec` names this model's kind and that `data`, as read for
    // training, has its task, feature names and count, categories and classes (a sparse
    // file not mentioning the last features is widened). UsageError (exit 1) for another
    // kind of model, a model that cannot continue or one with preprocessing steps;
    // DataError (exit 2) naming what differs in the data.
    void check_continuation(const ModelSpec& spec, Dataset& data) const;

    // Envelope: format, version, kestrel_version, model, task, params, features,
    // classes, preprocessing, state (with state_version), provenance.
    Json to_json() const;
    // The envelope for a model file: the estimator's bulk left to `slots` (see save_state).
    Json to_json(JsonTextSlots& slots) const;
    static Model from_json(const Json& j, const std::string& source);  // ModelFileError
    void save(const std::string& path) const;                          // atomic; "-" = stdout
    static Model load(const std::string& path);

    const std::string& model_name() const { return spec_.model; }
    const Params& params() const { return estimator_->params(); }
    Task task() const { return task_; }
    const std::vector<std::string>& classes() const { return classes_; }
    const std::vector<std::string>& feature_names() const { return feature_names_; }
    const CategoryLists& categories() const { return categories_; }
    // --encode as trained ("auto", "onehot", "ordinal"); a loaded model's is "auto" (its
    // steps and estimator say what was done).
    const std::string& encoding() const { return spec_.encode; }
    // The kinds of the fitted preprocessing steps, in order ("impute", "onehot", "standard").
    std::vector<std::string> step_kinds() const {
        std::vector<std::string> kinds;
        for (const auto& s : steps_) kinds.push_back(s->kind());
        return kinds;
    }
    // The names of the columns the estimator sees: the input names (x1..xd when the
    // file had none) renamed by each step (select_columns keeps some, poly multiplies them).
    std::vector<std::string> prepared_feature_names() const;
    // Per column the estimator sees, its category names when it is a categorical column
    // passed on as codes (ReportNames::categories; empty lists for the others); empty
    // when the input had no categories.
    CategoryLists prepared_categories() const;
    // The input columns' names: the file's, or x1..xd when it had none.
    std::vector<std::string> input_names() const;
    Index n_features() const { return n_features_; }
    const Estimator& estimator() const { return *estimator_; }
    // Raw features as the estimator sees them (aligned, preprocessing applied), their own
    // values (never a view of X's).
    Features prepared(const Features& X) const {
        Features p = prepare(X);
        p.own();
        return p;
    }
    // A named report of the fitted estimator ("path", "trace", "tree"), with the
    // model's feature names (or x1..xd) and classes.
    std::string report(const std::string& name) const;
    Json& provenance() { return provenance_; }

private:
    // The parts of train: the record of the data and the unfitted estimator (checking
    // the task and the resampling first), the preprocessing steps fitted and applied, and
    // the estimator fitted (on resampled rows with --resample).
    static Model untrained(const ModelSpec& spec, const Dataset& data);
    // An ensemble or a stack over members fitted on `data`: its shape recorded, the members checked.
    static Model combined(std::shared_ptr<detail::EnsembleEstimator> estimator, const Dataset& data, const Context& ctx);
    // The rows as the estimator sees them after the fitted steps; nullopt when no step
    // applies (the estimator then fits the rows as given). `rows_sharded`: the steps fit
    // on statistics summed over the ranks (Transformer::fit_on_shards), UsageError for a
    // step that cannot.
    std::optional<Dataset> fit_steps(const Dataset& data, bool rows_sharded = false);
    // The steps a raw table needs before this estimator: imputation, one-hot encoding.
    std::vector<std::string> table_steps(const Features& X, const std::vector<Index>& category_counts,
                                         bool rows_sharded = false) const;
    Dataset resampled(const Dataset& data, const Context& ctx);
    void fit_estimator(const Dataset& data, const Context& ctx);
    void fit_estimator(Dataset&& data, const Context& ctx);
    // ctx's eval sets (raw rows, as read) with the fitted steps applied, and fit_ctx
    // pointing at them; UsageError when the estimator watches none.
    std::vector<Dataset> prepared_eval_sets(const Context& ctx, Context& fit_ctx) const;
    void refuse_steps_on_continuation(const Context& ctx) const;  // UsageError
    // prepared() for the scoring calls: without steps a view of X's rows (no copy), valid
    // while X lives.
    Features prepare(const Features& X) const;
    // Calibration (model_calibration.cpp): the calibrators fitted on out-of-fold scores.
    void calibrate(const Dataset& data, const Context& ctx);
    static Matrix uncalibrated_scores(const Estimator& e, const Features& prepared, Index n_columns);
    Matrix probabilities(const Features& prepared) const;
    void load_calibration(const Json& j, const std::string& source);  // ModelFileError
    Json to_json(JsonTextSlots* slots) const;

    ModelSpec spec_;
    Task task_ = Task::regression;
    std::vector<std::string> classes_;
    std::vector<std::string> feature_names_;
    CategoryLists categories_;  // per input feature; empty when every column is numeric
    // Read from a model file (from_json): its scores are checked to be finite when it
    // predicts (FiniteScoresCheck; docs/model-format.md, "A model file is hostile input").
    bool from_file_ = false;
    Index n_features_ = 0;
    std::vector<std::shared_ptr<const Transformer>> steps_;
    std::shared_ptr<Estimator> estimator_;
    std::optional<DecisionThreshold> threshold_;
    std::optional<Calibration> calibration_;
    // A linear estimator's training mean of the columns it sees (its contributions' centre).
    std::optional<Vector> feature_mean_;
    LabelColumn label_column_;
    Matrix linear_contributions(const Features& P) const;
    Json provenance_ = Json::object();
};

// One member of an ensemble model: a whole Model and its weight.
struct EnsembleMember {
    Model model;
    double weight = 0;
};

}  // namespace kestrel
