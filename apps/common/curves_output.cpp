#include "common/curves_output.hpp"

#include "kestrel/core/error.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/tasks/prediction_plots.hpp"

namespace kestrel::cli {

void check_prediction_outputs(const std::vector<PlotTarget>& plots, const std::string& curves_path, Task task,
                              bool has_scores, const std::string& model_name, bool has_proba) {
    std::vector<std::string> flags;
    if (!curves_path.empty()) flags.push_back("--curves");
    for (const auto& t : plots)
        if (is_prediction_plot(t.kind)) flags.push_back("--plot " + t.kind);
    for (const auto& flag : flags) {
        if (task != Task::classification)
            throw UsageError(flag + " needs a classifier; " + model_name + " does regression here");
        if (flag != "--plot confusion" && !has_scores)
            throw UsageError(flag + " needs decision values or probabilities, which model " + model_name + " does not give");
        if (flag == "--plot calibration" && !has_proba)
            throw UsageError(flag + " needs probabilities, which model " + model_name +
                             " does not give (kestrel-train --calibrate gives them)");
    }
}

void write_prediction_outputs(const std::vector<PlotTarget>& plots, const std::string& curves_path,
                              const Predictions& p, const std::string& about) {
    // Render everything first, so that a plot that cannot be drawn leaves no file behind.
    std::vector<std::pair<std::string, std::string>> files;
    if (!curves_path.empty()) files.emplace_back(curves_path, prediction_curves_csv(p));
    for (const auto& t : plots)
        if (is_prediction_plot(t.kind)) files.emplace_back(t.path, prediction_plot_svg(t.kind, p, about));
    for (const auto& [path, content] : files) write_file_atomically(path, content);
}

}  // namespace kestrel::cli
