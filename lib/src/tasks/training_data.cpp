// Training data from a table: the training file and its validation files read for a model.
#include "kestrel/tasks/training_data.hpp"

#include "kestrel/core/error.hpp"
#include "kestrel/core/process_group.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/training_columns.hpp"
#include "training_option_wording.hpp"

namespace kestrel {
namespace {

// A read training or validation file must hold rows and a label column.
void require_rows_and_labels(const Table& t) {
    if (t.X.rows() == 0) throw DataError(t.source + ": no data rows");
    if (!t.labels) throw DataError(t.source + ": no label column");
}

// The read options of a validation file: its columns those of the training data `train`
// (by name with a header, else by position), its categories the training categories.
ReadOptions validation_read_options(const Dataset& train, const std::string& label_name,
                                    const TrainingDataOptions& options) {
    ReadOptions read = options.read;
    read.cache.clear();  // the training file's
    const bool named = read.header && !train.feature_names.empty();
    if (named && !label_name.empty()) read.label_col = label_name;
    const bool weighted = !options.weights_column.empty(), grouped = !options.group_column.empty();
    const detail::OptionWording valid = detail::validation_wording(options);
    const auto needs_header = [&](const detail::OptionWording& column, const std::string& by_name) {
        throw UsageError(valid.alone() + " with " + column.alone() + " needs CSV files with a header (" + by_name + ")");
    };
    if (weighted && !named) needs_header(detail::weights_wording(), "the weights column by name");
    if (grouped && !named) needs_header(detail::group_wording(), "the query column by name");
    read.categorical_columns.clear();  // the types are the training data's
    read.numeric_columns.clear();
    read.densify = !train.X.is_sparse();
    if (named) {
        std::vector<std::string> columns = train.feature_names;
        if (weighted) columns.push_back(options.weights_column);
        if (grouped) columns.push_back(options.group_column);
        read.feature_columns = std::move(columns);
    } else {
        read.expected_features = train.cols();
    }
    if (!train.categories.empty()) {
        CategoryLists categories = train.categories;
        if (weighted) categories.emplace_back();
        if (grouped) categories.emplace_back();
        read.feature_categories = std::move(categories);
    }
    return read;
}

// The labels of a validation table as the training data's: its classes (a class the
// training data lacks is a DataError naming file:line), or its numbers.
void set_validation_labels(Dataset& d, const Table& t, const Dataset& train) {
    if (train.task != Task::classification) {
        d.y = numeric_targets(*t.labels, t.source);
        return;
    }
    std::vector<std::string> classes = train.classes;
    d.y = encode_with_classes(*t.labels, classes);
    for (Index i = 0; i < d.y.size(); ++i)
        if (d.y[i] >= static_cast<double>(train.classes.size())) {
            const auto r = static_cast<std::size_t>(i);
            throw DataError(t.source + ":" +
                            std::to_string(r < t.labels->line.size() ? t.labels->line[r] : std::uint64_t(i + 1)) +
                            ": label '" + t.labels->text_at(r) + "' is not a class of the training data");
        }
    d.classes = train.classes;
}

}  // namespace

void refuse_rows_to_split(const MemoryLimitError& e) {
    std::string models;
    for (const std::string& name : registry().names_with(&Capabilities::quantized_rows))
        models += (models.empty() ? "" : ", ") + name;
    throw MemoryLimitError(e.text() + "; splitting the rows (folds, grid and automatic searches) holds them as doubles: "
                           "a single fit of " + (models.empty() ? std::string("gbdt") : models) +
                           " or the histogram forest reads them one byte a cell (docs/large-data.md)");
}

Dataset read_rows_to_split(const TrainingDataOptions& options, const ModelSpec& spec) {
    try {
        return read_training_data(options, spec);
    } catch (const MemoryLimitError& e) {
        refuse_rows_to_split(e);
    }
}

Dataset read_training_data(const TrainingDataOptions& options, const ModelSpec& spec, std::string* label_name) {
    if (options.path == "-" && in_process_group())
        throw UsageError(
            "standard input reaches rank 0 of an MPI run only: give the training data as a file that "
            "every rank can read (docs/distributed.md)");
    ReadOptions read = options.read;
    read.densify = !registry().capabilities(*resolved_params(spec)).absent_is_missing;
    Table t = read_table(options.path, read);
    if (label_name) *label_name = t.label_name;
    require_rows_and_labels(t);
    return training_dataset(std::move(t), spec, options);
}

Dataset training_dataset(Table t, const ModelSpec& spec, const TrainingDataOptions& options) {
    take_group_column(t, options);
    if (!registry().info(spec.model).uses_labels) {
        t.labels->write_texts();
        t.labels->numeric.assign(t.labels->text.size(), 0.0);
    }
    const Task task = choose_task(spec, *t.labels);
    // The label column as the file had it, for the model file (predict finds it again).
    LabelColumn label = label_column_of(t, options.read);
    Vector weights;
    if (!options.weights_column.empty()) {
        check_model_takes_weights(spec);
        weights = take_weights_column(t, options);
    }
    Dataset d = make_dataset(std::move(t), task);
    d.weights = std::move(weights);
    d.label_column = std::move(label);
    return d;
}

Dataset read_validation_data(const std::string& path, const Dataset& train, const std::string& label_name,
                             const TrainingDataOptions& options) {
    Table t = read_table(path, validation_read_options(train, label_name, options));
    require_rows_and_labels(t);
    take_group_column(t, options);
    Vector weights = options.weights_column.empty() ? Vector() : take_weights_column(t, options);
    Dataset d;
    const std::vector<double>& qid = t.labels->qid;
    if (!qid.empty()) d.qid = Eigen::Map<const Vector>(qid.data(), static_cast<Index>(qid.size()));
    d.task = train.task;
    d.source = t.source;
    set_validation_labels(d, t, train);
    d.X = std::move(t.X);
    d.feature_names = train.feature_names;
    d.weights = std::move(weights);
    return d;
}

TrainingInput read_training_input(const TrainingDataOptions& options, const ModelSpec& spec) {
    TrainingInput in;
    in.train = read_training_data(options, spec, &in.label_name);
    // Every file read before any training, so that a bad one fails the run before the work.
    for (const std::string& f : options.validation_files)
        in.validation.push_back(read_validation_data(f, in.train, in.label_name, options));
    return in;
}

}  // namespace kestrel
