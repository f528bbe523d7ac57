// A LIBSVM model file (svm-train's) converted into a kestrel model file's JSON.
#include "kestrel/pipeline/model.hpp"

#include <string_view>

#include "kestrel/pipeline/registry.hpp"
#include "kestrel/svm/libsvm_model.hpp"

namespace kestrel {

Json libsvm_model_to_json(std::string_view text, const std::string& source) {
    const LibsvmModelFile f = read_libsvm_model(text, source);
    const auto n_classes = static_cast<Index>(f.task == Task::classification ? f.classes.size() : 0);
    const int version = registry().create(f.model, f.params)->state_version();
    Json j;
    j["format"] = kModelFormat;
    j["version"] = kModelFormatVersion;
    j["kestrel_version"] = kestrel_version();
    j["model"] = f.model;
    j["task"] = to_string(f.task);
    j["params"] = f.params;
    j["features"] = {{"count", f.n_features}, {"names", Json::array()}};
    j["classes"] = f.classes;
    j["preprocessing"] = Json::array();
    j["state"] = Estimator::with_shape(f.svm.to_json(), version, f.task, f.n_features, n_classes);
    j["provenance"] = {{"converted_from", "LIBSVM model file"}, {"source", source}};
    return j;
}

}  // namespace kestrel
