#include "common/explanation_plots.hpp"

#include "kestrel/core/error.hpp"
#include "kestrel/io/atomic_file.hpp"

namespace kestrel::cli {

const std::vector<PlotKind>& explain_plot_kinds() {
    static const std::vector<PlotKind> kinds = {
        {"importance", {}}, {"shap", {"shap-summary", "shap_summary"}}, {"pdp", {"ice", "partial-dependence"}}};
    return kinds;
}

void check_explain_plots(const std::vector<PlotTarget>& plots, bool importance, bool shap, bool curves) {
    for (const auto& t : plots) {
        if (t.kind == "importance" && !importance) throw UsageError("--plot " + t.path + ": needs --importance");
        if (t.kind == "shap" && !shap) throw UsageError("--plot " + t.path + ": needs --shap-summary");
        if (t.kind == "pdp" && !curves) throw UsageError("--plot " + t.path + ": needs --pdp COL or --ice COL");
    }
}

std::string curve_plot_path(const std::string& path, const std::string& name) {
    std::string safe = name;
    for (char& c : safe)
        if (c == '/') c = '_';
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path + "-" + safe;
    return path.substr(0, dot) + "-" + safe + path.substr(dot);
}

void write_explanation_plots(const std::vector<PlotTarget>& plots, const Explanations& e, const std::string& about,
                             const std::vector<std::string>& names) {
    for (const auto& t : plots) {
        if (t.kind == "importance" && e.importance)
            write_file_atomically(t.path, importance_svg(*e.importance, names, e.importance_metric, about));
        if (t.kind == "shap" && e.shap) write_file_atomically(t.path, shap_summary_svg(*e.shap, about));
        if (t.kind == "pdp")
            for (const auto& c : e.curves)
                write_file_atomically(e.curves.size() == 1 ? t.path : curve_plot_path(t.path, c.name),
                                      partial_dependence_svg(c, about));
    }
}

}  // namespace kestrel::cli
