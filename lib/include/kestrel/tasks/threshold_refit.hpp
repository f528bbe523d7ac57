#pragma once
// A binary classifier's decision threshold chosen on cross-validation's out-of-fold scores,
// and the model refit on every row with it, as kestrel-cv --tune-threshold and -o do.
#include <optional>
#include <string>

#include "kestrel/core/context.hpp"
#include "kestrel/model_selection/cross_validate.hpp"
#include "kestrel/model_selection/threshold.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

// Before any fit: the criterion parses, the data is binary classification and the model
// gives scores. UsageError naming the option tune_threshold.
void check_threshold_tuning(const std::string& criterion, const ModelSpec& spec, const Dataset& data);

struct TunedThreshold {
    DecisionThreshold threshold;  // what the refit model stores
    ThresholdChoice choice;       // its precision, recall and F1 on the out-of-fold scores
    std::string positive_class;   // classes[1]
};

// The threshold that meets `criterion` on cv's out-of-fold scores (P(positive class) where
// the folds gave probabilities, else decision values).
TunedThreshold tune_cv_threshold(const std::string& criterion, const CvResult& cv, const Dataset& data);

// {"criterion", "value", "score", "precision", "recall", "f1", "positive_class"}.
Json tuned_threshold_json(const TunedThreshold& tuned);

// `spec` fitted on every row of `data`, storing `threshold` when given, its provenance
// stamped (stamp_provenance: data.source, ctx.seed). InternalError when the refit model
// scores otherwise than the folds did.
Model refit_with_threshold(const ModelSpec& spec, const Dataset& data, const std::optional<DecisionThreshold>& threshold,
                           const Context& ctx);

}  // namespace kestrel
