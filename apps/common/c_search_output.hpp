#pragma once
// kestrel-train's report of `-p C=auto` (the linear models' "c_search" output): the C path
// with its cross-validated score, as kestrel-gridsearch reports its grid.
#include <string>

#include "kestrel/pipeline/model.hpp"

namespace kestrel::cli {

// The model's C search as JSON, or null when it has none (C was given, or another model).
Json c_search_report(const Model& m);
// A few lines for stderr: one per C, the chosen one marked.
std::string c_search_text(const Json& c_search);

}  // namespace kestrel::cli
