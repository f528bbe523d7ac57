#pragma once
// What a model is, declared once beside its parameters: its name, its ParamSpec, the
// tasks it learns, how it handles k > 2 classes, what it can do (Capabilities) and how
// to make one. Each family returns its models' ModelInfo; the pipeline's Registry
// collects them. Callers ask these declarations, never a throwaway estimator.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/params.hpp"
#include "kestrel/core/search_space.hpp"

namespace kestrel {

class Estimator;

enum class Multiclass {
    native,       // the model handles k classes itself (multinomial, trees, ...)
    binary_only,  // needs a one-vs-rest / one-vs-one wrapper for k > 2
};

// What a model can do with its default parameters. A parameter that changes an answer
// (svc's probability, adaboost's base) is declared by ModelInfo::refine.
struct Capabilities {
    bool decision_function = false;  // decision values (margins, or the regression output for svr)
    bool predict_proba = false;      // class probabilities (classification only)
    bool sparse_input = false;       // takes CSR features without densifying them
    bool sample_weights = false;     // per-row weights in fit
    bool absent_is_missing = false;  // an absent sparse entry means "missing", not 0 (gbdt)
    bool native_missing = false;     // NaN cells are learned from (a default direction per split)
    bool native_categories = false;  // splits on category codes itself (Dataset::category_counts)
    bool contributions = false;      // per-row feature contributions (Estimator::contributions: TreeSHAP)
    bool eval_sets = false;          // watches Context::eval_sets while fitting (gbdt: metrics per round)
    bool early_stopping = false;     // stops on the last eval set: cv hands it the held-out fold
    bool continue_training = false;  // a fit continues Context::init_model: adds rounds (gbdt), starts from its weights (logistic)
    bool sharded_rows = false;       // fits on rows spread over MPI ranks (Context::rows_sharded)
    bool streamed_rows = false;      // fits on rows read as a stream, block by block (common/row_blocks.hpp)
    bool explains_rows = false;      // renders a row's path through its trees (Estimator::explain_row)
    // Fits from rows held quantized (common/quantized_table.hpp, docs/large-data.md): reads
    // the store's codes where the rows' X is its shape (gbdt; forest tree_method=hist).
    bool quantized_rows = false;
    bool operator==(const Capabilities&) const = default;
};

struct ModelInfo {
    std::string name;
    std::string summary;      // one line, for --list-models
    ParamSpec spec;           // the model's own parameters
    std::vector<Task> tasks;  // what it can learn; the first is its default
    Multiclass multiclass = Multiclass::native;
    // false: the model fits the features alone (one_class) and never reads a label value,
    // so a label column of words trains it as well as one of numbers.
    bool uses_labels = true;
    std::string default_strategy = "ovr";  // used for k > 2 when binary_only and multiclass=auto
    // Extra `multiclass` values the model implements itself (no wrapper), e.g. linear_svm's
    // crammer_singer; the model reads the value from its params.
    std::vector<std::string> native_strategies;
    // For a native-multiclass model: the parameters under which its solver is binary
    // only (logistic penalty=l1, LIBLINEAR -s 6). With multiclass=auto it then wraps
    // itself in default_strategy for k > 2, keeping two-class model files unwrapped.
    std::function<bool(const Params& resolved)> binary_only_when;
    // For a model that learns regression: the parameters under which it ranks the rows of
    // each query group rather than scoring them one by one (gbdt's ranking losses). Its task
    // stays regression, in the model file too; the commands print it as "ranking"
    // (Registry::task_label). None by default.
    std::function<bool(const Params& resolved)> ranks_when;
    Capabilities capabilities;
    // Adjusts `capabilities` for resolved parameters that change them; none by default.
    std::function<Capabilities(const Capabilities& declared, const Params& resolved)> refine;
    // The named text reports a model fitted with these resolved parameters gives besides
    // its predictions ("path", "trace", "tree", "c_search": Estimator::report); none by default.
    std::function<std::vector<std::string>(const Params& resolved)> reports;
    // Where kestrel-gridsearch (without a grid) and kestrel-auto search the model; none
    // (SearchSpace::declared() false) by default.
    SearchSpace search_space;
    // The bytes a fit with these resolved parameters holds beside its training data (its
    // own arrays, a row each and at their largest) for `rows` rows of a label of `classes`
    // classes (0: regression) on `threads` threads. The quantized store counts them with its
    // codes when it chooses memory or disk (docs/large-data.md). None by default: not counted.
    std::function<std::uint64_t(const Params& resolved, std::int64_t rows, std::int64_t classes, int threads)> fit_bytes;
    std::function<std::unique_ptr<Estimator>()> factory;

    bool supports(Task t) const;
    bool is_classifier() const { return supports(Task::classification); }
    // The capabilities with these resolved parameters.
    Capabilities capabilities_for(const Params& resolved) const {
        return refine ? refine(capabilities, resolved) : capabilities;
    }
    std::vector<std::string> reports_for(const Params& resolved) const {
        return reports ? reports(resolved) : std::vector<std::string>{};
    }
};

// What every model declares (its name, one-line summary, parameters, tasks and default
// capabilities), the rest of ModelInfo at its defaults: a *_model_info() starts here and
// sets only the fields in which it differs (multiclass, refine, reports, search_space...).
ModelInfo model_info(std::string name, std::string summary, ParamSpec spec, std::vector<Task> tasks,
                     Capabilities capabilities);

// The same, made by a default-constructed `Model`: the factory of every model but one that
// needs a constructor argument (adaboost's EstimatorMaker), which sets its own.
template <class Model>
ModelInfo model_info_of(std::string name, std::string summary, ParamSpec spec, std::vector<Task> tasks,
                        Capabilities capabilities) {
    ModelInfo info = model_info(std::move(name), std::move(summary), std::move(spec), std::move(tasks), capabilities);
    info.factory = [] { return std::make_unique<Model>(); };
    return info;
}

// What makes estimators by model name. The pipeline's Registry is one; a model that
// builds others of any kind (adaboost's weak learner) is handed it through its
// ModelInfo's factory, so that core and the families never reach for a global list.
class EstimatorMaker {
public:
    virtual ~EstimatorMaker() = default;
    // A fresh estimator of model `name`, `given` resolved against its spec (UsageError
    // for an unknown name, ParamError for a bad parameter).
    virtual std::unique_ptr<Estimator> create(const std::string& name, const Params& given) const = 0;
    // The model itself, `given` resolved against its own parameters only: never wrapped,
    // without the registry's common multiclass parameters.
    virtual std::unique_ptr<Estimator> create_unwrapped(const std::string& name, const Params& given) const = 0;
    virtual const ModelInfo& info(const std::string& name) const = 0;
    virtual std::vector<std::string> names() const = 0;  // sorted
};

}  // namespace kestrel
