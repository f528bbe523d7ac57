#include "common/cv_threshold.hpp"

#include <iomanip>
#include <sstream>

#include "kestrel/tasks/threshold_refit.hpp"

namespace kestrel::cli {

void CvThresholdFlags::add_to(CLI::App& app) {
    app.add_option("--tune-threshold", tune,
                   "binary: choose the decision threshold on the out-of-fold scores: f1, precision=P or recall=R");
    app.add_option("-o,--output", output, "refit the model on all rows and save it (with the tuned threshold, if any)")->type_name("FILE");
}

CvThresholdOutcome tune_and_refit(const CvThresholdFlags& flags, const ModelSpec& spec, const Dataset& data,
                                  const CvResult& r, const Context& ctx) {
    CvThresholdOutcome out;
    std::optional<DecisionThreshold> threshold;
    if (!flags.tune.empty()) {
        const TunedThreshold tuned = tune_cv_threshold(flags.tune, r, data);
        const ThresholdChoice& t = tuned.choice;
        threshold = tuned.threshold;
        out.json["threshold"] = tuned_threshold_json(tuned);
        std::ostringstream os;
        os << std::setprecision(6) << "\nThreshold for " << tuned.threshold.criterion << " on the out-of-fold "
           << (tuned.threshold.score == "proba" ? "P(" + tuned.positive_class + ")" : std::string("decision values"))
           << ": " << t.threshold << " (precision " << std::fixed << std::setprecision(4) << t.precision << ", recall "
           << t.recall << ", f1 " << t.f1 << ")\n";
        out.text = os.str();
    }
    if (!flags.output.empty()) {
        refit_with_threshold(spec, data, threshold, ctx).save(flags.output);
        out.json["output"] = flags.output;
        out.text += "Model refit on all " + plural(data.rows(), "row") + " -> " + flags.output + "\n";
    }
    return out;
}

}  // namespace kestrel::cli
