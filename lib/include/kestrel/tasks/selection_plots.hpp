#pragma once
// The pictures of model selection, as every front end draws them: the grid search's heat
// map (kestrel-gridsearch --plot, like LIBSVM grid.py's contour) and the learning curve
// (kestrel-cv --learning-curve --plot). SVG text.
#include <string>
#include <vector>

#include "kestrel/model_selection/grid_search.hpp"
#include "kestrel/model_selection/learning_curve.hpp"

namespace kestrel {

// Mean score over a grid of exactly two listed axes: the second axis across, the first up
// (numeric axes increase away from the origin; powers of two spanning fractions or
// thousands labelled 2^e), the best point outlined, unscored points grey. UsageError
// for other axes.
std::string grid_heatmap_svg(const GridSearchResult& r, const std::vector<GridAxis>& axes, const std::string& about);

// Training and validation score against the training-set size, each with a band of one
// standard deviation over the folds.
std::string learning_curve_svg(const LearningCurve& curve, const std::string& about);

}  // namespace kestrel
