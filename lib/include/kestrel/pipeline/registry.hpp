#pragma once
// Model name -> ModelInfo (factory, parameter spec, capabilities, summary). Filled by
// one explicit register_builtin_models() (static self-registration is dropped by the
// linker in static libraries). The executables see only names, parameters and
// declared capabilities.
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

// A model's parameters checked against its spec (types, ranges, choices; aliases renamed;
// defaults filled in), kept beside the values they came from. Only the registry makes
// one, so holding one means the work is done: a command resolves -m's parameters once
// and hands the result to create(), capabilities() and reports().
class ResolvedParams {
public:
    const std::string& model() const { return model_; }
    const Params& given() const { return given_; }    // as the user gave them (what a model file records)
    const Params& values() const { return values_; }  // what the estimator is built with

private:
    friend class Registry;
    ResolvedParams(std::string model, Params given, Params values)
        : model_(std::move(model)), given_(std::move(given)), values_(std::move(values)) {}
    std::string model_;
    Params given_;
    Params values_;
};

class Registry : public EstimatorMaker {
public:
    Registry() = default;
    // Estimators made here may keep a pointer to it (adaboost's weak learners).
    Registry(const Registry&) = delete;
    Registry& operator=(const Registry&) = delete;

    // Adds a model whose ModelInfo `make` builds at its first use (classifiers then get the
    // common `multiclass` parameter appended): a command touches one or two of the models,
    // and building all 25 parameter specs was ~0.4 ms of every process.
    void add(std::string name, std::function<ModelInfo()> make);
    const ModelInfo& info(const std::string& name) const override;  // UsageError listing valid names
    bool contains(const std::string& name) const;
    std::vector<std::string> names() const override;  // sorted
    // The models that have the capability `has` with their default parameters, sorted: the
    // lists that help texts and errors give ("valid: adaboost, forest, tree").
    std::vector<std::string> names_with(bool Capabilities::*has) const;
    // [{"name", "summary", "tasks": [...]}...] by name: the models as kestrel-train
    // --list-models --json lists them, for any front end to list.
    Json models_json() const;
    // `given` checked against model `name`'s spec: UsageError for an unknown model,
    // ParamError for a bad value.
    std::shared_ptr<const ResolvedParams> resolve(const std::string& name, const Params& given) const;

    // What the model can do with these parameters: what the estimator create() makes
    // answers before it is fitted (a multiclass wrapper's: wrapped_capabilities).
    Capabilities capabilities(const ResolvedParams& params) const;
    // The reports (--path, --trace, --dump-tree) the model gives with these parameters.
    std::vector<std::string> reports(const ResolvedParams& params) const;
    // The task as the commands print it: "ranking" for regression by a model whose
    // parameters make it rank rows within query groups (ModelInfo::ranks_when: gbdt
    // loss=lambdarank|rank_pairwise), else to_string(task). Model files keep the task.
    std::string task_label(const ResolvedParams& params, Task task) const;
    // The same, resolving `given` first: for a one-off question (a nested model, a test).
    Capabilities capabilities(const std::string& name, const Params& given) const;
    std::vector<std::string> reports(const std::string& name, const Params& given) const;

    // Builds the estimator, wrapped in the one-vs-rest / one-vs-one wrapper when
    // `multiclass` asks for it (or when the model is binary-only and the data turns out
    // to have k > 2 classes).
    std::unique_ptr<Estimator> create(const ResolvedParams& params) const;
    // The same after resolving `given` (a nested model's text, an adaboost member).
    std::unique_ptr<Estimator> create(const std::string& name, const Params& given) const override;
    std::unique_ptr<Estimator> create_unwrapped(const std::string& name, const Params& given) const override;
    // The spec including the common parameters added by add().
    const ParamSpec& spec(const std::string& name) const { return info(name).spec; }

private:
    struct Entry {
        std::string name;
        std::function<ModelInfo()> make;
        mutable std::once_flag made;
        mutable std::unique_ptr<const ModelInfo> info;  // with the common parameters appended
        mutable std::unique_ptr<const ParamSpec> own_spec;  // the model's spec before that
    };
    const Entry& entry(const std::string& name) const;  // UsageError listing the valid names
    const ModelInfo& built(const Entry& e) const;       // builds it once, thread-safe
    std::vector<std::unique_ptr<Entry>> entries_;
};

// The registry holding every built-in model.
const Registry& registry();
// One explicit line per model; lib/src/pipeline/builtin_models.cpp.
void register_builtin_models(Registry& r);

}  // namespace kestrel
