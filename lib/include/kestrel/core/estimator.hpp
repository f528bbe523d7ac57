#pragma once
// The one interface every model implements. Hyperparameters (set_params) are not
// learned state (save_state): that split keeps cv and gridsearch generic.
//
// The public calls are non-virtual: they check what every model needs checked
// (fitted before predict, feature count, at least two classes, weights) and record
// the fit's shape, then call the model's do_* hooks. A model only writes its maths.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/json_text.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

using Matrix = Eigen::MatrixXd;

// One fitted model per regularization strength, in the order fitted (lasso's λ path).
struct RegularizationPath {
    Vector strengths;
    Eigen::MatrixXd coef;  // strengths.size() x n_features
};

class Estimator;

// Fits of one model repeated on the same rows, only the sample weights changing
// (boosting's rounds): made by Estimator::refitter, it keeps what those fits share.
class Refitter {
public:
    virtual ~Refitter() = default;
    // A fresh estimator of the model refitter() was asked of, fitted on its rows with
    // `weights` (one per row): the same model as fit() on that data with those weights.
    virtual std::unique_ptr<Estimator> fit(const Vector& weights, const Context& ctx) = 0;
};

class Estimator {
public:
    virtual ~Estimator() = default;

    // Identity and hyperparameters (resolved against the model's ParamSpec by the registry).
    const std::string& name() const { return name_; }
    const Params& params() const { return params_; }
    // The model this estimator is: its name, what it can do with these parameters and
    // how to make another (clone_unfitted).
    void set_identity(const ModelInfo& info, Params resolved);
    // New hyperparameters (and name) for the same model: its factory and declared
    // capabilities kept, the capabilities refined anew for these parameters.
    void set_identity(std::string name, Params resolved);

    // Learning. Dense-only models receive sparse data densified (supports_sparse()).
    void fit(const Dataset& data, const Context& ctx);
    // The same fit, to the same model, from data the caller gives up: a model may take
    // the features' storage over rather than copy it (the L1 solvers rearrange the rows
    // into columns in place). `data` is left valid but unspecified.
    void fit(Dataset&& data, const Context& ctx);

    // Classification: class index 0..k-1 (as double); regression: the prediction.
    Vector predict(const Features& X) const;
    // Binary: n x 1, positive means classes[1]. Multiclass: n x k, larger is more likely.
    Matrix decision_function(const Features& X) const;
    // n x k class probabilities, rows summing to 1.
    Matrix predict_proba(const Features& X) const;
    // Per-row feature contributions to the model's raw output (docs/explanations.md):
    // n x K·(n_features + 1), per output o its n_features contributions then the bias,
    // summing to that output: the regression output, gbdt's margins (one column of
    // log-odds for logistic, one per class for softmax), or a tree's or forest's
    // probability of each class. UsageError when the model gives none.
    Matrix contributions(const Features& X) const;

    // What the model can do: its ModelInfo's declared Capabilities, unless the model
    // answers from its fitted state (a tree fitted for regression gives no probabilities)
    // or from what it wraps (multiclass wrappers, adaboost's weak learner).
    virtual bool has_decision_function() const { return capabilities_.decision_function; }
    // Probabilities are for classes: a model fitted for regression gives none.
    virtual bool has_predict_proba() const {
        return capabilities_.predict_proba && (!fitted_ || task_ == Task::classification);
    }
    virtual bool supports_sparse() const { return capabilities_.sparse_input; }
    // Whether an entry absent from a sparse row means "missing" rather than zero
    // (gbdt). Other models may be given LIBSVM data densified (ReadOptions::densify).
    virtual bool absent_is_missing() const { return capabilities_.absent_is_missing; }
    // Whether NaN cells may be given to fit and predict (else the pipeline imputes them),
    // and whether categorical columns may be given as codes (else they are one-hot encoded).
    virtual bool native_missing() const { return capabilities_.native_missing; }
    virtual bool native_categories() const { return capabilities_.native_categories; }
    virtual bool supports_sample_weights() const { return capabilities_.sample_weights; }
    virtual bool has_contributions() const { return capabilities_.contributions; }
    // Whether fit watches Context::eval_sets, and whether it stops early on the last one.
    virtual bool watches_eval_sets() const { return capabilities_.eval_sets; }
    virtual bool stops_early() const { return capabilities_.early_stopping; }
    // Whether fit continues Context::init_model (a fitted estimator of the same model).
    virtual bool continues_training() const { return capabilities_.continue_training; }
    // Fits on rows spread over the ranks of process_group() (Context::rows_sharded).
    virtual bool fits_sharded_rows() const { return capabilities_.sharded_rows; }
    // After a fit that stopped early: the 0-based round it kept (XGBoost's
    // best_iteration), which cv reports per fold; −1 otherwise.
    virtual Index best_iteration() const { return -1; }

    // Learned state only, versioned by state_version(); load_state validates.
    Json save_state() const;
    // The same state for a model file: a model may leave its bulk (a forest's trees) to
    // `slots`, written straight to the text by model_json_text(state, &slots).
    Json save_state(JsonTextSlots& slots) const;
    // `declared_categories`: per feature the estimator sees, the categories the model file
    // declares for it (0: numeric; an empty vector: no feature declares any), from
    // Model::from_json, so that a state's loaders check
    // every category count a state gives against it before sizing anything by it (a
    // model file is hostile input: docs/reliability.md). Null: no file declares them (a
    // state made in process), and only the loaders' own caps apply.
    void load_state(const Json& state, const std::vector<Index>* declared_categories = nullptr);
    virtual int state_version() const { return 1; }
    // The oldest state version load_state still reads (a model that changed its layout
    // keeps reading the files written before).
    virtual int oldest_state_version() const { return state_version(); }

    // A linear model's fitted weights on the features as it sees them, one row per
    // output (one for binary classification and regression, k for multinomial); an
    // empty matrix for any other model.
    virtual Eigen::MatrixXd linear_weights() const { return {}; }
    // The path of a model fitted along a regularization path (lasso, elastic_net); none otherwise.
    virtual std::optional<RegularizationPath> regularization_path() const { return std::nullopt; }

    // A model's own state with the fields save_state adds to every state, for a state
    // built outside a fit (a converted LIBSVM model file).
    static Json with_shape(Json state, int version, Task task, Index n_features, Index n_classes);

    bool fitted() const { return fitted_; }
    Task task() const { return task_; }
    Index n_features() const { return n_features_; }
    Index n_classes() const { return n_classes_; }

    // Named text outputs of a fitted model besides its predictions: "path" (a
    // regularization path, CSV), "trace" (per-round figures of a boosting run, CSV),
    // "tree" (a text rendering of the fitted tree). kestrel-train writes them on
    // request (--path FILE, --trace FILE, --dump-tree); a model lists what it has.
    // Reports name features and classes as the user knows them, which only the Model
    // holding the estimator knows: it passes them in.
    // `categories` (per feature the estimator sees, as Dataset::categories; null or
    // empty when none) lets tree renderings name a category set instead of its codes.
    struct ReportNames {
        ReportNames(const std::vector<std::string>& f, const std::vector<std::string>& c,
                    const CategoryLists* cats = nullptr)
            : features(f), classes(c), categories(cats) {}
        const std::vector<std::string>& features;
        const std::vector<std::string>& classes;
        const CategoryLists* categories;
    };
    // By default the ones its ModelInfo declares for its parameters (ModelInfo::reports);
    // a model whose fitted state narrows them (a multiclass wrapper) answers itself.
    virtual std::vector<std::string> report_names() const { return reports_ ? reports_(params_) : std::vector<std::string>{}; }
    std::string report(const std::string& report_name, const ReportNames& names) const;

    // The decision path of one row (n_features values, as the estimator sees them) for
    // `kestrel-predict --explain`, each line starting with `indent`. Models that walk
    // trees give it (tree, forest, adaboost over trees); UsageError for any other.
    std::string explain_row(const double* row, const ReportNames& names, const std::string& indent = "  ") const;

    // For many fits of this model (these parameters) on `data` with new weights each
    // time: a Refitter that prepares once what does not depend on the weights (a
    // tree's presorted columns). `data` is borrowed: it must outlive the refitter.
    // nullptr (the default) when the model prepares nothing: fit() each time.
    virtual std::unique_ptr<Refitter> refitter(const Dataset& /*data*/, const Context& /*ctx*/) const {
        return nullptr;
    }

    // A lower bound of the bytes one fitted model of this kind keeps after a fit on
    // `rows` x `cols` (its fitted state, not its working memory): a multiclass wrapper
    // multiplies it by its member count and refuses, before fitting, members that cannot
    // fit (check_memory). By default kFittedEstimatorBytes; a model whose state grows
    // with the columns (the linear models' weights) says so.
    static constexpr std::uint64_t kFittedEstimatorBytes = 256;
    virtual std::uint64_t fitted_bytes_lower_bound(Index rows, Index cols) const {
        (void)rows;
        (void)cols;
        return kFittedEstimatorBytes;
    }

    // A fresh, unfitted estimator of the same model from its ModelInfo's factory, with
    // `resolved` hyperparameters (svr's probability folds refit it without probability).
    std::unique_ptr<Estimator> clone_unfitted(const Params& resolved) const;

protected:
    // Called whenever the hyperparameters are set, with them resolved: a model reads
    // them into its typed struct here (kestrel/core/param_binding.hpp), once.
    virtual void on_params(const Params& resolved) { (void)resolved; }
    virtual void do_fit(const Dataset& data, const Context& ctx) = 0;
    // fit(Dataset&&)'s hook; by default the const path.
    virtual void do_fit_owned(Dataset&& data, const Context& ctx) { do_fit(data, ctx); }
    // Default: argmax of predict_proba, else sign/argmax of decision_function.
    virtual Vector do_predict(const Features& X) const;
    virtual Matrix do_decision_function(const Features& X) const;
    virtual Matrix do_predict_proba(const Features& X) const;
    virtual Matrix do_contributions(const Features& X) const;
    virtual std::string do_report(const std::string& report_name, const ReportNames& names) const;
    // explain_row's hook; `names.classes` is empty for regression.
    virtual std::string do_explain_row(const double* row, const ReportNames& names, const std::string& indent) const;
    virtual Json do_save_state() const = 0;
    // do_save_state() with parts as slots; by default, none.
    virtual Json do_save_state_for_file(JsonTextSlots& slots) const;
    virtual void do_load_state(const Json& state) = 0;
    // During do_load_state: what load_state was given (null: no declaration).
    const std::vector<Index>* declared_categories() const {
        return has_declared_categories_ ? &declared_categories_ : nullptr;
    }

private:
    void begin_fit(const Dataset& data, const Context& ctx);  // the checks every fit makes; records its shape
    void check_features(const Features& X) const;
    void take_params(Params resolved);  // params_, and capabilities_ refined for them
    Json finish_state(Json s) const;  // refuses non-finite numbers; adds the common fields

    std::string name_;
    Params params_;
    Capabilities capabilities_;
    std::function<std::unique_ptr<Estimator>()> factory_;
    std::function<Capabilities(const Capabilities&, const Params&)> refine_;
    std::function<std::vector<std::string>(const Params&)> reports_;
    Capabilities declared_;
    bool fitted_ = false;
    std::vector<Index> declared_categories_;  // load_state's, kept for nested loads
    bool has_declared_categories_ = false;
    Task task_ = Task::regression;
    Index n_features_ = 0;
    Index n_classes_ = 0;
};

// Whether a JSON value holds a NaN or an infinity anywhere: such a state or step
// is never saved (JSON would write it as null).
bool has_non_finite(const Json& j);

// Converts class scores to class indices: sign for one column, argmax otherwise
// (ties go to the lowest class index). Throws DataError for a score that is not finite
// (require_finite_scores): a NaN would silently give class 0.
Vector scores_to_classes(const Matrix& scores);

// Throws DataError naming the row when a score (a prediction, decision value or
// probability) is NaN or infinite: the numbers of a model overflowed on that row (a
// model file with coefficients, scales or leaf values near 1e308). `model` names it.
// It checks only inside a FiniteScoresCheck that is on (on this thread): a Model read
// from a file predicts so; a model fitted in process (a search's candidate on a fold)
// keeps scoring as before.
void require_finite_scores(const Matrix& scores, const std::string& model);

class FiniteScoresCheck {
public:
    explicit FiniteScoresCheck(bool on);
    ~FiniteScoresCheck();
    FiniteScoresCheck(const FiniteScoresCheck&) = delete;
    FiniteScoresCheck& operator=(const FiniteScoresCheck&) = delete;

private:
    bool previous_;
};

}  // namespace kestrel
