#include <limits>

#include "common/commands.hpp"
#include "common/curves_output.hpp"
#include "common/prediction_table.hpp"
#include "kestrel/tasks/prediction_plots.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/metrics/classification.hpp"
#include "kestrel/metrics/query_metrics.hpp"
#include "kestrel/metrics/regression.hpp"
#include "kestrel/tasks/predict_stream.hpp"

// kestrel-predict: flags in, kestrel::predict_stream (lib/src/tasks) does the work, the
// report out. The library's errors name its settings; run_command prints them as flags.
namespace kestrel::cli {
namespace {

// The --metrics report: curves and plots, then the report for the model's task.
void write_predict_report(const Model& model, const PredictResult& result, const PlotFlags& plots,
                          const std::vector<PlotTarget>& plot_targets, bool json, std::ostream& report_out) {
    const Predictions& pr = result.predictions;
    if (model.task() == Task::classification) {
        write_prediction_outputs(plot_targets, plots.curves, pr, model.model_name() + " on " + plot_source_name(result.source));
        const auto report = classification_report(pr);
        report_out << (json ? report.to_json().dump(2) + "\n" : report.to_text());
    } else if (pr.qid.size() > 0) {
        const auto report = ranking_report(pr);
        report_out << (json ? report.to_json().dump(2) + "\n" : report.to_text());
    } else {
        const auto report = regression_report(pr);
        report_out << (json ? report.to_json().dump(2) + "\n" : report.to_text());
    }
}

}  // namespace

int run_predict(const std::vector<std::string>& args, Io& io) {
    CLI::App app{"Predict with a saved model; optionally score the predictions.\n"
                 "  kestrel-predict MODEL.json DATA_FILE [-o PRED.csv] [--proba | --decision] [--metrics]",
                 "kestrel-predict"};
    CommonFlags common;
    DataFlags data;
    PredictRequest request;
    std::string output;
    common.add_to(app);
    data.add_to(app);
    data.add_group_to(app);
    app.add_option("MODEL", request.model_path, "model file written by kestrel-train")->type_name("FILE")->required();
    app.add_option("DATA_FILE", request.input, "data to predict (.csv, .tsv, .libsvm; - for stdin)")->type_name("FILE")->required();
    app.add_option("-o,--output", output, "predictions file (default: stdout; with --json --metrics: not written)")->type_name("FILE");
    auto* p = app.add_flag("--proba", request.proba, "add class probability columns (named proba_CLASS)");
    app.add_flag("--decision", request.decision, "add decision value columns")->excludes(p);
    app.add_flag("--metrics", request.metrics, "score the predictions against the file's labels");
    app.add_flag("--contrib", request.contributions,
                 "tree, forest, gbdt, linear models: add each row's feature contributions (TreeSHAP, or "
                 "w_j (x_j - mean_j); one column per input column, then bias; CLASS:feature per class for "
                 "several outputs), summing to the raw output");
    bool explain = false;
    app.add_flag("--explain", explain,
                 "tree, forest, adaboost: print each row's decision path (features, thresholds, leaf) to stdout");
    double threshold = 0;
    auto* threshold_flag = app.add_option("--threshold", threshold,
                                          "binary: predict the positive class when P(positive) (or, without "
                                          "probabilities, the decision value) is above this");
    std::string output_format = "csv";
    app.add_option("--output-format", output_format, "predictions as csv, tsv, or jsonl (one JSON object per row)")
        ->check(CLI::IsMember({"csv", "tsv", "jsonl"}))
        ->capture_default_str();
    bool no_output_header = false;
    app.add_flag("--no-output-header", no_output_header,
                 "csv, tsv: bare values, no column names (as svm-predict writes)");
    app.add_option("--id-col", request.id_column,
                   "copy this input column (CSV: header name or 0-based index; LIBSVM: 'line', the line number) "
                   "into the output, first");
    app.add_option("--keep-cols", request.keep_columns, "copy these CSV columns (names or 0-based indices) into the output, "
                                                        "before the predictions")
        ->delimiter(',')
        ->type_name("COL[,COL...]");
    // Hidden: the size of the pieces the input is read in (0 = the whole input at once);
    // tests make it tiny to cross many piece boundaries. Not given: chosen_predict_chunk_bytes.
    long long chunk_bytes = -1;
    app.add_option("--chunk-bytes", chunk_bytes, "")->group("")->check(whole_number(0, std::numeric_limits<long long>::max()));
    PlotFlags plots;
    plots.add_to(app, prediction_plot_kinds(), true);
    if (!parse(app, args, io)) return 0;
    const auto plot_targets = plots.targets(prediction_plot_kinds());
    if (plots.any()) request.metrics = true;  // curves and plots score the predictions: they imply --metrics

    Model model = Model::load(request.model_path);
    if (threshold_flag->count() > 0) model.set_threshold({threshold, model.threshold_score(), "user"});
    if ((request.proba || request.decision) && model.task() != Task::classification)
        throw UsageError(std::string(request.proba ? "--proba" : "--decision") + " needs a classifier; " +
                         model.model_name() + " was trained for regression");
    if (request.proba && !model.has_predict_proba())
        throw UsageError("--proba: model " + model.model_name() + " does not give probabilities");
    if (request.decision && !model.has_decision_function())
        throw UsageError("--decision: model " + model.model_name() + " has no decision function");
    check_prediction_outputs(plot_targets, plots.curves, model.task(),
                             model.has_predict_proba() || model.has_decision_function(), model.model_name(),
                             model.has_predict_proba());
    if (explain) {
        model.check_explains_rows();
        if (output.empty()) throw UsageError("--explain prints to stdout; write the predictions to a file with -o");
    }
    if (request.contributions) (void)model.contribution_sources();  // refused before any input is read
    const Context ctx = common.context(io);
    if (!data.group_col.empty() && !request.metrics)
        throw UsageError("--group-col names the queries of the rows for --metrics (ndcg, map, mrr); give --metrics");

    request.threads = ctx.resolved_threads();
    request.read = data.options(ctx);
    request.read.threads = request.threads;
    request.group_column = data.group_col;
    request.layout.format = prediction_format_from_string(output_format);
    request.layout.header = !no_output_header;
    if (chunk_bytes >= 0) request.chunk_bytes = static_cast<std::size_t>(chunk_bytes);
    request.keep_whole_table = explain;  // --explain prints every row's path after the predictions

    PredictResult result;
    const auto produce = [&](const TextSink& sink) {
        result = predict_stream(model, request, sink, ctx);
        if (explain) io.out << model.explain_rows(result.whole.X, result.whole_predicted);
    };
    const bool write_predictions = !(common.json && request.metrics && output.empty());
    if (!write_predictions) produce([](std::string_view) {});
    else if (output.empty())
        produce([&io](std::string_view piece) {
            io.out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
            io.check_out();  // a full disk or a closed pipe ends the run now
        });
    else write_file_atomically_in_pieces(output, produce);

    // Predictions on stdout keep stdout clean: the report then goes to stderr.
    if (request.metrics)
        write_predict_report(model, result, plots, plot_targets, common.json,
                             (write_predictions && output.empty()) ? io.err : io.out);
    return 0;
}

}  // namespace kestrel::cli
