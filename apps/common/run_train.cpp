#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "common/c_search_output.hpp"
#include "common/commands.hpp"
#include "common/kernel_info_command.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/core/process_group.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/provenance.hpp"
#include "kestrel/tasks/training_shard.hpp"

namespace kestrel::cli {
namespace {

void list_models(Io& io, bool json) {
    const auto& r = registry();
    if (json) {
        Json j = Json::array();
        for (const auto& n : r.names()) {
            const auto& m = r.info(n);
            Json tasks = Json::array();
            for (Task t : m.tasks) tasks.push_back(to_string(t));
            j.push_back({{"name", n}, {"summary", m.summary}, {"tasks", tasks}});
        }
        io.out << j.dump(2) << "\n";
        return;
    }
    std::size_t w = 0;
    for (const auto& n : r.names()) w = std::max(w, n.size());
    for (const auto& n : r.names()) io.out << n << std::string(w - n.size() + 2, ' ') << r.info(n).summary << "\n";
}

}  // namespace

namespace {

Index categorical_count(const Model& m) {
    Index n = 0;
    for (const auto& c : m.categories()) n += !c.empty();
    return n;
}

// What the pipeline did with the table's categories and missing cells, for the summary.
std::string table_summary(const Model& m) {
    const auto kinds = m.step_kinds();
    const auto has = [&](const char* k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
    std::string s;
    if (const Index n = categorical_count(m); n > 0)
        s = plural(n, "categorical column") +
            (has("onehot")                                                            ? " one-hot encoded"
             : m.encoding() != "ordinal" && m.estimator().native_categories() ? " split natively"
                                                                                       : " given as codes");
    if (has("impute") || has("impute_mean"))
        s += (s.empty() ? "" : "; ") + std::string("missing cells imputed");
    return s;
}

// A model that does both tasks read whole-number labels with many values as a regression
// target (choose_task): say so, since a user with 40 class codes expects classes.
std::string inferred_regression_note(const ModelSpec& spec, const Dataset& d) {
    if (spec.task || d.task != Task::regression || d.has_queries() ||
        !registry().info(spec.model).supports(Task::classification))
        return {};
    std::vector<double> values(d.y.data(), d.y.data() + d.y.size());
    if (std::any_of(values.begin(), values.end(), [](double v) { return v != std::floor(v); })) return {};
    std::sort(values.begin(), values.end());
    const auto distinct = std::unique(values.begin(), values.end()) - values.begin();
    return "the label's " + std::to_string(distinct) + " distinct whole numbers (more than " +
           std::to_string(kMaxIntegerClasses) + ") were read as a regression target; --task classification " +
           "trains one class per value";
}

}  // namespace

namespace {

// What --shard cannot be combined with, refused before any file is read.
void check_shard_flags(const ModelSpec& spec, bool valid, bool init) {
    if (!registry().capabilities(*resolved_params(spec)).sharded_rows)
        throw UsageError("--shard: model " + spec.model +
                         " with these parameters cannot train on rows spread over ranks (docs/distributed.md lists "
                         "the models and parameters that can)");
    const auto refuse = [](bool given, const char* flag) {
        if (given) throw UsageError(std::string("--shard: ") + flag + " is not supported with a sharded fit");
    };
    refuse(valid, "--valid");
    refuse(init, "--init-model");
    refuse(!spec.calibrate.empty(), "--calibrate");
    refuse(!spec.resample.empty(), "--resample");
}

// Fails on an output the model cannot give, before reading data or training.
void check_report_outputs(const ModelSpec& spec, bool path, bool trace, bool dump_tree, const std::string& output) {
    const auto names = registry().reports(*resolved_params(spec));
    auto require = [&](bool wanted, const char* report, const char* flag) {
        if (wanted && std::find(names.begin(), names.end(), report) == names.end())
            throw UsageError(std::string(flag) + ": model " + spec.model + " has no " + report + " output");
    };
    require(path, "path", "--path");
    require(trace, "trace", "--trace");
    require(dump_tree, "tree", "--dump-tree");
    if (dump_tree && output == "-") throw UsageError("--dump-tree prints to stdout; write the model to a file with -o");
}

// What the summary of a fit tells, kept before the rows went to the model.
struct TrainSummary {
    std::string model, task_name;
    Task task = Task::regression;
    Index rows = 0, cols = 0;
    std::vector<std::string> classes;
    double seconds = 0;
    std::string output, task_note;
};

Json train_summary_json(const Model& m, const TrainSummary& f, const Json& c_search) {
    Json j = {{"model", f.model},     {"task", f.task_name},       {"rows", f.rows},    {"features", f.cols},
              {"classes", f.classes}, {"fit_seconds", f.seconds},  {"output", f.output}};
    if (!c_search.is_null()) j["c_search"] = c_search;
    j["categorical_features"] = categorical_count(m);
    if (const Index best = m.estimator().best_iteration(); best >= 0) j["best_iteration"] = best;
    j["preprocessing"] = m.step_kinds();
    return j;
}

std::string train_summary_text(const Model& m, const TrainSummary& f, const Json& c_search) {
    std::string o = "trained " + f.model + " (" + f.task_name + ") on " + plural(f.rows, "row") + " x " +
                    plural(f.cols, "feature");
    if (f.task == Task::classification) o += ", " + plural(static_cast<Index>(f.classes.size()), "class");
    o += " in " + format_duration(f.seconds) + " -> " + f.output + "\n";
    if (!f.task_note.empty()) o += "  " + f.task_note + "\n";
    if (const std::string t = table_summary(m); !t.empty()) o += "  " + t + "\n";
    if (const Index best = m.estimator().best_iteration(); best >= 0)
        o += "  early stopping kept " + plural(best + 1, "round") + " (best_iteration " + std::to_string(best) + ")\n";
    if (!c_search.is_null()) o += c_search_text(c_search);
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

    const ModelSpec spec = model.spec(data);
    check_report_outputs(spec, !path_file.empty(), !trace_file.empty(), dump_tree, output);
    Context ctx = common.context(io);
    if (!valid_files.empty() && !registry().capabilities(*resolved_params(spec)).eval_sets)
        throw UsageError("--valid: model " + spec.model +
                         " does not watch validation sets (gbdt does, without -p multiclass=ovr|ovo|ecoc)");
    if (!init_file.empty() && !registry().capabilities(*resolved_params(spec)).continue_training)
        throw UsageError("--init-model: model " + spec.model +
                         " cannot continue training (gbdt can, without -p multiclass=ovr|ovo|ecoc)");
    if (shard) check_shard_flags(spec, !valid_files.empty(), !init_file.empty());
    std::optional<Model> init;
    if (!init_file.empty()) init = Model::load(init_file);
    std::string label_name;
    Index total_rows = 0;
    Dataset train;
    TrainingDataOptions reading;  // --shard reads through read_training_shard, and takes no --valid
    if (shard) {
        ShardedTrainingData part = read_training_shard(data.training_options(input, ctx.threads), shards, spec);
        train = std::move(part.data);
        total_rows = part.total_rows;
        label_name = part.label_name;
        ctx.rows_sharded = in_process_group();
    } else {
        reading = data.training_options(input, ctx.threads);
        train = read_training_data(reading, spec, &label_name);
        total_rows = train.rows();
    }
    if (init) {
        init->check_continuation(spec, train);
        ctx.init_model = &init->estimator();
    }
    // Read before training, so that a bad file fails the run before the work.
    std::vector<Dataset> valid;
    for (const std::string& f : valid_files) valid.push_back(read_validation_data(f, train, label_name, reading));
    for (std::size_t i = 0; i < valid.size(); ++i)
        ctx.eval_sets.push_back({"validation_" + std::to_string(i), &valid[i]});
    // The rows go to the model, which may take their storage over (the L1 solvers
    // rearrange it into columns instead of copying it): keep what the summary needs.
    const Index rows = total_rows, cols = train.cols();
    const Task task = train.task;
    const std::string task_name = registry().task_label(*resolved_params(spec), task);  // "ranking" for lambdarank
    const std::vector<std::string> classes = train.classes;
    const bool summary = !common.quiet && !common.json;
    const std::string task_note = summary ? inferred_regression_note(spec, train) : std::string();
    const auto start = std::chrono::steady_clock::now();
    Model m = Model::train(spec, std::move(train), ctx);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    stamp_provenance(m, {!shards.empty() ? shards : input, rows, common.seed, init_file});
    // Reports are produced before the model is written so an unsupported flag fails
    // the run without leaving a model behind.
    const std::string path_csv = path_file.empty() ? std::string() : m.report("path");
    const std::string trace_csv = trace_file.empty() ? std::string() : m.report("trace");
    const std::string tree_text = dump_tree ? m.report("tree") : std::string();
    const Json c_search = c_search_report(m);
    m.save(output);
    if (!path_file.empty()) write_file_atomically(path_file, path_csv);
    if (!trace_file.empty()) write_file_atomically(trace_file, trace_csv);
    if (dump_tree) io.out << tree_text;

    const TrainSummary facts{spec.model, task_name, task, rows, cols, classes, seconds, output, task_note};
    if (common.json && output != "-") io.out << train_summary_json(m, facts, c_search).dump(2) << "\n";
    else if (summary) io.err << train_summary_text(m, facts, c_search);
    return 0;
}

}  // namespace kestrel::cli
