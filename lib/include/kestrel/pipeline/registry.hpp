#pragma once
// Model name -> ModelInfo (factory, parameter spec, capabilities, summary). Filled by
// one explicit register_builtin_models() (static self-registration is dropped by the
// linker in static libraries). The executables see only names, parameters and
// declared capabilities.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

class Registry : public EstimatorMaker {
public:
    Registry() = default;
    // Estimators made here may keep a pointer to it (adaboost's weak learners).
    Registry(const Registry&) = delete;
    Registry& operator=(const Registry&) = delete;

    // Adds a model; classifiers get the common `multiclass` parameter appended.
    void add(ModelInfo info);
    const ModelInfo& info(const std::string& name) const override;  // UsageError listing valid names
    bool contains(const std::string& name) const;
    std::vector<std::string> names() const override;  // sorted
    // What model `name` can do with `given` parameters (resolved against its spec).
    Capabilities capabilities(const std::string& name, const Params& given) const;
    // The reports (--path, --trace, --dump-tree) model `name` gives with `given` parameters.
    std::vector<std::string> reports(const std::string& name, const Params& given) const;

    // Resolves `given` against the model's spec and builds the estimator, wrapped in
    // the one-vs-rest / one-vs-one wrapper when `multiclass` asks for it (or when the
    // model is binary-only and the data turns out to have k > 2 classes).
    std::unique_ptr<Estimator> create(const std::string& name, const Params& given) const override;
    std::unique_ptr<Estimator> create_unwrapped(const std::string& name, const Params& given) const override;
    // The spec including the common parameters added by add().
    const ParamSpec& spec(const std::string& name) const { return info(name).spec; }

private:
    std::vector<ModelInfo> models_;
    std::vector<ParamSpec> own_specs_;  // each model's spec before add() appended the common parameters
};

// The registry holding every built-in model.
const Registry& registry();
// One explicit line per model; lib/src/pipeline/builtin_models.cpp.
void register_builtin_models(Registry& r);

}  // namespace kestrel
