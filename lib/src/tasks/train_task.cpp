#include "kestrel/tasks/train_task.hpp"

#include <chrono>
#include <optional>
#include <utility>

#include <filesystem>

#include "kestrel/core/memory.hpp"
#include "kestrel/core/process_group.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/quantized_training.hpp"
#include "kestrel/tasks/streamed_training.hpp"
#include "kestrel/tasks/provenance.hpp"
#include "kestrel/tasks/train_summary.hpp"
#include "kestrel/tasks/training_shard.hpp"

namespace kestrel {
namespace {

// The training rows as the request names them: this rank's shard, or the whole file.
struct TrainingRows {
    Dataset data;
    Index total_rows = 0;  // every rank's
    std::string label_name;
    std::shared_ptr<const QuantizedTable> store;  // X is its shape when set
    std::shared_ptr<const RowBlocks> blocks;      // X is their shape when set
    bool store_on_disk = false;
};

// What both ways of reading a file several times need: one process reading one regular file
// as it is (no cache: it holds doubles; no weights or query column taken out of it unless
// `columns` says the reader takes them; nothing continued), the model's own handling of its
// columns (no step fitted on doubles).
bool reads_file_again(const TrainRequest& request, bool columns) {
    const ModelSpec& spec = request.spec;
    const TrainingDataOptions& data = request.data;
    if (!spec.preprocessing.empty() || !spec.resample.empty() || !spec.calibrate.empty()) return false;
    if ((spec.missing != "auto" && spec.missing != "keep") || spec.missing_indicator || spec.encode != "auto" ||
        spec.max_categories != 0 || spec.min_frequency != 0)
        return false;
    if (request.shard || !request.shard_files.empty() || !request.init_model.empty() || in_process_group()) return false;
    if (!data.read.cache.empty() || (!columns && (!data.weights_column.empty() || !data.group_column.empty())))
        return false;
    std::error_code ec;
    if (data.path == "-" || !std::filesystem::is_regular_file(data.path, ec)) return false;
    // A multiclass wrapper fits members on relabelled or fewer rows, with seeds of their own.
    return resolved_params(spec)->values().value("multiclass", std::string("auto")) == "auto";
}

// Whether the training file is at least 1 / `share` of the memory budget.
bool large_beside_memory(const TrainingDataOptions& data, std::uint64_t share) {
    const std::uint64_t budget = data.read.max_memory != 0 ? data.read.max_memory : available_memory();
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(data.path, ec);
    return !ec && size >= budget / share;
}

// Whether the request's rows may be read into the quantized store: a model that reads it
// (Capabilities::quantized_rows: gbdt; the forest with tree_method=hist) as the data reaches
// it (not wrapped one-vs-rest, one-vs-one or ECOC; no step needing doubles, no resampling or
// calibration, nothing continued), one process reading one regular file several times, and
// the same cuts as the doubles' path (no hold-out of early stopping, which cuts the training
// part only). docs/large-data.md lists them.
bool takes_quantized_store(const TrainRequest& request) {
    if (request.quantized_store == TrainRequest::QuantizedStore::never ||
        !registry().capabilities(*resolved_params(request.spec)).quantized_rows)
        return false;
    if (!reads_file_again(request, true)) return false;
    // The several reads cost about twice the single parse: worth it only where the doubles
    // (about the file's size, more for a compressed file) press on the memory.
    if (request.quantized_store == TrainRequest::QuantizedStore::automatic && !large_beside_memory(request.data, 4))
        return false;
    const Params& p = resolved_params(request.spec)->values();
    return !(p.value("early_stopping_rounds", 0LL) > 0 && request.data.validation_files.empty());
}

// Whether the request's rows may be read as a stream: a model that sums its loss over
// blocks of rows, under the conditions of reading the file again. A pass per evaluation
// costs far more than one read: automatic takes it only where the doubles would not fit.
bool takes_row_stream(const TrainRequest& request) {
    if (request.row_stream == TrainRequest::RowStream::never) return false;
    if (!registry().capabilities(*resolved_params(request.spec)).streamed_rows || !reads_file_again(request, false))
        return false;
    return request.row_stream == TrainRequest::RowStream::always || large_beside_memory(request.data, 2);
}

// The store cut as the model cuts its doubles: its max_bins, the run's seed. A table with a
// column of categories the model does not split itself (the histogram forest one-hot encodes
// them) is read again as doubles.
TrainingRows read_quantized_rows(const TrainRequest& request, const Context& ctx) {
    const Params& p = resolved_params(request.spec)->values();
    StorePlacement placement;
    placement.pages = request.store_pages;
    placement.progress = ctx.progress;
    QuantizedTrainingData q = read_quantized_training_data(
        request.data, request.spec, static_cast<int>(p.value("max_bins", 255LL)), ctx.seed, {}, placement);
    TrainingRows rows;
    if (!q.store) {
        rows.data = read_training_data(request.data, request.spec, &rows.label_name);
        rows.total_rows = rows.data.rows();
        return rows;
    }
    rows.total_rows = q.data.rows();
    rows.data = std::move(q.data);
    rows.label_name = std::move(q.label_name);
    rows.store = std::move(q.store);
    rows.store_on_disk = q.pages_on_disk;
    return rows;
}

// The rows as a stream, or none when the scanned table cannot be streamed and the request
// leaves the choice (the file is then read whole, as without a stream).
std::optional<TrainingRows> read_streamed_rows(const TrainRequest& request, const Context& ctx) {
    StreamedTrainingData streamed = read_streamed_training_data(request.data, request.spec, ctx);
    if (streamed.refused.empty() && streamed.data.task == Task::classification && streamed.data.n_classes() > 2 &&
        registry().info(request.spec.model).multiclass == Multiclass::binary_only)
        streamed.refused = streamed.data.source + ": " + std::to_string(streamed.data.n_classes()) +
                           " classes, which model " + request.spec.model + " learns one-vs-rest in memory";
    if (!streamed.refused.empty()) {
        if (request.row_stream == TrainRequest::RowStream::always)
            throw UsageError(streamed.refused + "; it cannot be read as a stream (docs/large-data.md)");
        return std::nullopt;
    }
    TrainingRows rows;
    rows.total_rows = streamed.data.rows();
    rows.data = std::move(streamed.data);
    rows.label_name = std::move(streamed.label_name);
    rows.blocks = std::move(streamed.blocks);
    return rows;
}

TrainingRows read_training_rows(const TrainRequest& request, Context& ctx) {
    if (request.shard || !request.shard_files.empty()) {
        ShardedTrainingData part = read_training_shard(request.data, request.shard_files, request.spec);
        ctx.rows_sharded = in_process_group();
        return {std::move(part.data), part.total_rows, std::move(part.label_name), nullptr, nullptr};
    }
    if (takes_quantized_store(request)) return read_quantized_rows(request, ctx);
    if (takes_row_stream(request)) {
        if (std::optional<TrainingRows> streamed = read_streamed_rows(request, ctx)) return std::move(*streamed);
    }
    TrainingRows rows;
    rows.data = read_training_data(request.data, request.spec, &rows.label_name);
    rows.total_rows = rows.data.rows();
    return rows;
}

// The fit of rows read or given, with the request's model to continue, validation files,
// provenance and reports.
TrainResult fit_training_rows(const TrainRequest& request, TrainingRows rows, std::optional<Model> init, Context ctx) {
    const ModelSpec& spec = request.spec;
    Dataset& train = rows.data;
    if (init) {
        init->check_continuation(spec, train);
        ctx.init_model = &init->estimator();
    }
    // Read before training, so that a bad file fails the run before the work.
    std::vector<Dataset> valid;
    for (const std::string& f : request.data.validation_files)
        valid.push_back(read_validation_data(f, train, rows.label_name, request.data));
    for (std::size_t i = 0; i < valid.size(); ++i)
        ctx.eval_sets.push_back({"validation_" + std::to_string(i), &valid[i]});
    // The rows go to the model, which may take their storage over (the L1 solvers
    // rearrange it into columns instead of copying it): keep what the summary needs.
    const Index cols = train.cols();
    const Task task = train.task;
    std::vector<std::string> classes = train.classes;
    ErrorText note = inferred_regression_note(spec, train);
    const auto start = std::chrono::steady_clock::now();
    std::optional<QuantizedRows> quantized;
    if (rows.store) quantized.emplace(rows.store);
    std::optional<StreamedRows> streamed;
    if (rows.blocks) streamed.emplace(*rows.blocks);
    Model m = Model::train(spec, std::move(train), ctx);
    quantized.reset();
    streamed.reset();
    const bool from_store = rows.store != nullptr;
    rows.store.reset();  // the codes are not needed past the fit
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string& data_file = !request.shard_files.empty() ? request.shard_files : request.data.path;
    stamp_provenance(m, {data_file, rows.total_rows, ctx.seed, request.init_model});
    TrainResult r{.model = std::move(m)};
    r.model_name = spec.model;
    r.rows = rows.total_rows;
    r.cols = cols;
    r.task = task;
    r.task_label = registry().task_label(*resolved_params(spec), task);
    r.classes = std::move(classes);
    r.seconds = seconds;
    r.inferred_regression_note = std::move(note);
    r.table_summary = table_summary(r.model);
    r.categorical_features = categorical_feature_count(r.model);
    if (request.reports.path) r.path_csv = r.model.report("path");
    if (request.reports.trace) r.trace_csv = r.model.report("trace");
    if (request.reports.tree) r.tree_text = r.model.report("tree");
    r.c_search = c_search_report(r.model);
    r.quantized = from_store;
    r.streamed = rows.blocks != nullptr;
    r.stream_passes = rows.blocks ? rows.blocks->passes() : 0;
    r.store_on_disk = rows.store_on_disk;
    return r;
}

}  // namespace

TrainResult train_model(const TrainRequest& request, Context ctx) {
    check_train_request(request);
    std::optional<Model> init;
    if (!request.init_model.empty()) init = Model::load(request.init_model);
    TrainingRows rows = read_training_rows(request, ctx);
    return fit_training_rows(request, std::move(rows), std::move(init), std::move(ctx));
}

TrainResult train_model_on_rows(const TrainRequest& request, Dataset rows, Context ctx) {
    check_train_request(request);
    if (request.shard || !request.shard_files.empty())
        throw UsageError(option_named("shard") + " reads a file: rows given in memory are one process's");
    std::optional<Model> init;
    if (!request.init_model.empty()) init = Model::load(request.init_model);
    TrainingRows given;
    given.total_rows = rows.rows();
    given.data = std::move(rows);
    return fit_training_rows(request, std::move(given), std::move(init), std::move(ctx));
}

}  // namespace kestrel
