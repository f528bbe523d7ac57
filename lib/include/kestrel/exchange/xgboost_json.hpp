#pragma once
// A kestrel model as the JSON model file of XGBoost 1.7 (what Booster.save_model writes
// and xgb.Booster(model_file=...) loads); docs/exchange.md "XGBoost JSON":
//  - gbdt with the losses XGBoost 1.7 has (squared, absolute, logistic, softmax, poisson,
//    gamma, tweedie, rank_pairwise, lambdarank), numeric and categorical splits, their
//    missing directions; the base score added to each output's first tree;
//  - forest (regression, or two classes as binary:logitraw, whose margin is P(classes[1]))
//    as XGBoost's random-forest form: one round of num_parallel_tree trees, each leaf's
//    value divided by the tree count;
//  - the preprocessing steps XGBoost cannot run folded into the thresholds where they keep
//    each column (standard, minmax, impute_mean, impute without indicator); any other step
//    is refused, naming it.
// XGBoost sends x left when float(x) < t: a threshold T (left when x <= T) becomes the
// float above float(T), so every value at or below T goes left and every value above T
// goes right unless it rounds to the same float32 as T.
// ModelStateError (exit 2) for a model the format cannot hold, naming what.
#include <string>

#include "kestrel/pipeline/model.hpp"

namespace kestrel {

std::string model_to_xgboost_json(const Model& model);

}  // namespace kestrel
