#pragma once
// kestrel-explain --plot: the importance and SHAP summary bar charts, and the partial
// dependence line chart with its ICE curves as faint lines underneath.
#include <optional>
#include <string>
#include <vector>

#include "common/plot_flags.hpp"
#include "kestrel/model_selection/partial_dependence.hpp"
#include "kestrel/model_selection/permutation_importance.hpp"
#include "kestrel/model_selection/shap_summary.hpp"

namespace kestrel::cli {

// importance, shap (a bare "shap_summary.svg" names it), pdp (also "ice").
const std::vector<PlotKind>& explain_plot_kinds();

// UsageError naming --plot when a kind's explanation is not asked for.
void check_explain_plots(const std::vector<PlotTarget>& plots, bool importance, bool shap, bool curves);

struct ExplanationCurve {
    PartialDependence pd;
    std::string name;
    bool categorical = false, ice = false;
};

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

std::string importance_svg(const PermutationImportance& p, const std::vector<std::string>& names,
                           const std::string& metric, const std::string& about);
std::string shap_summary_svg(const ShapSummary& s, const std::string& about);
std::string partial_dependence_svg(const ExplanationCurve& c, const std::string& about);

// Writes every target, each atomically (OutputError, exit 2, when one cannot be written).
// A pdp target with several columns writes one file per column (curve_plot_path).
void write_explanation_plots(const std::vector<PlotTarget>& plots, const ExplanationPlots& pictures,
                             const std::vector<std::string>& names);

}  // namespace kestrel::cli
