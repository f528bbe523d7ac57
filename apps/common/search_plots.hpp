#pragma once
// Plots of model selection: the grid-search heat map (kestrel-gridsearch --plot, like
// LIBSVM grid.py's contour) and the learning curve (kestrel-cv --learning-curve --plot).
#include <string>
#include <vector>

#include "common/plot_flags.hpp"
#include "kestrel/model_selection/grid_search.hpp"
#include "kestrel/model_selection/learning_curve.hpp"

namespace kestrel::cli {

// UsageError naming --plot unless the search is over exactly two listed axes.
void check_grid_plot(const std::vector<GridAxis>& axes);
// Mean score over the grid: the second axis across, the first up (numeric axes
// increase away from the origin), the best point outlined, unscored points grey.
std::string grid_heatmap_svg(const GridSearchResult& r, const std::vector<GridAxis>& axes, const std::string& about);

// Training and validation score against the training-set size, each with a band of
// one standard deviation over the folds.
std::string learning_curve_svg(const LearningCurve& curve, const std::string& about);

// kestrel-cv: --plot learning needs --learning-curve, and with it the plots of the
// cross-validation predictions (roc, pr, confusion, --curves) have nothing to draw.
// UsageError naming the flag, before any work.
void check_learning_plots(const std::vector<PlotTarget>& plots, const std::string& curves_path, bool learning_curve);
// Writes the "learning" targets.
void write_learning_plots(const std::vector<PlotTarget>& plots, const LearningCurve& curve, const std::string& about);

}  // namespace kestrel::cli
