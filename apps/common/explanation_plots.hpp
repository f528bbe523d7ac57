#pragma once
// kestrel-explain --plot: which pictures to write where (the pictures are the library's,
// kestrel/tasks/explanation_plots.hpp).
#include <optional>
#include <string>
#include <vector>

#include "common/plot_flags.hpp"
#include "kestrel/tasks/explanation_plots.hpp"

namespace kestrel::cli {

// importance, shap (a bare "shap_summary.svg" names it), pdp (also "ice").
const std::vector<PlotKind>& explain_plot_kinds();

// UsageError naming --plot when a kind's explanation is not asked for.
void check_explain_plots(const std::vector<PlotTarget>& plots, bool importance, bool shap, bool curves);

struct ExplanationPlots {
    std::string about;  // "MODEL on FILE", under each title
    std::optional<PermutationImportance> importance;
    std::string importance_metric;
    std::optional<ShapSummary> shap;
    std::vector<ExplanationCurve> curves;
};

// The path of column `name`'s partial dependence plot when `path` serves several
// columns: "pdp.svg" -> "pdp-NAME.svg" (a name's '/' written '_').
std::string curve_plot_path(const std::string& path, const std::string& name);

// Writes every target, each atomically (OutputError, exit 2, when one cannot be written).
// A pdp target with several columns writes one file per column (curve_plot_path).
void write_explanation_plots(const std::vector<PlotTarget>& plots, const ExplanationPlots& pictures,
                             const std::vector<std::string>& names);

}  // namespace kestrel::cli
