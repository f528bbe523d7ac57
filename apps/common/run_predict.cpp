#include <omp.h>

#include "common/commands.hpp"
#include "common/curves_output.hpp"
#include "common/explain_output.hpp"
#include "common/prediction_table.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/metrics/classification.hpp"
#include "kestrel/metrics/regression.hpp"

namespace kestrel::cli {

int run_predict(const std::vector<std::string>& args, Io& io) {
    CLI::App app{"Predict with a saved model; optionally score the predictions.\n"
                 "  kestrel-predict MODEL.json DATA_FILE [-o PRED.csv] [--proba | --decision] [--metrics]",
                 "kestrel-predict"};
    CommonFlags common;
    DataFlags data;
    std::string model_path, input, output;
    bool proba = false, decision = false, metrics = false;
    common.add_to(app);
    data.add_to(app);
    app.add_option("MODEL", model_path, "model file written by kestrel-train")->type_name("FILE")->required();
    app.add_option("DATA_FILE", input, "data to predict (.csv, .tsv, .libsvm; - for stdin)")->type_name("FILE")->required();
    app.add_option("-o,--output", output, "predictions CSV (default: stdout; with --json --metrics: not written)")->type_name("FILE");
    auto* p = app.add_flag("--proba", proba, "add class probability columns");
    app.add_flag("--decision", decision, "add decision value columns")->excludes(p);
    app.add_flag("--metrics", metrics, "score the predictions against the file's labels");
    bool explain = false;
    app.add_flag("--explain", explain,
                 "tree, forest, adaboost: print each row's decision path (features, thresholds, leaf) to stdout");
    double threshold = 0;
    auto* threshold_flag = app.add_option("--threshold", threshold,
                                          "binary: predict the positive class when P(positive) (or, without "
                                          "probabilities, the decision value) is above this");
    PlotFlags plots;
    plots.add_to(app, prediction_plot_kinds(), true);
    if (!parse(app, args, io)) return 0;
    const auto plot_targets = plots.targets(prediction_plot_kinds());
    if (plots.any()) metrics = true;  // curves and plots score the predictions: they imply --metrics

    Model model = Model::load(model_path);
    if (threshold_flag->count() > 0) model.set_threshold({threshold, model.threshold_score(), "user"});
    if ((proba || decision) && model.task() != Task::classification)
        throw UsageError(std::string(proba ? "--proba" : "--decision") + " needs a classifier; " + model.model_name() +
                         " was trained for regression");
    if (proba && !model.has_predict_proba())
        throw UsageError("--proba: model " + model.model_name() + " does not give probabilities");
    if (decision && !model.has_decision_function())
        throw UsageError("--decision: model " + model.model_name() + " has no decision function");

    check_prediction_outputs(plot_targets, plots.curves, model.task(),
                             model.has_predict_proba() || model.has_decision_function(), model.model_name());
    if (explain) check_explain(model, output.empty());
    Context ctx = common.context(io);
    // Prediction's parallel loops (a forest's blocks of rows) size their teams from OpenMP.
    omp_set_num_threads(ctx.resolved_threads());
    Table t = read_table(input, model.align_options(data.options(ctx.threads)));
    if (t.X.rows() == 0) throw DataError(t.source + ": no data rows");

    PredictionColumns cols;
    cols.predicted = model.predict(t.X);
    const bool classify = model.task() == Task::classification;
    // Scores are computed once and serve both the output columns and the metrics.
    const bool want_proba = proba || (metrics && classify && model.has_predict_proba());
    const bool want_decision = decision || (metrics && classify && !want_proba && model.has_decision_function());
    Matrix proba_m = want_proba ? model.predict_proba(t.X) : Matrix();
    Matrix decision_m = want_decision ? model.decision_function(t.X) : Matrix();
    if (proba) cols.proba = proba_m;
    if (decision) cols.decision = decision_m;

    const bool write_predictions = !(common.json && metrics && output.empty());
    if (write_predictions) write_file_atomically(output.empty() ? "-" : output, prediction_csv(model, cols));
    if (explain) io.out << explain_text(model, t.X, cols.predicted);

    if (metrics) {
        if (!t.labels) throw DataError(t.source + ": --metrics needs a label column in the data file");
        Predictions pr;
        pr.task = model.task();
        pr.y_pred = cols.predicted;
        if (classify) {
            pr.classes = model.classes();
            pr.y_true = encode_with_classes(*t.labels, pr.classes);
            pr.proba = proba_m;
            pr.decision = decision_m;
        } else {
            pr.y_true = numeric_targets(*t.labels, t.source);
        }
        // Predictions on stdout keep stdout clean: the report then goes to stderr.
        std::ostream& report_out = (write_predictions && output.empty()) ? io.err : io.out;
        if (classify) {
            write_prediction_outputs(plot_targets, plots.curves, pr, model.model_name() + " on " + short_source(t.source));
            const auto report = classification_report(pr);
            report_out << (common.json ? report.to_json().dump(2) + "\n" : report.to_text());
        } else {
            const auto report = regression_report(pr);
            report_out << (common.json ? report.to_json().dump(2) + "\n" : report.to_text());
        }
    }
    return 0;
}

}  // namespace kestrel::cli
