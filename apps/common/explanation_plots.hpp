#pragma once
// kestrel-explain --plot: which pictures to write where (the pictures are the library's,
// kestrel/tasks/explanation_plots.hpp).
#include <string>
#include <vector>

#include "common/plot_flags.hpp"
#include "kestrel/tasks/explain_task.hpp"

namespace kestrel::cli {

// importance, shap (a bare "shap_summary.svg" names it), pdp (also "ice").
const std::vector<PlotKind>& explain_plot_kinds();

// UsageError naming --plot when a kind's explanation is not asked for.
void check_explain_plots(const std::vector<PlotTarget>& plots, bool importance, bool shap, bool curves);

// The path of column `name`'s partial dependence plot when `path` serves several
// columns: "pdp.svg" -> "pdp-NAME.svg" (a name's '/' written '_').
std::string curve_plot_path(const std::string& path, const std::string& name);

// Writes every target, each atomically (OutputError, exit 2, when one cannot be written).
// A pdp target with several columns writes one file per column (curve_plot_path).
// `about` goes under each title ("MODEL on FILE").
void write_explanation_plots(const std::vector<PlotTarget>& plots, const Explanations& e, const std::string& about,
                             const std::vector<std::string>& names);

}  // namespace kestrel::cli
