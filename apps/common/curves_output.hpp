#pragma once
// What kestrel-predict --metrics and kestrel-cv write besides their reports: the ROC
// and precision-recall curve points (--curves FILE) and the roc / pr / confusion SVG
// plots (--plot), from scored classification predictions.
#include <string>
#include <vector>

#include "common/plot_flags.hpp"
#include "kestrel/metrics/predictions.hpp"

namespace kestrel::cli {

// A data file's name for every plot title: its last two path components ("iris/test.csv"),
// so that a long path neither crowds the chart's kind out nor runs off the picture.
std::string short_source(const std::string& source);

// Before any work: UsageError naming the flag when the model cannot make these
// outputs (regression; curves without decision values or probabilities; the calibration
// plot without probabilities).
void check_prediction_outputs(const std::vector<PlotTarget>& plots, const std::string& curves_path, Task task,
                              bool has_scores, const std::string& model_name, bool has_proba);

// The CSV of --curves: curve,class,threshold,fpr,tpr,precision,recall (ROC rows fill
// fpr and tpr, PR rows precision and recall; the last PR point has no threshold).
std::string curves_csv(const Predictions& p);
// The SVG of one kind (roc, pr, confusion, calibration: a reliability diagram); `about` goes into the title ("logistic on test.csv").
std::string prediction_plot_svg(const std::string& kind, const Predictions& p, const std::string& about);

// Writes --curves and every roc / pr / confusion / calibration target (others are left to the caller).
// DataError naming the flag when the labels hold a single class.
void write_prediction_outputs(const std::vector<PlotTarget>& plots, const std::string& curves_path,
                              const Predictions& p, const std::string& about);

}  // namespace kestrel::cli
