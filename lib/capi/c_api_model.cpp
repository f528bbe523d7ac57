// The C interface's models: trained through the task floor as kestrel-train trains them,
// scored through score_rows as kestrel-predict scores them, saved and loaded as model files
// (or their bytes), cross-validated as kestrel-cv does.
#include <memory>
#include <optional>

#include "c_api_handles.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/io/coded_columns.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/model_selection/cross_validate.hpp"
#include "kestrel/pipeline/model_text.hpp"
#include "kestrel/tasks/cv_data.hpp"
#include "kestrel/tasks/cv_report.hpp"
#include "kestrel/tasks/option_assignments.hpp"
#include "kestrel/tasks/predict_stream.hpp"
#include "kestrel/tasks/score_rows.hpp"
#include "kestrel/tasks/train_task.hpp"
#include "kestrel/tasks/training_columns.hpp"

namespace kestrel::capi {
namespace {

// The table training_dataset takes (one of its own) for an in-memory dataset's: its labels
// and names copied, its rows a view, so that training reads them in place (the caller's
// borrowed rows, or the dataset's copy) and no second copy is made. The rows stay the
// dataset's: what would write them copies them first (Features::dense_mut).
Table table_to_train(const Table& t) {
    Table v;
    v.X = t.X.view();
    v.labels = t.labels;
    v.feature_names = t.feature_names;
    v.categories = t.categories;
    v.label_name = t.label_name;
    v.source = t.source;
    v.dropped_rows = t.dropped_rows;
    v.bytes = t.bytes;
    v.fields = t.fields;
    v.kept = t.kept;
    v.kept_names = t.kept_names;
    return v;
}

// The rows of an in-memory dataset as training_dataset makes a table's, with its weights.
Dataset memory_training_rows(const KestrelDataset& data, const TrainRequest& request) {
    const Table& t = data.table;
    if (!t.labels || static_cast<Index>(t.labels->size()) != t.X.rows())
        throw UsageError("the dataset has no labels to train on (kestrel_dataset_set_labels)");
    if (t.X.rows() == 0) throw DataError(std::string(kMemorySource) + ": no data rows");
    Dataset rows = training_dataset(table_to_train(t), request.spec, request.data);
    if (data.weights.size() > 0) {
        check_model_takes_weights(request.spec);
        rows.weights = data.weights;
    }
    return rows;
}

Model trained(const ModelSpec& spec, const KestrelDataset& data, int threads, std::uint64_t seed) {
    const InterruptibleWork interruptible;  // kestrel_interrupt stops it
    Context ctx;
    ctx.seed = seed;
    ctx.threads = threads;
    add_callbacks(ctx);
    TrainRequest request;
    request.spec = spec;
    if (data.from_file) {
        request.data = data.file;
        if (request.data.read.threads == 0) request.data.read.threads = threads;
        return train_model(request, ctx).model;
    }
    request.data.path = kMemorySource;
    return train_model_on_rows(request, memory_training_rows(data, request), ctx).model;
}

// The rows to score: a file read aligned with the model as kestrel-predict reads it, or
// the caller's rows, which must have the model's columns, their categorical columns coded
// in the model's order. `scratch` holds a file's rows or the re-coded ones.
const Features& rows_to_score(const Model& model, const KestrelDataset& data, Table& scratch) {
    if (data.from_file) {
        scratch = read_table(data.file.path, scoring_read_options(model, data.file.read, false));
        if (scratch.X.rows() == 0) throw DataError(scratch.source + ": no data rows");
        return scratch.X;
    }
    if (data.table.X.cols() != model.n_features())
        throw DataError(std::string(kMemorySource) + ": the rows have " + std::to_string(data.table.X.cols()) +
                        " columns; the model reads " + std::to_string(model.n_features()));
    if (data.table.categories.empty() && model.categories().empty()) return data.table.X;
    scratch.X = coded_for_model(data.table, model.categories());
    return scratch.X;
}

ScoreOutputs outputs_of(int output) {
    if (output < KESTREL_OUTPUT_PREDICTION || output > KESTREL_OUTPUT_CONTRIB)
        throw UsageError("output " + std::to_string(output) +
                         ": must be one of KESTREL_OUTPUT_PREDICTION, _PROBA, _DECISION, _CONTRIB");
    ScoreOutputs o;
    o.proba = output == KESTREL_OUTPUT_PROBA;
    o.decision = output == KESTREL_OUTPUT_DECISION;
    o.contributions = output == KESTREL_OUTPUT_CONTRIB;
    return o;
}

const Matrix& scored_matrix(const ScoredRows& scored, int output) {
    if (output == KESTREL_OUTPUT_CONTRIB) return scored.contrib;
    return output == KESTREL_OUTPUT_PROBA ? scored.proba : scored.decision;
}

// kestrel-cv --json's object for `folds`-fold cross-validation of `spec` on the data.
Json cross_validated(const ModelSpec& spec, const KestrelDataset& data, int folds, int threads, std::uint64_t seed) {
    const InterruptibleWork interruptible;  // kestrel_interrupt stops it
    Context ctx;
    ctx.seed = seed;
    ctx.threads = threads;
    add_callbacks(ctx);
    if (folds < 2) throw UsageError("kestrel_cross_validate: folds " + std::to_string(folds) + ": at least 2");
    Dataset rows;
    SplitOptions split;
    if (data.from_file) {
        CvDataRequest request;
        request.data = data.file;
        if (request.data.read.threads == 0) request.data.read.threads = threads;
        request.k = folds;
        CvData cv = read_cv_data(request, spec);
        rows = std::move(cv.data);
        split = std::move(cv.split);
    } else {
        TrainRequest request;
        request.spec = spec;
        request.data.path = kMemorySource;
        rows = memory_training_rows(data, request);
        split.k = folds;
        keep_queries_whole(rows, split);
    }
    CvOptions opts;
    static_cast<SplitOptions&>(opts) = split;
    const CvResult r = cross_validate(spec, rows, opts, ctx);
    Json j = cv_about_json(spec, rows, opts, seed);
    j.update(cv_scores_json(r, rows.task));
    return j;
}

int predict_into(const KestrelModel* model, const KestrelDataset* data, int output, double* out, std::size_t capacity,
                 const char* function) {
    return guarded([&] {
        require(model, function, "model");
        require(data, function, "data");
        Table scratch;
        const Features& X = rows_to_score(model->model, *data, scratch);
        const ScoredRows scored = score_rows(model->model, X, outputs_of(output));
        const Index rows = X.rows();
        const Index cols = output == KESTREL_OUTPUT_PREDICTION ? 1 : scored_matrix(scored, output).cols();
        const auto needed = static_cast<std::size_t>(rows * cols);
        if (capacity < needed)
            throw UsageError(std::string(function) + ": a buffer of " + std::to_string(capacity) +
                             " values is too small for " + std::to_string(rows) + " rows x " + std::to_string(cols) +
                             " = " + std::to_string(needed));
        if (needed > 0) require(out, function, "out");
        for (Index i = 0; i < rows; ++i)
            for (Index j = 0; j < cols; ++j)
                out[i * cols + j] = output == KESTREL_OUTPUT_PREDICTION ? scored.predicted[i] : scored_matrix(scored, output)(i, j);
    });
}

// What a program using a model asks of it, as one JSON object.
Json model_info(const Model& m) {
    Json j = Json::object();
    j["model"] = m.model_name();
    j["task"] = to_string(m.task());
    j["classes"] = m.classes();
    j["feature_names"] = m.input_names();
    j["n_features"] = m.n_features();
    j["params"] = m.params();
    j["preprocessing"] = m.step_kinds();
    j["has_predict_proba"] = m.has_predict_proba();
    j["has_decision_function"] = m.has_decision_function();
    return j;
}

// The model and its -p / preparation assignments as kestrel_model_train and
// kestrel_cross_validate take them.
ModelSpec spec_of(const char* model_name, const char* const* params, std::size_t n_params, const char* const* options,
                  std::size_t n_options, const char* function) {
    return model_spec_from_assignments(model_name, texts(params, n_params, function, "params"),
                                       texts(options, n_options, function, "options"));
}

}  // namespace
}  // namespace kestrel::capi

using kestrel::capi::guarded;
using kestrel::capi::require;

extern "C" {

int kestrel_model_train(const char* model_name, const char* const* params, size_t n_params, const char* const* options,
                        size_t n_options, const KestrelDataset* data, int threads, uint64_t seed, KestrelModel** out) {
    return guarded([&] {
        require(model_name, "kestrel_model_train", "model_name");
        require(data, "kestrel_model_train", "data");
        require(out, "kestrel_model_train", "out");
        const kestrel::ModelSpec spec =
            kestrel::capi::spec_of(model_name, params, n_params, options, n_options, "kestrel_model_train");
        *out = new KestrelModel{kestrel::capi::trained(spec, *data, threads, seed)};
    });
}

int kestrel_model_load(const char* path, KestrelModel** out) {
    return guarded([&] {
        require(path, "kestrel_model_load", "path");
        require(out, "kestrel_model_load", "out");
        *out = new KestrelModel{kestrel::Model::load(path)};
    });
}

int kestrel_model_save(const KestrelModel* model, const char* path) {
    return guarded([&] {
        require(model, "kestrel_model_save", "model");
        require(path, "kestrel_model_save", "path");
        model->model.save(path);
    });
}

int kestrel_model_info_json(KestrelModel* model, const char** json) {
    return guarded([&] {
        require(model, "kestrel_model_info_json", "model");
        require(json, "kestrel_model_info_json", "json");
        model->info_json = kestrel::capi::model_info(model->model).dump();
        *json = model->info_json.c_str();
    });
}

int kestrel_model_n_features(const KestrelModel* model, size_t* n) {
    return guarded([&] {
        require(model, "kestrel_model_n_features", "model");
        require(n, "kestrel_model_n_features", "n");
        *n = static_cast<size_t>(model->model.n_features());
    });
}

int kestrel_model_n_classes(const KestrelModel* model, size_t* n) {
    return guarded([&] {
        require(model, "kestrel_model_n_classes", "model");
        require(n, "kestrel_model_n_classes", "n");
        *n = model->model.classes().size();
    });
}

int kestrel_model_class_name(const KestrelModel* model, size_t index, const char** name) {
    return guarded([&] {
        require(model, "kestrel_model_class_name", "model");
        require(name, "kestrel_model_class_name", "name");
        const auto& classes = model->model.classes();
        if (index >= classes.size())
            throw kestrel::UsageError("kestrel_model_class_name: class " + std::to_string(index) + " of " +
                                      std::to_string(classes.size()));
        *name = classes[index].c_str();
    });
}

int kestrel_model_output_shape(const KestrelModel* model, const KestrelDataset* data, int output, size_t* n_rows,
                               size_t* n_cols) {
    return guarded([&] {
        require(model, "kestrel_model_output_shape", "model");
        require(data, "kestrel_model_output_shape", "data");
        kestrel::Table scratch;
        const kestrel::Features& X = kestrel::capi::rows_to_score(model->model, *data, scratch);
        kestrel::Index cols = 1;
        if (output != KESTREL_OUTPUT_PREDICTION && X.rows() > 0) {
            // The columns are the model's (its classes, or one score): one row tells them.
            const kestrel::Index first[] = {0};
            const auto scored = kestrel::score_rows(model->model, X.rows_subset(first), kestrel::capi::outputs_of(output));
            cols = kestrel::capi::scored_matrix(scored, output).cols();
        }
        if (n_rows) *n_rows = static_cast<size_t>(X.rows());
        if (n_cols) *n_cols = static_cast<size_t>(cols);
    });
}

int kestrel_model_predict(const KestrelModel* model, const KestrelDataset* data, double* out, size_t capacity) {
    return kestrel::capi::predict_into(model, data, KESTREL_OUTPUT_PREDICTION, out, capacity, "kestrel_model_predict");
}

int kestrel_model_predict_proba(const KestrelModel* model, const KestrelDataset* data, double* out, size_t capacity) {
    return kestrel::capi::predict_into(model, data, KESTREL_OUTPUT_PROBA, out, capacity, "kestrel_model_predict_proba");
}

int kestrel_model_decision_function(const KestrelModel* model, const KestrelDataset* data, double* out,
                                    size_t capacity) {
    return kestrel::capi::predict_into(model, data, KESTREL_OUTPUT_DECISION, out, capacity,
                                       "kestrel_model_decision_function");
}

int kestrel_model_contributions(const KestrelModel* model, const KestrelDataset* data, double* out, size_t capacity) {
    return kestrel::capi::predict_into(model, data, KESTREL_OUTPUT_CONTRIB, out, capacity, "kestrel_model_contributions");
}

int kestrel_model_to_string(KestrelModel* model, const char** text, size_t* length) {
    return guarded([&] {
        require(model, "kestrel_model_to_string", "model");
        require(text, "kestrel_model_to_string", "text");
        model->file_text = kestrel::model_file_text(model->model);
        *text = model->file_text.c_str();
        if (length) *length = model->file_text.size();
    });
}

int kestrel_model_from_string(const char* text, size_t length, KestrelModel** out) {
    return guarded([&] {
        require(text, "kestrel_model_from_string", "text");
        require(out, "kestrel_model_from_string", "out");
        *out = new KestrelModel{kestrel::model_from_file_text(std::string(text, length), "<model text>")};
    });
}

void kestrel_model_free(KestrelModel* model) { delete model; }

int kestrel_cross_validate(const char* model_name, const char* const* params, size_t n_params,
                           const char* const* options, size_t n_options, const KestrelDataset* data, int folds,
                           int threads, uint64_t seed, const char** json) {
    return guarded([&] {
        require(model_name, "kestrel_cross_validate", "model_name");
        require(data, "kestrel_cross_validate", "data");
        require(json, "kestrel_cross_validate", "json");
        const kestrel::ModelSpec spec =
            kestrel::capi::spec_of(model_name, params, n_params, options, n_options, "kestrel_cross_validate");
        thread_local std::string text;
        text = kestrel::capi::cross_validated(spec, *data, folds, threads, seed).dump();
        *json = text.c_str();
    });
}

}  // extern "C"
