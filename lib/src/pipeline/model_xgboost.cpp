// An XGBoost model file (Booster.save_model's JSON or UBJSON) converted into a kestrel
// model file's JSON: the gbdt envelope around the state boosting/xgboost_model.cpp reads.
#include "kestrel/pipeline/model.hpp"

#include <string_view>

#include "kestrel/boosting/xgboost_model.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel {

Json xgboost_model_to_json(std::string_view text, const std::string& source) {
    const XgboostModelFile f = read_xgboost_model(text, source);
    const auto n_classes = static_cast<Index>(f.classes.size());
    const int version = registry().create("gbdt", f.params)->state_version();
    Json j;
    j["format"] = kModelFormat;
    j["version"] = kModelFormatVersion;
    j["kestrel_version"] = kestrel_version();
    j["model"] = "gbdt";
    j["task"] = to_string(f.task);
    j["params"] = f.params;
    j["features"] = {{"count", f.n_features}, {"names", f.feature_names}};
    if (!f.categories.empty()) j["features"]["categories"] = f.categories;
    j["classes"] = f.classes;
    j["preprocessing"] = Json::array();
    j["state"] = Estimator::with_shape(f.state, version, f.task, f.n_features, n_classes);
    j["provenance"] = {{"converted_from", "XGBoost model file"}, {"objective", f.objective}, {"source", source}};
    return j;
}

}  // namespace kestrel
