#pragma once
// The rows a cross-validation scores and the scheme that splits them, as kestrel-cv and
// kestrel-gridsearch read them: k-fold (repeated), leave-one-out, shuffle-split, group
// k-fold on a column, or one split with a validation file appended; rows with query ids
// split by query. What is wrong with the request is a UsageError naming its options,
// before any fit; the splits are checked against the memory before any is made.
#include <string>

#include "kestrel/model_selection/cv_scheme.hpp"
#include "kestrel/tasks/training_data.hpp"

namespace kestrel {

struct CvDataRequest {
    TrainingDataOptions data;        // the data file and how it is read (its validation_files unused)
    int k = 5;                       // folds (option "k"); 0: one per row, leave-one-out
    int repeats = 1;                 // k-fold repeated (option "repeats")
    bool leave_one_out = false;      // option "leave_one_out"
    int shuffle_splits = 0;          // > 0: that many random splits (option "shuffle_splits")
    double test_fraction = 0.2;      // of each shuffle-split
    std::string group_column{};      // group k-fold on this CSV column (option "groups")
    std::string validation_file{};   // one split: this file's rows are the test rows (option "validation")
};

struct CvData {
    Dataset data;  // the training rows, then the validation file's
    SplitOptions split;
};

CvData read_cv_data(const CvDataRequest& request, const ModelSpec& spec);

// k-fold over rows in query groups (learning to rank) becomes group k-fold on the query ids.
void keep_queries_whole(const Dataset& d, SplitOptions& s);

}  // namespace kestrel
