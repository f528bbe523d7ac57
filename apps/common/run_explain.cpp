// kestrel-explain: what a saved model's predictions depend on, on a data file:
// permutation importance (shared with kestrel-select), partial dependence and ICE curves
// of chosen columns, and the SHAP summary (mean |contribution| per column), as tables,
// JSON and SVG plots (docs/explanations.md).
#include <sstream>

#include "common/commands.hpp"
#include "common/explanation_plots.hpp"
#include "common/explanation_report.hpp"
#include "common/importance_output.hpp"
#include "kestrel/tasks/explain_task.hpp"
#include "kestrel/tasks/prediction_plots.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/io/data_reader.hpp"

namespace kestrel::cli {
namespace {

// The report as text: the library's explanations, section by section.
std::string explanations_text(const Explanations& e, const Model& model, const Table& t, int repeats,
                              std::uint64_t seed) {
    const auto names = model.input_names();
    std::ostringstream text;
    text << "explanations of " << model.model_name() << " on " << t.source << " (" << plural(t.X.rows(), "row")
         << ")\n";
    if (e.importance)
        text << "\npermutation importance: " << e.importance_metric << " baseline " << fixed_digits(e.importance->baseline)
             << ", " << plural(repeats, "repeat") << ", seed " << seed << "\n"
             << importance_table(*e.importance, names);
    if (e.shap)
        text << "\nSHAP summary: mean |contribution| per column"
             << (e.shap->outputs.size() > 1 ? ", per class and summed" : "") << "\n"
             << shap_summary_table(*e.shap);
    for (const auto& c : e.curves) {
        const PartialDependence& p = c.pd;
        text << "\npartial dependence of " << c.name << " (" << p.response << ", mean over "
             << plural(t.X.rows(), "row") << ")"
             << (c.ice ? ", with ICE curves of " + plural(static_cast<long long>(p.ice_rows.size()), "row") : "") << "\n"
             << partial_dependence_table(p, c.name, c.ice);
    }
    return text.str();
}

}  // namespace

int run_explain(const std::vector<std::string>& args, Io& io) {
    CLI::App app{
        "Explain a saved model on a data file: permutation importance, partial dependence and ICE\n"
        "curves, and the SHAP summary (docs/explanations.md).\n"
        "  kestrel-explain MODEL DATA [--importance] [--pdp COL[,COL...]] [--ice COL] [--shap-summary]\n"
        "                  [--plot [KIND=]FILE.svg]... [--json] [-o FILE]",
        "kestrel-explain"};
    CommonFlags common;
    DataFlags data;
    ExplainRequest f;
    std::string output;
    PlotFlags plots;
    std::string model_path, input;
    common.add_to(app);
    data.add_to(app);
    app.add_flag("--importance", f.importance,
                 "permutation importance of each input column on labelled DATA (scikit-learn's "
                 "permutation_importance)");
    app.add_option("--metric", f.metric, "--importance: the score (default: accuracy / r2; an error metric is negated)");
    app.add_option("--repeats", f.repeats, "--importance: shuffles per column (scikit-learn's n_repeats)")
        ->check(whole_number(1, kMaxRepeats))
        ->capture_default_str();
    app.add_option("--pdp", f.pdp, "partial dependence of these input columns (comma-separated names)")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->type_name("COL[,COL...]");
    app.add_option("--ice", f.ice, "partial dependence and individual conditional expectation curves of a column")
        ->type_name("COL");
    app.add_option("--grid-resolution", f.grid_resolution,
                   "--pdp/--ice: points of a numeric column's grid between its 5th and 95th percentiles "
                   "(scikit-learn's grid_resolution)")
        ->check(whole_number(2, 100000))
        ->capture_default_str();
    app.add_option("--ice-rows", f.ice_rows, "--ice: curves kept for at most this many rows (a seeded sample)")
        ->check(whole_number(1, 2147483647))
        ->capture_default_str();
    app.add_flag("--shap-summary", f.shap_summary,
                 "mean |contribution| of each input column (tree, forest, gbdt and the linear models)");
    plots.add_to(app, explain_plot_kinds(), false);
    app.add_option("-o,--output", output, "write the report (text, or JSON with --json) to FILE instead of stdout")
        ->type_name("FILE");
    app.add_option("MODEL", model_path, "model file written by kestrel-train")->required()->type_name("FILE");
    app.add_option("DATA", input, "data to explain (.csv, .tsv, .libsvm; - for stdin)")->required()->type_name("FILE");
    if (!parse(app, args, io)) return 0;

    check_explain_request(f);
    const auto targets = plots.targets(explain_plot_kinds());
    Context ctx = common.context(io);
    const Model model = Model::load(model_path);
    check_explainable(model, f);
    check_explain_plots(targets, f.importance, f.shap_summary, !f.pdp.empty() || !f.ice.empty());

    const Table t = read_table(input, explain_read_options(model, data.options(ctx), f));
    const Explanations e = explain_table(model, t, f, ctx);
    write_explanation_plots(targets, e, model.model_name() + " on " + plot_source_name(t.source), model.input_names());
    Json j = {{"model", model.model_name()}, {"data", t.source}, {"rows", t.X.rows()}, {"seed", common.seed}};
    j.update(explanations_json(e, model.input_names(), f.repeats));
    const std::string report = common.json ? j.dump(2) + "\n" : explanations_text(e, model, t, f.repeats, common.seed);
    if (!output.empty()) {
        write_file_atomically(output, report);
        return 0;
    }
    io.out << report;
    io.check_out();
    return 0;
}

}  // namespace kestrel::cli
