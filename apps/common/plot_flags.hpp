#pragma once
// --plot [KIND=]FILE and --curves FILE: which pictures and curve tables a command writes.
// A bare FILE names its kind by its stem ("roc.svg", "pr-test.svg", "confusion_iris.svg"):
// the stem is the kind, or starts with it followed by '-', '_' or '.'.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace kestrel::cli {

struct PlotTarget {
    std::string kind;  // one of the command's kinds
    std::string path;
};

// One kind per command, with aliases for a bare file's stem (kind "learning" also
// answers to "curve"). UsageError naming --plot for an unknown kind or a stem that names none.
struct PlotKind {
    std::string name;
    std::vector<std::string> stem_aliases;
};
std::vector<PlotTarget> parse_plot_targets(const std::vector<std::string>& texts, const std::vector<PlotKind>& kinds);

struct PlotFlags {
    std::string curves;              // --curves FILE (ROC and PR points as CSV)
    std::vector<std::string> plots;  // --plot [KIND=]FILE, repeatable
    // `with_curves`: the command also takes --curves.
    void add_to(CLI::App& app, const std::vector<PlotKind>& kinds, bool with_curves);
    bool any() const { return !curves.empty() || !plots.empty(); }
    std::vector<PlotTarget> targets(const std::vector<PlotKind>& kinds) const { return parse_plot_targets(plots, kinds); }
};

// The kinds of kestrel-predict --metrics and of kestrel-cv's out-of-fold predictions.
const std::vector<PlotKind>& prediction_plot_kinds();
// kestrel-cv's: those, and "learning" (with --learning-curve; a bare "curve.svg" names it too).
const std::vector<PlotKind>& cv_plot_kinds();

}  // namespace kestrel::cli
