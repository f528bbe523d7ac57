#pragma once
// kestrel-explain's tables: the SHAP summary and the partial dependence / ICE curves (the
// permutation importance's is common/importance_output's, shared with kestrel-select; the
// JSON is the library's, kestrel/tasks/explain_task.hpp).
#include <string>

#include "kestrel/model_selection/partial_dependence.hpp"
#include "kestrel/model_selection/shap_summary.hpp"

namespace kestrel::cli {

// "feature  [OUTPUT...]  total" lines (one value column when there is one output).
std::string shap_summary_table(const ShapSummary& s);

// The grid down, one column per output; with ICE, then one block per output with a line
// per kept row ("row N" and its values along the grid).
std::string partial_dependence_table(const PartialDependence& p, const std::string& name, bool with_ice);

}  // namespace kestrel::cli
