#pragma once
// kestrel-explain's tables and JSON: the SHAP summary and the partial dependence / ICE
// curves (the permutation importance is common/importance_output's, shared with
// kestrel-select).
#include <string>

#include "kestrel/model_selection/partial_dependence.hpp"
#include "kestrel/model_selection/shap_summary.hpp"

namespace kestrel::cli {

// {"outputs", "features": [{"feature", "mean_abs": {OUTPUT: v...}, "total"}...]} by decreasing total.
Json shap_summary_json(const ShapSummary& s);
// "feature  [OUTPUT...]  total" lines (one value column when there is one output).
std::string shap_summary_table(const ShapSummary& s);

// {"feature", "kind", "response", "grid", "labels", "average": {OUTPUT: [...]}, and with
// ICE curves "ice": {"rows": [1-based data rows], OUTPUT: [[per grid point]...]}}.
Json partial_dependence_json(const PartialDependence& p, const std::string& name, bool categorical, bool with_ice);
// The grid down, one column per output; with ICE, then one block per output with a line
// per kept row ("row N" and its values along the grid).
std::string partial_dependence_table(const PartialDependence& p, const std::string& name, bool with_ice);

}  // namespace kestrel::cli
