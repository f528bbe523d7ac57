#include "common/search_plots.hpp"

#include "kestrel/core/error.hpp"
#include "kestrel/io/atomic_file.hpp"

namespace kestrel::cli {

void check_grid_plot(const std::vector<GridAxis>& axes) {
    if (axes.size() != 2)
        throw UsageError("--plot draws the score over a 2-D grid (two -g axes); this search has " +
                         std::to_string(axes.size()) + " ax" + (axes.size() == 1 ? "is" : "es"));
    for (const auto& a : axes)
        if (a.kind != AxisKind::list)
            throw UsageError("--plot needs listed values on both axes; -g " + a.name + " is a distribution");
}

void check_learning_plots(const std::vector<PlotTarget>& plots, const std::string& curves_path, bool learning_curve) {
    if (learning_curve && !curves_path.empty())
        throw UsageError("--curves cannot be combined with --learning-curve (it draws the cross-validation predictions)");
    for (const auto& t : plots) {
        if (t.kind == "learning" && !learning_curve)
            throw UsageError("--plot learning (" + t.path + ") needs --learning-curve");
        if (t.kind != "learning" && learning_curve)
            throw UsageError("--plot " + t.kind + " cannot be combined with --learning-curve (it draws the "
                             "cross-validation predictions)");
    }
}

void write_learning_plots(const std::vector<PlotTarget>& plots, const LearningCurve& curve, const std::string& about) {
    for (const auto& t : plots)
        if (t.kind == "learning") write_file_atomically(t.path, learning_curve_svg(curve, about));
}

}  // namespace kestrel::cli
