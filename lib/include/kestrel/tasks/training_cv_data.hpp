#pragma once
// The training data of cross-validation schemes that need more than one read: a group
// column for group k-fold (read apart from the features, its values may be words), and a
// validation file appended after the training rows for one fixed split.
#include <string>
#include <vector>

#include "kestrel/tasks/training_data.hpp"

namespace kestrel {

struct GroupedTrainingData {
    Dataset data;                         // the rows, `column` not among the features
    std::vector<std::string> row_groups;  // each row's value of `column`, as read
};

// Reads options.path (a CSV file with a header) with `column` left out of the features,
// and each kept row's value of it. Two reads of the file: the column alone, then every
// other column; rows are matched by their line numbers, so rows dropped for missing
// features (MissingPolicy::drop) drop their groups too. UsageError for standard input, a
// file that is not CSV with a header, or a column it does not have.
GroupedTrainingData read_grouped_training_data(const TrainingDataOptions& options, const std::string& column,
                                               const ModelSpec& spec);

// Appends the rows of the validation file `path` after the training rows of `d` (read
// with `options`): its features matched to d's by name or position, its labels to d's
// classes (a class d lacks is a DataError), its query ids offset past d's, its weights 1.
void append_validation_rows(Dataset& d, const std::string& path, const TrainingDataOptions& options);

}  // namespace kestrel
