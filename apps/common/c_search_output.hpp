#pragma once
// kestrel-train's report of `-p C=auto` (the linear models' "c_search" output): the C path
// with its cross-validated score, as kestrel-gridsearch reports its grid.
#include <string>

#include "kestrel/pipeline/model.hpp"

namespace kestrel::cli {

// A few lines for stderr from the C search's JSON (c_search_report, kestrel/tasks/train_summary.hpp):
// one per C, the chosen one marked.
std::string c_search_text(const Json& c_search);

}  // namespace kestrel::cli
