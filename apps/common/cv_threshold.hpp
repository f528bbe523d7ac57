#pragma once
// kestrel-cv --tune-threshold CRITERION and -o MODEL: the flags of the threshold tuning and
// refit (kestrel/tasks/threshold_refit.hpp), and their lines of the summary.
#include <string>

#include "common/cli.hpp"
#include "kestrel/model_selection/cross_validate.hpp"

namespace kestrel::cli {

struct CvThresholdFlags {
    std::string tune;    // "f1", "precision=0.9", "recall=0.9"; empty = none
    std::string output;  // refit model file; empty = none
    void add_to(CLI::App& app);
};

struct CvThresholdOutcome {
    Json json = Json::object();  // keys to add to kestrel-cv's --json summary
    std::string text;            // lines to add to its table
};

// Tunes (when asked) on r.out_of_fold, then refits and saves (when -o is given).
CvThresholdOutcome tune_and_refit(const CvThresholdFlags& flags, const ModelSpec& spec, const Dataset& data,
                                  const CvResult& r, const Context& ctx);

}  // namespace kestrel::cli
