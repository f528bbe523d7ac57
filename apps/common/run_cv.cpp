#include "common/commands.hpp"
#include "common/curves_output.hpp"
#include "common/cv_flags.hpp"
#include "common/cv_outputs.hpp"
#include "common/cv_threshold.hpp"
#include "common/search_plots.hpp"
#include "kestrel/tasks/prediction_plots.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/metrics/classification.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/metrics/regression.hpp"
#include "kestrel/model_selection/cross_validate.hpp"
#include "kestrel/tasks/cv_report.hpp"
#include "kestrel/tasks/threshold_refit.hpp"

namespace kestrel::cli {
int run_cv(const std::vector<std::string>& args, Io& io) {
    CLI::App app{"Estimate a model's generalization by k-fold cross-validation.\n"
                 "  kestrel-cv -m MODEL [-p k=v]... [-k 5 | --loo | --shuffle-split R | --groups COL | --validation FILE]\n"
                 "             [--repeat R] [--seed S] [--predictions out.csv] [--learning-curve 0.1:1:10] DATA_FILE",
                 "kestrel-cv"};
    CommonFlags common;
    DataFlags data;
    ModelFlags model;
    std::string input;
    CvOptions opts;
    CvThresholdFlags threshold;
    common.add_to(app);
    data.add_to(app);
    data.add_weights_to(app);
    data.add_group_to(app);
    model.add_to(app, true);
    SplitFlags split;
    split.add_to(app, "number of folds");
    CvOutputFlags outputs;
    outputs.add_to(app);
    app.add_option("--metric", opts.metrics, "metric to report (repeatable; default: a standard set for the task)")
        ->allow_extra_args(false);
    app.add_option("DATA_FILE", input, "data (.csv, .tsv, .libsvm; - for stdin)")->type_name("FILE")->required();
    threshold.add_to(app);
    PlotFlags plots;
    plots.add_to(app, cv_plot_kinds(), true);
    if (!parse(app, args, io)) return 0;
    const auto plot_targets = plots.targets(cv_plot_kinds());

    const ModelSpec spec = model.spec(data);
    for (const auto& m : opts.metrics) metric_info(m);  // unknown names fail before any work
    outputs.check();
    check_learning_plots(plot_targets, plots.curves, outputs.wants_curve());
    Context ctx = common.context(io);
    const SplitFlags::Data cv_data = split.read(input, spec, data, ctx);
    const Dataset& d = cv_data.data;
    static_cast<SplitOptions&>(opts) = cv_data.split;
    for (const auto& m : opts.metrics) check_metric_task(m, d.task);
    check_threshold_tuning(threshold.tune, spec, d);
    check_prediction_outputs(plot_targets, plots.curves, d.task, true, spec.model, true);  // scores: known after the folds
    if (outputs.wants_curve()) {
        const LearningCurve curve = run_learning_curve(outputs, spec, d, opts, ctx);
        write_learning_plots(plot_targets, curve, spec.model + " on " + plot_source_name(d.source));
        print_learning_curve(curve, spec, d, opts, common.json, common.seed, io);
        return 0;
    }
    const CvResult r = cross_validate(spec, d, opts, ctx);
    if (!outputs.predictions.empty()) write_file_atomically(outputs.predictions, fold_predictions_csv(d, r, opts));
    check_prediction_outputs(plot_targets, plots.curves, d.task, r.out_of_fold.has_scores(), spec.model,
                             r.out_of_fold.proba.size() > 0);
    write_prediction_outputs(plot_targets, plots.curves, r.out_of_fold, spec.model + ", out of fold, " + plot_source_name(d.source));
    const CvThresholdOutcome tuned = tune_and_refit(threshold, spec, d, r, ctx);

    if (common.json) {
        Json j = cv_about_json(spec, d, opts, common.seed);
        j.update(cv_scores_json(r, d.task));
        j.update(tuned.json);
        io.out << j.dump(2) << "\n";
        return 0;
    }
    io.out << cv_title(opts) << " of " << spec.model << " on " << d.source << " (" << plural(d.rows(), "row");
    if (d.task == Task::classification) io.out << ", " << plural(d.n_classes(), "class");
    io.out << "), seed " << common.seed << "\n\n" << cv_scores_text(r) << "\n"
           << (r.pooled_splits ? "Test predictions of every split, pooled"
                               : opts.repeats > 1 ? "Out-of-fold predictions (first repeat)" : "Out-of-fold predictions")
           << ":\n";
    io.out << (d.task == Task::classification ? classification_report(r.out_of_fold).to_text()
                                              : regression_report(r.out_of_fold).to_text());
    io.out << tuned.text;
    return 0;
}

}  // namespace kestrel::cli
