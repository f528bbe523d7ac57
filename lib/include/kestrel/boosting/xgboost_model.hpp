#pragma once
// Reading the models XGBoost 1.7 saves (Booster.save_model: JSON, or UBJSON for a .ubj
// name), so users can predict and explain with the models they already have. The file's
// gbtree becomes gbdt's learned state (the pipeline wraps it in a model envelope,
// pipeline/model_xgboost.cpp); docs/exchange.md "XGBoost JSON" lists what is read:
//  - each tree renumbered depth-first from its root (children after their parent, the
//    nodes no path reaches dropped), its sum_hessian kept as the node's cover (TreeSHAP)
//    and its loss_changes as the split gains;
//  - XGBoost sends x left when float(x) < t (t a float32): the kestrel threshold is the
//    largest double T with x <= T exactly when float(x) < t (xgboost_threshold);
//  - a categorical split's set goes right in XGBoost: its complement within the codes
//    the splits name goes left; the feature's categories are the codes' text, so a
//    table's cell "3" is XGBoost's code 3;
//  - base_score (XGBoost 1.7 keeps it in the output space) through the objective's link;
//  - num_parallel_tree > 1 (the random-forest form): every tree of a round is summed.
// Anything else (gblinear, dart with dropped weights, an objective gbdt has no loss for,
// several targets) is refused in one line naming the field.
#include <string>
#include <string_view>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

// True when the text is an XGBoost model: a JSON object whose first key is "learner"
// (XGBoost writes its keys sorted), or the UBJSON object of one.
bool looks_like_xgboost_model(std::string_view text);

struct XgboostModelFile {
    std::string objective;  // XGBoost's name, e.g. "binary:logistic"
    Task task = Task::regression;
    std::vector<std::string> classes;  // classification: "0", "1", ... (XGBoost's labels)
    Index n_features = 0;
    std::vector<std::string> feature_names;  // empty when the booster has none
    CategoryLists categories;                // per feature its category names; empty: all numeric
    Params params;                           // gbdt's parameters the file implies (loss, ...)
    Json state;                              // gbdt's learned state, without the shape fields
};

// Parses an XGBoost JSON or UBJSON model. Throws ModelFileError ("source: what") naming
// the field on a malformed or unsupported file.
XgboostModelFile read_xgboost_model(std::string_view text, const std::string& source);

// The largest double T such that x <= T exactly when XGBoost's float(x) < t
// (round-to-nearest-even conversion), for a finite float32 threshold t.
double xgboost_threshold(float t);

}  // namespace kestrel
