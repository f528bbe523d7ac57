#pragma once
// A model file's text in memory: the bytes Model::save writes, and a model read back from
// such bytes (or from a LIBSVM or XGBoost model file's) as Model::load reads a file. For
// the front ends that keep models without files (the C interface, Python's pickle).
#include <string>

#include "kestrel/pipeline/model.hpp"

namespace kestrel {

std::string model_file_text(const Model& model);
// `source` names the text in messages (ModelFileError), as a path does for Model::load.
Model model_from_file_text(std::string text, const std::string& source);

}  // namespace kestrel
