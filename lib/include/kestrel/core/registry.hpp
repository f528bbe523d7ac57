#pragma once
// Model name -> factory + parameter spec + one-line summary. Filled by one explicit
// register_builtin_models() (static self-registration is dropped by the linker in
// static libraries). The executables see only names and parameters.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kestrel/core/estimator.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

enum class Multiclass {
    native,       // the model handles k classes itself (multinomial, trees, ...)
    binary_only,  // needs a one-vs-rest / one-vs-one wrapper for k > 2
};

struct ModelInfo {
    std::string name;
    std::string summary;                 // one line, for --list-models
    ParamSpec spec;                      // the model's own parameters
    std::vector<Task> tasks;             // what it can learn; the first is its default
    Multiclass multiclass = Multiclass::native;
    std::string default_strategy = "ovr";  // used for k > 2 when binary_only and multiclass=auto
    // Extra `multiclass` values the model implements itself (no wrapper), e.g. linear_svm's
    // crammer_singer; the model reads the value from its params.
    std::vector<std::string> native_strategies;
    std::function<std::unique_ptr<Estimator>()> factory;

    bool supports(Task t) const;
    bool is_classifier() const { return supports(Task::classification); }
};

class Registry {
public:
    // Adds a model; classifiers get the common `multiclass` parameter appended.
    void add(ModelInfo info);
    const ModelInfo& info(const std::string& name) const;  // UsageError listing valid names
    bool contains(const std::string& name) const;
    std::vector<std::string> names() const;                // sorted

    // Resolves `given` against the model's spec and builds the estimator, wrapped in
    // the one-vs-rest / one-vs-one wrapper when `multiclass` asks for it (or when the
    // model is binary-only and the data turns out to have k > 2 classes).
    std::unique_ptr<Estimator> create(const std::string& name, const Params& given) const;
    // The spec including the common parameters added by add().
    const ParamSpec& spec(const std::string& name) const { return info(name).spec; }

private:
    std::vector<ModelInfo> models_;
};

// The registry holding every built-in model.
const Registry& registry();
// One explicit line per model; lib/src/builtin_models.cpp.
void register_builtin_models(Registry& r);

}  // namespace kestrel
