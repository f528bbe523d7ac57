#pragma once
// What kestrel-predict --metrics and kestrel-cv write besides their reports: the ROC
// and precision-recall curve points (--curves FILE) and the roc / pr / confusion /
// calibration SVG plots (--plot), drawn by kestrel/tasks/prediction_plots.hpp.
#include <string>
#include <vector>

#include "common/plot_flags.hpp"
#include "kestrel/metrics/predictions.hpp"

namespace kestrel::cli {

// Before any work: UsageError naming the flag when the model cannot make these
// outputs (regression; curves without decision values or probabilities; the calibration
// plot without probabilities).
void check_prediction_outputs(const std::vector<PlotTarget>& plots, const std::string& curves_path, Task task,
                              bool has_scores, const std::string& model_name, bool has_proba);

// Writes --curves and every roc / pr / confusion / calibration target (others are left to the caller).
// DataError naming the flag when the labels hold a single class.
void write_prediction_outputs(const std::vector<PlotTarget>& plots, const std::string& curves_path,
                              const Predictions& p, const std::string& about);

}  // namespace kestrel::cli
