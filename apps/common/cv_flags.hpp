#pragma once
// The cross-validation scheme flags shared by kestrel-cv and kestrel-gridsearch:
// -k, --repeat, --loo, --shuffle-split, --test-fraction, --groups, --validation; and
// reading the data they need (a group column taken out of the features, a validation
// file appended after the training rows). docs/model-selection.md describes them.
#include <string>

#include "common/cli.hpp"
#include "kestrel/model_selection/cv_scheme.hpp"
#include "kestrel/tasks/cv_data.hpp"

namespace kestrel::cli {

struct SplitFlags {
    std::string folds = "5";  // -k: a number, or n (leave-one-out)
    int repeats = 1;
    bool loo = false;
    int shuffle_splits = 0;
    double test_fraction = 0.2;
    std::string groups;       // column name
    std::string validation;   // file
    // `what` names the folds in help ("cross-validation folds per point").
    void add_to(CLI::App& app, const std::string& what);

    // The rows and their scheme (kestrel/tasks/cv_data.hpp): reads DATA_FILE (and the
    // validation file, and the group column) as read_training_data does. UsageError naming
    // the flag for bad combinations and values, before any fit.
    using Data = CvData;
    Data read(const std::string& path, const ModelSpec& spec, const DataFlags& data, const Context& ctx) const;

private:
    CLI::Option* folds_opt_ = nullptr;
    CLI::Option* repeat_opt_ = nullptr;
    CLI::Option* fraction_opt_ = nullptr;
    void check_combination() const;
};

}  // namespace kestrel::cli
