#pragma once
// A preprocessing step fitted on the training data only and stored in the model:
// scaling (standard, minmax to [-1,1]), mean imputation. Later steps (polynomial
// features, feature selection) implement the same interface.
#include <memory>
#include <string>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

class Transformer {
public:
    virtual ~Transformer() = default;
    virtual std::string kind() const = 0;               // "standard", "minmax", "impute_mean", ...
    virtual void fit(const Features& X) = 0;
    virtual Features transform(const Features& X) const = 0;
    virtual Json to_json() const = 0;                    // {"type": kind(), ...learned numbers}
    virtual void from_json(const Json& j) = 0;           // validates; throws ModelFileError via caller
    // Feature names after the step (steps that change the width rename columns).
    virtual std::vector<std::string> output_names(const std::vector<std::string>& in) const { return in; }
};

// Builds an unfitted step by kind; UsageError listing the valid kinds.
std::unique_ptr<Transformer> make_transformer(const std::string& kind);
// Rebuilds a fitted step from its JSON.
std::unique_ptr<Transformer> transformer_from_json(const Json& j);

}  // namespace kestrel
