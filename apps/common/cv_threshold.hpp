#pragma once
// kestrel-cv --tune-threshold CRITERION and -o MODEL: choose a binary classifier's
// decision threshold on the out-of-fold scores, and refit the model on every row
// (with that threshold stored) to save it.
#include <string>

#include "common/cli.hpp"
#include "kestrel/model_selection/cross_validate.hpp"
#include "kestrel/model_selection/threshold.hpp"

namespace kestrel::cli {

struct CvThresholdFlags {
    std::string tune;    // "f1", "precision=0.9", "recall=0.9"; empty = none
    std::string output;  // refit model file; empty = none
    void add_to(CLI::App& app);
    // Before any fit: the criterion parses, the data is binary classification and the
    // model gives scores (UsageError naming --tune-threshold).
    void check(const ModelSpec& spec, const Dataset& data) const;
};

struct CvThresholdOutcome {
    Json json = Json::object();  // keys to add to kestrel-cv's --json summary
    std::string text;            // lines to add to its table
};

// Tunes (when asked) on r.out_of_fold, then refits and saves (when -o is given).
CvThresholdOutcome tune_and_refit(const CvThresholdFlags& flags, const ModelSpec& spec, const Dataset& data,
                                  const CvResult& r, const Context& ctx);

}  // namespace kestrel::cli
