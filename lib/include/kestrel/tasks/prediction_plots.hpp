#pragma once
// The pictures and curve table of scored classification predictions, as every front end
// draws them: the ROC and precision-recall points as CSV, and the roc / pr / confusion /
// calibration plots as SVG (kestrel-predict --metrics and kestrel-cv write these files).
#include <string>
#include <string_view>

#include "kestrel/metrics/predictions.hpp"

namespace kestrel {

// A data file's name for a plot's title: its last two path components ("iris/test.csv"),
// so that a long path neither crowds the chart's kind out nor runs off the picture.
std::string plot_source_name(const std::string& source);

// Whether `kind` is one of the plots below.
bool is_prediction_plot(std::string_view kind);

// Rows curve,class,threshold,fpr,tpr,precision,recall: ROC rows fill fpr and tpr, PR rows
// precision and recall (the last PR point has no threshold), each class against the rest
// (one class for two). DataError naming the option "curves" when the labels hold a
// single class.
std::string prediction_curves_csv(const Predictions& p);

// The SVG of one kind: roc, pr, confusion or calibration (a reliability diagram in ten
// uniform bins). `about` goes into the title ("logistic on test.csv"). DataError naming
// the option "plot" for a curve over a single class; UsageError for another kind, or for
// calibration without probabilities.
std::string prediction_plot_svg(std::string_view kind, const Predictions& p, const std::string& about);

}  // namespace kestrel
