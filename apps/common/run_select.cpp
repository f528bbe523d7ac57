// kestrel-select: feature selection by cross-validated error (greedy forward or
// backward), by L1 models along their regularization path, and permutation
// importance of a saved model on held-out data.
#include <algorithm>
#include <iomanip>
#include <numeric>
#include <sstream>

#include "common/commands.hpp"
#include "common/flag_spelling.hpp"
#include "common/importance_output.hpp"
#include "kestrel/tasks/importance_report.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/model_selection/feature_selection.hpp"
#include "kestrel/model_selection/permutation_importance.hpp"
#include "kestrel/tasks/selection_json.hpp"
#include "kestrel/tasks/selection_refit.hpp"

namespace kestrel::cli {
namespace {

struct SelectFlags {
    std::string method = "sequential";
    std::string direction = "forward";
    int max_features = 0;
    int path_points = 20;
    std::string output, save_model, heldout;
    int repeats = 5;
};

std::string joined(const std::vector<Index>& features, const std::vector<std::string>& names) {
    std::string s;
    for (Index j : features) s += (s.empty() ? "" : ", ") + names[static_cast<std::size_t>(j)];
    return s;
}

void write_outputs(const SelectFlags& f, const ModelSpec& spec, const Dataset& d, const std::vector<Index>& selected,
                   const std::vector<std::string>& names, const Context& ctx, Json& summary) {
    if (!f.output.empty()) {
        std::string text;
        for (Index j : selected) text += names[static_cast<std::size_t>(j)] + "\n";
        write_file_atomically(f.output, text);
        summary["output"] = f.output;
    }
    if (!f.save_model.empty()) {
        refit_on_selected(spec, d, selected, ctx).save(f.save_model);
        summary["model"] = f.save_model;
    }
}

int run_sequential(const SelectFlags& f, const ModelSpec& spec, const Dataset& d, const SelectionOptions& opts,
                   const CommonFlags& common, const Context& ctx, Io& io) {
    const SelectionResult r = sequential_selection(spec, d, opts, ctx);
    const auto names = selection_feature_names(d);
    Json j = sequential_selection_json(r, spec.model, d, opts, common.seed);
    j["stop"] = r.stop.respelled(flag_spelling);
    write_outputs(f, spec, d, r.selected, names, ctx, j);
    if (common.json) {
        io.out << j.dump(2) << "\n";
        return 0;
    }
    io.out << f.direction << " selection of " << spec.model << " on " << d.source << " (" << plural(d.rows(), "row")
           << ", " << plural(d.cols(), "feature") << "), " << opts.cv.k << "-fold cross-validated " << r.metric
           << " (error = " << (metric_info(r.metric).greater_is_better ? "1 - " + r.metric : r.metric) << "), seed "
           << common.seed << "\n\n";
    std::size_t w = 6;
    for (const auto& n : names) w = std::max(w, n.size() + 1);
    io.out << std::left << std::setw(5) << "step" << std::setw(static_cast<int>(w) + 2) << "change" << std::right
           << std::setw(9) << "features" << std::setw(12) << r.metric << std::setw(10) << "error"
           << "\n";
    for (std::size_t i = 0; i < r.trajectory.size(); ++i) {
        const auto& s = r.trajectory[i];
        const std::string change =
            s.changed < 0 ? "(all)" : (opts.forward ? "+" : "-") + names[static_cast<std::size_t>(s.changed)];
        io.out << std::left << std::setw(5) << (opts.forward ? i + 1 : i) << std::setw(static_cast<int>(w) + 2)
               << change << std::right << std::setw(9) << s.features.size() << std::setw(12) << format_fixed(s.score, 4)
               << std::setw(10) << format_fixed(s.error, 4) << "\n";
    }
    io.out << "stopped: " << r.stop.respelled(flag_spelling) << "\nselected (" << r.selected.size()
           << "): " << joined(r.selected, names) << "\n";
    return 0;
}

int run_l1(const SelectFlags& f, const ModelSpec& spec, const Dataset& d, const SelectionOptions& opts,
           const CommonFlags& common, const Context& ctx, Io& io) {
    const L1SelectionResult r = l1_selection(spec, d, opts, f.path_points, ctx);
    const auto names = selection_feature_names(d);
    Json j = l1_selection_json(r, d, opts, common.seed);
    write_outputs(f, spec, d, r.selected, names, ctx, j);
    if (common.json) {
        io.out << j.dump(2) << "\n";
        return 0;
    }
    io.out << "L1 selection with " << r.model << " on " << d.source << " (" << plural(d.rows(), "row") << ", "
           << plural(d.cols(), "feature") << "), " << opts.cv.k << "-fold cross-validated " << r.metric << ", seed "
           << common.seed << "\n\n"
           << std::right << std::setw(14) << r.strength_name << std::setw(9) << "nonzero" << std::setw(12) << r.metric
           << std::setw(10) << "error"
           << "\n";
    for (std::size_t i = 0; i < r.path.size(); ++i) {
        const auto& p = r.path[i];
        std::ostringstream s;
        s << std::setprecision(6) << p.strength;
        io.out << std::setw(14) << s.str() << std::setw(9) << p.nonzero.size() << std::setw(12) << format_fixed(p.score, 4)
               << std::setw(10) << format_fixed(p.error, 4) << (i == r.chosen ? "  <- chosen" : "") << "\n";
    }
    io.out << "entry order: " << joined(r.entry_order, names) << "\nselected (" << r.selected.size()
           << "): " << joined(r.selected, names) << "\n";
    return 0;
}

int run_permutation(const SelectFlags& f, const std::string& model_path, const DataFlags& data,
                    const std::string& metric_flag, const CommonFlags& common, const Context& ctx, Io& io) {
    if (model_path.empty()) throw UsageError("--method permutation needs -m MODEL_FILE (a saved model)");
    if (f.heldout.empty()) throw UsageError("--method permutation needs --heldout FILE (labelled data)");
    if (!f.save_model.empty()) throw UsageError("--save-model: --method permutation selects nothing to retrain");
    const Model model = Model::load(model_path);
    Table t = read_table(f.heldout, model.align_options(data.options(ctx)));
    if (t.X.rows() == 0) throw DataError(t.source + ": no data rows");
    const Vector y = labelled_targets(model, t, option_named("heldout"));
    const std::string metric = metric_flag.empty() ? default_metric(model.task()) : metric_flag;
    // One shuffle per input column (a categorical column's codes move as a whole, whatever
    // the model's encoding): the library function kestrel-explain --importance calls too.
    const PermutationImportance p = permutation_importance(model, t.X, y, metric, f.repeats, common.seed, ctx.threads);
    const auto names = model.input_names();
    std::vector<Index> useful;
    for (Index j : importance_order(p))
        if (p.mean[j] > 0) useful.push_back(j);
    Json j = {{"method", "permutation"}, {"model", model.model_name()}, {"rows", t.X.rows()}, {"seed", common.seed}};
    j.update(importance_json(p, names, metric, f.repeats));
    j["selected"] = feature_names_json(useful, names);
    if (!f.output.empty()) {
        std::string text;
        for (Index c : useful) text += names[static_cast<std::size_t>(c)] + "\n";
        write_file_atomically(f.output, text);
        j["output"] = f.output;
    }
    if (common.json) {
        io.out << j.dump(2) << "\n";
        return 0;
    }
    io.out << "permutation importance of " << model.model_name() << " on " << t.source << " ("
           << plural(t.X.rows(), "row") << "), " << metric << " baseline " << format_fixed(p.baseline, 4) << ", "
           << plural(f.repeats, "repeat") << ", seed " << common.seed << "\n\n"
           << importance_table(p, names);
    return 0;
}

}  // namespace

int run_select(const std::vector<std::string>& args, Io& io) {
    CLI::App app{
        "Select features: greedy forward/backward selection or L1 paths scored by cross-validation, or\n"
        "permutation importance of a saved model on held-out data.\n"
        "  kestrel-select -m MODEL [-p k=v]... [--direction forward|backward] [--max-features N]\n"
        "                 [-k 5] [--metric M] DATA_FILE [--output features.txt] [--save-model MODEL.json]\n"
        "  kestrel-select --method l1 [-m lasso|logistic|linear_svm] DATA_FILE ...\n"
        "  kestrel-select --method permutation -m MODEL.json --heldout FILE [--repeats 5]",
        "kestrel-select"};
    CommonFlags common;
    DataFlags data;
    ModelFlags model;
    SelectFlags f;
    SelectionOptions opts;
    std::string input, metric;
    common.add_to(app);
    data.add_to(app);
    data.add_weights_to(app);
    model.add_to(app, false);
    app.add_option("--method", f.method, "sequential (greedy, by cross-validated error), l1, or permutation")
        ->check(CLI::IsMember({"sequential", "l1", "permutation"}))
        ->capture_default_str();
    app.add_option("--direction", f.direction, "sequential: forward (add features) or backward (remove them)")
        ->check(CLI::IsMember({"forward", "backward"}))
        ->capture_default_str();
    app.add_option("--max-features", f.max_features, "at most this many features (0 = no limit)")
        ->check(whole_number(0, 2147483647))
        ->capture_default_str();
    app.add_option("-k,--folds", opts.cv.k, "cross-validation folds (stratified for classification)")
        ->check(whole_number(2, 2147483647))
        ->capture_default_str();
    app.add_option("--repeat", opts.cv.repeats, "repetitions of the k-fold split")->check(whole_number(1, kMaxRepeats));
    app.add_option("--metric", metric,
                   "metric scoring the candidates (default: accuracy / rmse; permutation: accuracy / r2)");
    app.add_option("--path-points", f.path_points, "l1: strengths on the regularization path")
        ->check(whole_number(2, 10000))
        ->capture_default_str();
    app.add_option("--output", f.output, "write the selected feature names, one a line")->type_name("FILE");
    app.add_option("--save-model", f.save_model, "train the model on the selected features and save it")->type_name("FILE");
    app.add_option("--heldout", f.heldout, "permutation: labelled data the saved model is scored on")->type_name("FILE");
    app.add_option("--repeats", f.repeats, "permutation: shuffles per feature")
        ->check(whole_number(1, kMaxRepeats))
        ->capture_default_str();
    app.add_option("DATA_FILE", input, "training data (.csv, .tsv, .libsvm; - for stdin)")->type_name("FILE");
    if (!parse(app, args, io)) return 0;

    Context ctx = common.context(io);
    if (!metric.empty()) metric_info(metric);  // an unknown name fails before any work
    if (f.method == "permutation") return run_permutation(f, model.model, data, metric, common, ctx, io);
    if (input.empty()) throw UsageError("DATA_FILE is required");
    if (model.model.empty()) {
        if (f.method != "l1") throw UsageError("-m MODEL is required (see kestrel-train --list-models)");
    }
    opts.forward = f.direction == "forward";
    opts.max_features = f.max_features;
    opts.metric = metric;
    if (f.method == "l1" && model.model.empty()) {
        // The L1 model follows the task, which the labels decide: read them with a model
        // that does both tasks.
        ModelSpec probe;
        probe.model = "tree";
        probe.task = model.task == "auto" ? std::nullopt : std::optional<Task>(task_from_string(model.task));
        Dataset d = read_rows_to_split(data.training_options(input, ctx), probe);
        model.model = d.task == Task::classification ? "logistic" : "lasso";
        const ModelSpec spec = model.spec(data);
        return run_l1(f, spec, d, opts, common, ctx, io);
    }
    const ModelSpec spec = model.spec(data);
    require_labels_to_score(spec);
    const Dataset d = read_rows_to_split(data.training_options(input, ctx), spec);
    if (f.method == "l1") return run_l1(f, spec, d, opts, common, ctx, io);
    return run_sequential(f, spec, d, opts, common, ctx, io);
}

}  // namespace kestrel::cli
