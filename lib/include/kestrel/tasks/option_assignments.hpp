#pragma once
// The options of a front end that passes them as "name=value" texts (the C interface,
// the Python package over it): how to read a data file and how to prepare a model, by the
// library's names for them (ReadOptions', TrainingDataOptions' and ModelSpec's fields).
// The commands spell the same settings as flags (apps/common/cli.cpp); these are the
// same settings with the same checks, so that a value the commands refuse is refused here.
#include <string>
#include <vector>

#include "kestrel/pipeline/model.hpp"
#include "kestrel/tasks/training_data.hpp"

namespace kestrel {

// The names read_assignments takes: format, header, label_col, delimiter, missing,
// categorical_columns, numeric_columns, ignore_columns (comma-separated lists),
// unknown_category_error, max_categories, max_rows, max_memory, threads, weights_col,
// group_col: the keys the library's messages name them by (option_named). `missing` is the
// front end's one setting (split_missing_option): its reading half goes here, its model
// half to model_spec_from_assignments.
// UsageError naming the option for an unknown name, a name given twice or a bad value.
TrainingDataOptions training_options_from_assignments(const std::string& path, const std::vector<std::string>& texts);

// The spec of `model` with its parameters ("name=value", as a command's -p: resolved,
// so that an unknown model or a bad value fails here with the registry's message) and
// its preparation options: scale (none, standard, minmax), task (auto, classification,
// regression), missing, missing_indicator, encode, max_categories, min_frequency,
// resample, poly, poly.interaction_only, poly.max_width, calibrate, calibrate_folds.
// check_model_spec's rules apply.
ModelSpec model_spec_from_assignments(const std::string& model, const std::vector<std::string>& params,
                                      const std::vector<std::string>& options);

}  // namespace kestrel
