#pragma once
// The --plot checks and files of model selection: the grid-search heat map
// (kestrel-gridsearch) and the learning curve (kestrel-cv --learning-curve); the pictures
// are the library's (kestrel/tasks/selection_plots.hpp).
#include <string>
#include <vector>

#include "common/plot_flags.hpp"
#include "kestrel/tasks/selection_plots.hpp"

namespace kestrel::cli {

// UsageError naming --plot unless the search is over exactly two listed axes.
void check_grid_plot(const std::vector<GridAxis>& axes);
// kestrel-cv: --plot learning needs --learning-curve, and with it the plots of the
// cross-validation predictions (roc, pr, confusion, --curves) have nothing to draw.
// UsageError naming the flag, before any work.
void check_learning_plots(const std::vector<PlotTarget>& plots, const std::string& curves_path, bool learning_curve);
// Writes the "learning" targets.
void write_learning_plots(const std::vector<PlotTarget>& plots, const LearningCurve& curve, const std::string& about);

}  // namespace kestrel::cli
