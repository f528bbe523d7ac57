#pragma once
// A preprocessing step fitted on the training data only and stored in the model:
// imputation, one-hot encoding, scaling (standard, minmax to [-1,1]), polynomial
// features, feature selection.
#include <memory>
#include <optional>
#include <string>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

inline constexpr Index kNumericColumn = 0;
inline constexpr Index kIndicatorColumn = -1;

class Transformer {
public:
    virtual ~Transformer() = default;
    virtual std::string kind() const = 0;               // "standard", "minmax", "impute_mean", ...
    virtual void fit(const Features& X) = 0;
    // The role of each column the step is fitted on: kNumericColumn, kIndicatorColumn
    // (a 0/1 column a step made: one-hot, missing indicator; scalers leave it alone), or
    // k > 0 for a categorical column of k category codes (Dataset::category_counts).
    // Steps that care override this; the others ignore the roles.
    virtual void fit(const Features& X, const std::vector<Index>& roles) {
        (void)roles;
        fit(X);
    }
    // The roles of the columns the step outputs, `width` of them.
    virtual std::vector<Index> output_roles(const std::vector<Index>& in, Index width) const {
        return static_cast<Index>(in.size()) == width ? in : std::vector<Index>(static_cast<std::size_t>(width), 0);
    }
    // Rows spread over MPI ranks (kestrel-train --shard, docs/distributed.md): whether the
    // step is fitted from statistics that sum (or take maxima) over the ranks, and so fits
    // on every rank what the whole data gives. The others (medians, category lists) are
    // refused there.
    virtual bool fits_on_shards() const { return false; }
    // That fit, on this rank's part of the rows: a collective step, every rank calling it
    // in the same order. Called only when fits_on_shards().
    virtual void fit_on_shards(const Features& X, const std::vector<Index>& roles) {
        (void)X;
        (void)roles;
        throw InternalError(kind() + ": no fit on rows spread over ranks");
    }
    virtual Features transform(const Features& X) const = 0;
    virtual Json to_json() const = 0;                    // {"type": kind(), ...learned numbers}
    virtual void from_json(const Json& j) = 0;           // validates; throws ModelFileError via caller
    // Per output column, the input column it is made from (a scaled, imputed or selected
    // column, one of a category's 0/1 columns, a missing indicator), for `in_width` input
    // columns; nullopt when an output mixes several inputs (polynomial features): then
    // contributions cannot be given per input column (Model::contributions).
    virtual std::optional<std::vector<Index>> output_sources(Index in_width) const {
        (void)in_width;
        return std::nullopt;
    }
    // Feature names after the step (steps that change the width rename columns).
    virtual std::vector<std::string> output_names(const std::vector<std::string>& in) const { return in; }
};

// Each of `width` columns made from itself (a step that keeps the columns).
std::vector<Index> same_columns(Index width);

// Builds an unfitted step by kind; UsageError listing the valid kinds.
std::unique_ptr<Transformer> make_transformer(const std::string& kind);
// Rebuilds a fitted step from its JSON.
std::unique_ptr<Transformer> transformer_from_json(const Json& j);

}  // namespace kestrel
