#include "kestrel/pipeline/model_spec_checks.hpp"

#include "kestrel/core/error.hpp"

namespace kestrel {

void check_model_spec(const ModelSpec& spec) {
    // The indicator columns are appended by an imputer: with none, there is nothing to add them.
    if (spec.missing_indicator && (spec.missing == "auto" || spec.missing == "keep"))
        throw UsageError(option_named("missing_indicator") + " goes with an imputer: " + option_named("missing") +
                         " mean, median, most_frequent or constant:VALUE");
    if (spec.max_categories == 1)
        throw UsageError(option_named("max_categories") + " must be 0 (no limit) or at least 2");
    if (spec.calibrate_folds != ModelSpec{}.calibrate_folds && spec.calibrate.empty())
        throw UsageError(option_named("calibrate_folds") + " goes with " + option_named("calibrate"));
}

}  // namespace kestrel
