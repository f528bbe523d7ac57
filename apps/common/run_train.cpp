#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "common/c_search_output.hpp"
#include "common/commands.hpp"
#include "common/flag_spelling.hpp"
#include "common/kernel_info_command.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/train_task.hpp"

namespace kestrel::cli {
namespace {

void list_models(Io& io, bool json) {
    const auto& r = registry();
    if (json) {
        io.out << r.models_json().dump(2) << "\n";
        return;
    }
    std::size_t w = 0;
    for (const auto& n : r.names()) w = std::max(w, n.size());
    for (const auto& n : r.names()) io.out << n << std::string(w - n.size() + 2, ' ') << r.info(n).summary << "\n";
}

std::string train_summary_text(const TrainResult& r, const std::string& output) {
    std::string o = "trained " + r.model_name + " (" + r.task_label + ") on " + plural(r.rows, "row") + " x " +
                    plural(r.cols, "feature");
    if (r.task == Task::classification) o += ", " + plural(static_cast<Index>(r.classes.size()), "class");
    o += " in " + format_duration(r.seconds) + " -> " + output + "\n";
    if (const std::string note = r.inferred_regression_note.respelled(flag_spelling); !note.empty())
        o += "  " + note + "\n";
    if (!r.table_summary.empty()) o += "  " + r.table_summary + "\n";
    if (r.quantized)
        o += std::string("  rows read into the quantized store") +
             (r.store_on_disk ? ", its codes in pages on disk" : " (one byte a cell)") + " (docs/large-data.md)\n";
    if (r.streamed)
        o += "  rows read as a stream: " + plural(r.stream_passes, "pass") + " over the file (docs/large-data.md)\n";
    if (const Index best = r.model.estimator().best_iteration(); best >= 0)
        o += "  early stopping kept " + plural(best + 1, "round") + " (best_iteration " + std::to_string(best) + ")\n";
    if (!r.c_search.is_null()) o += c_search_text(r.c_search);
    return o;
}

}  // namespace

int run_train(const std::vector<std::string>& args, Io& io) {
    CLI::App app{"Train a model on a data file and save it as JSON.\n"
                 "  kestrel-train -m MODEL [-p k=v]... [--scale standard|minmax] TRAIN_FILE -o MODEL.json",
                 "kestrel-train"};
    CommonFlags common;
    DataFlags data;
    ModelFlags model;
    std::string input, output;
    bool list = false, help_params = false, dump_tree = false, kernel_info = false, shard = false;
    std::string path_file, trace_file, init_file, shards;
    std::vector<std::string> valid_files;
    common.add_to(app);
    data.add_to(app);
    data.add_weights_to(app);
    data.add_group_to(app);
    model.add_to(app, false);
    app.add_option("TRAIN_FILE", input, "training data (.csv, .tsv, .libsvm; - for stdin)")->type_name("FILE");
    app.add_option("-o,--output", output, "model file to write (- for stdout)")->type_name("FILE");
    app.add_flag("--list-models", list, "list the available models");
    app.add_flag("--help-params", help_params, "describe the parameters of -m MODEL");
    app.add_option("--path", path_file, "write the regularization path (lasso, elastic_net) as CSV")->type_name("FILE");
    app.add_option("--valid", valid_files,
                   "validation file, read like TRAIN_FILE, evaluated every round (gbdt: eval_metric, "
                   "early_stopping_rounds watches the last one); repeatable")
        ->type_name("FILE")
        ->allow_extra_args(false);
    app.add_option("--init-model", init_file,
                   "continue boosting from this saved model (gbdt; XGBoost's xgb_model): the same features, "
                   "classes and loss; n_estimators counts the new rounds")
        ->type_name("FILE");
    app.add_option("--trace", trace_file, "write the per-round trace of a boosting model as CSV")->type_name("FILE");
    app.add_flag("--dump-tree", dump_tree, "print the fitted tree (feature names, thresholds, leaf values) to stdout");
    app.add_flag("--shard", shard,
                 "under mpirun: each rank reads its own byte range of TRAIN_FILE and the model is fitted on the "
                 "rows of every rank (models with a sharded fit: see docs/distributed.md)");
    app.add_option("--shards", shards,
                   "under mpirun: each rank reads its own files among the sorted matches of this glob "
                   "('train-*.csv'; quote it) instead of TRAIN_FILE, and the model is fitted as with --shard")
        ->type_name("GLOB");
    app.add_flag("--kernel-info", kernel_info,
                 "print the kernel's resolved bandwidth, Gram spectrum and warnings instead of training");
    if (!parse(app, args, io)) return 0;

    if (list) {
        list_models(io, common.json);
        return 0;
    }
    if (model.model.empty()) throw UsageError("-m MODEL is required (see --list-models)");
    if (help_params) {
        const auto& info = registry().info(model.model);
        io.out << info.name << ": " << info.summary << "\n\nParameters (-p name=value):\n" << info.spec.help_text();
        return 0;
    }
    if (!shards.empty() && !input.empty()) throw UsageError("--shards names the training files: give no TRAIN_FILE");
    if (!shards.empty()) shard = true;
    if (input.empty() && shards.empty()) throw UsageError("TRAIN_FILE is required");
    if (kernel_info && shard) throw UsageError("--shard: --kernel-info is not supported with a sharded fit");
    if (kernel_info) return print_kernel_info(model.spec(data), input, data, common, io);
    if (output.empty()) throw UsageError("-o MODEL.json is required (- writes to stdout)");

    TrainRequest request{.spec = model.spec(data)};
    request.reports = {!path_file.empty(), !trace_file.empty(), dump_tree};
    request.init_model = init_file;
    request.shard = shard;
    request.shard_files = shards;
    request.data.validation_files = valid_files;
    check_train_request(request);
    if (dump_tree && output == "-") throw UsageError("--dump-tree prints to stdout; write the model to a file with -o");
    Context ctx = common.context(io);
    request.data = data.training_options(input, ctx);
    request.data.validation_files = valid_files;
    TrainResult r = train_model(request, ctx);
    // train_model took the reports before the model is written: a report that fails
    // leaves no model behind.
    r.model.save(output);
    if (!path_file.empty()) write_file_atomically(path_file, r.path_csv);
    if (!trace_file.empty()) write_file_atomically(trace_file, r.trace_csv);
    if (dump_tree) io.out << r.tree_text;

    if (common.json && output != "-") io.out << train_summary_json(r, output).dump(2) << "\n";
    else if (!common.quiet && !common.json) io.err << train_summary_text(r, output);
    return 0;
}

}  // namespace kestrel::cli
