#pragma once
// Training a model to save, as kestrel-train does: the options checked against what the
// model can do before any file is read, the training data read (whole, or this rank's
// shard), validation files and a model to continue read as the training file was, the
// fit, the provenance stamped, the reports asked for taken before the model is saved, and
// the facts of its summary. A program linking the library gets the command's model bytes.
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/tasks/quantized_training.hpp"  // StorePages
#include "kestrel/tasks/training_data.hpp"

namespace kestrel {

// The reports of the fitted model to take (ModelInfo::reports): a UsageError names the
// one the model has not (option "reports.path", "reports.trace", "reports.tree").
struct TrainReports {
    bool path = false;   // the regularization path as CSV (lasso, elastic_net)
    bool trace = false;  // the per-round trace as CSV (boosting)
    bool tree = false;   // the fitted tree as text
};

struct TrainRequest {
    ModelSpec spec{};          // resolved (resolve_params)
    TrainingDataOptions data{};  // the training file, how it is read, validation files (option "valid")
    std::string init_model{};  // a saved model to continue training from (option "init_model"); empty: none
    // Each rank of a process group reads its own part of the data (option "shard"):
    // data.path in byte ranges, or its files among the matches of the glob shard_files
    // (option "shard_files", which implies shard).
    bool shard = false;
    std::string shard_files{};
    TrainReports reports{};
    // gbdt and the histogram forest read the file straight into the quantized store
    // (docs/large-data.md, Capabilities::quantized_rows) when the
    // request allows it: the same model file in about one byte a cell, for about twice the
    // reading (the file is read once per group of features for the cuts, then for the codes).
    // automatic: when the file is large beside the memory budget (a quarter of
    // ReadOptions::max_memory, or of the memory available, or more: its doubles alone would
    // take about its size); always: whenever the request allows it; never: the doubles.
    enum class QuantizedStore { automatic, always, never };
    QuantizedStore quantized_store = QuantizedStore::automatic;
    // A model whose loss sums over rows (Capabilities::streamed_rows: logistic, linear_svm's
    // primal, ridge) reads the file as a stream, one pass per evaluation of its objective,
    // never holding the features (docs/large-data.md). automatic: when the file is large
    // beside the memory budget (half of ReadOptions::max_memory, or of the memory available,
    // or more) and, once scanned, numeric without missing cells (a table that is not is read
    // whole as before); always: whenever the request allows it (UsageError for such a
    // table); never: read whole.
    enum class RowStream { automatic, always, never };
    RowStream row_stream = RowStream::automatic;
    // Where the store's codes live when it is taken (docs/large-data.md, "Pages on disk"):
    // automatic: in memory when they fit the memory budget, else in a mapped temporary file
    // in $TMPDIR (or /tmp); memory: in memory or refused; disk: in the file. The same model.
    StorePages store_pages = StorePages::automatic;
};

// What a fit's summary tells, kept before the rows went to the model.
struct TrainResult {
    Model model;               // fitted and stamped (stamp_provenance)
    std::string model_name{};  // the registry's name (ModelSpec::model)
    Index rows = 0;            // of the whole data, every rank's
    Index cols = 0;
    Task task = Task::regression;
    std::string task_label{};  // "ranking" for lambdarank (Registry::task_label)
    std::vector<std::string> classes{};
    double seconds = 0;        // of the fit alone
    // A model that does both tasks read whole-number labels with many values as a
    // regression target (choose_task): said, since a user with 40 class codes expects
    // classes. Empty otherwise. Names the option "task".
    ErrorText inferred_regression_note{};
    std::string table_summary{};  // what the preprocessing did with categories and missing cells, or empty
    Index categorical_features = 0;
    std::string path_csv{}, trace_csv{}, tree_text{};  // the reports asked for
    Json c_search{};                             // `-p C=auto`'s C path with its scores, or null
    bool quantized = false;  // the rows were read into the quantized store, not as doubles
    bool streamed = false;   // the rows were read as a stream, a pass per evaluation (RowStream)
    int stream_passes = 0;   // the passes over the file a streamed fit made (its scan not counted)
    bool store_on_disk = false;  // the store's codes were in pages of a temporary file
};

// UsageError, before any file is read, for what the model cannot do with the request: a
// report it has not, validation files it does not watch, a model it cannot continue, a
// sharded fit it cannot make or with what a sharded fit does not take.
void check_train_request(const TrainRequest& request);

// Checks, reads, fits, stamps the provenance (the data file, the whole data's rows,
// ctx.seed, the model continued) and takes the reports asked for.
TrainResult train_model(const TrainRequest& request, Context ctx);

// The same fit of rows the caller has in memory (the C interface's arrays): `rows` as
// training_dataset makes them, request.data.path the name the provenance records for them
// (validation files are read by its read options; their label column by position).
// UsageError for a sharded request.
TrainResult train_model_on_rows(const TrainRequest& request, Dataset rows, Context ctx);

// The summary as JSON, as kestrel-train --json prints it; `output` is where the model went.
Json train_summary_json(const TrainResult& result, const std::string& output);

}  // namespace kestrel
