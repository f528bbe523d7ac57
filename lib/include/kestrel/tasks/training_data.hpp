#pragma once
// Training data from a table: the training file read for a model, its weights and query
// columns taken out of the features, the task chosen, and validation files read as the
// training file was. What kestrel-train, -cv, -gridsearch, -select and -auto train on; a
// program linking the library gets the same Dataset through these functions.
#include <string>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/read_options.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

struct TrainingDataOptions {
    std::string path;  // the training file; "-" for standard input
    // How the files are read: format, dialect, label column, missing values, column types,
    // ignored columns, limits, threads.
    ReadOptions read;
    // A feature column taken out as each row's sample weight (empty: none): a CSV header
    // name, a 0-based field index (CSV without a header, counted as the label column is) or
    // a 1-based LIBSVM feature index.
    std::string weights_column;
    // A column taken out as each row's query id, for learning to rank (empty: none), named
    // as the weights column is. A LIBSVM file gives qid:N instead.
    std::string group_column;
    // Files read as the training file was (read_training_input).
    std::vector<std::string> validation_files;
    // The option that named validation_files, for messages: "valid" (files watched while
    // fitting) or "validation" (cross-validation's held-out file).
    std::string validation_option = "valid";
};

// Reads options.path into a Dataset for spec's model: sparse LIBSVM rows kept sparse for a
// model that reads an absent entry as missing, dense otherwise; then training_dataset.
// `label_name`, when given, receives the label column's header name (empty without one).
// DataError for a file without rows or label column; UsageError for standard input in a
// process group (only rank 0 would see it).
Dataset read_training_data(const TrainingDataOptions& options, const ModelSpec& spec,
                           std::string* label_name = nullptr);

// For a job that splits the rows (cross-validation, a grid or automatic search): `e` (a table
// beyond the memory budget) again, saying that such a job holds the rows as doubles and
// which models a single fit reads one byte a cell instead (docs/large-data.md).
[[noreturn]] void refuse_rows_to_split(const MemoryLimitError& e);

// read_training_data for a job that splits the rows: beyond the memory budget,
// refuse_rows_to_split's message.
Dataset read_rows_to_split(const TrainingDataOptions& options, const ModelSpec& spec);

// The Dataset of a training table for spec: the group and weights columns taken out, the
// task chosen (choose_task). A model that does not use labels (one_class) gets zeros for
// them, whatever the label column holds.
Dataset training_dataset(Table t, const ModelSpec& spec, const TrainingDataOptions& options);

// Reads a validation file as the training data `train` was read: its feature columns
// matched to the training ones by name (CSV with a header) or position, its categories to
// the training categories, its labels to the training classes (a class the training data
// lacks is a DataError naming file:line), its label column the training file's
// (`label_name`, by header name), and its weights and queries from the columns of options
// (CSV with a header only).
Dataset read_validation_data(const std::string& path, const Dataset& train, const std::string& label_name,
                             const TrainingDataOptions& options);

// The training file and every validation file of options.
struct TrainingInput {
    Dataset train;
    std::vector<Dataset> validation;  // in the order of options.validation_files
    std::string label_name;           // the training file's label header name, or empty
};
TrainingInput read_training_input(const TrainingDataOptions& options, const ModelSpec& spec);

}  // namespace kestrel
