#pragma once
// The facts of a fit's summary that train_model gathers (kestrel/tasks/train_task.hpp),
// each from the fitted model or the training data.
#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

// Input columns the model read as categories.
Index categorical_feature_count(const Model& m);

// What the preprocessing did with the table's categories and missing cells
// ("2 categorical columns one-hot encoded; missing cells imputed"), or empty.
std::string table_summary(const Model& m);

// For a spec that left the task to choose_task and a model that does both tasks, when the
// whole-number labels of `train` had too many values to be classes: says so and how to
// train classes (naming the option "task"). Empty otherwise.
ErrorText inferred_regression_note(const ModelSpec& spec, const Dataset& train);

// The model's C search (`-p C=auto` of the linear models: the C path and its
// cross-validated scores) as JSON, or null when it has none.
Json c_search_report(const Model& m);

}  // namespace kestrel
