// kestrel-explain: what a saved model's predictions depend on, on a data file:
// permutation importance (shared with kestrel-select), partial dependence and ICE curves
// of chosen columns, and the SHAP summary (mean |contribution| per column), as tables,
// JSON and SVG plots (docs/explanations.md).
#include <algorithm>
#include <sstream>

#include "common/commands.hpp"
#include "common/curves_output.hpp"
#include "common/explanation_plots.hpp"
#include "common/explanation_report.hpp"
#include "common/importance_output.hpp"
#include "kestrel/tasks/importance_report.hpp"
#include "kestrel/tasks/prediction_plots.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/metrics/metric_registry.hpp"

namespace kestrel::cli {
namespace {

struct ExplainFlags {
    bool importance = false, shap = false;
    std::vector<std::string> pdp;
    std::string ice;
    std::string metric;
    int repeats = 5;
    int grid_resolution = 100;
    int ice_rows = 100;
    std::string output;
};

// Input column `name` of the model (its header name, or x1..xd when the file had none).
Index column_of(const Model& model, const std::string& name, const std::string& flag) {
    const auto names = model.input_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end()) return static_cast<Index>(it - names.begin());
    std::string list;
    for (std::size_t i = 0; i < names.size() && i < 12; ++i) list += (i ? ", " : "") + names[i];
    if (names.size() > 12) list += ", ...";
    throw UsageError(flag + ": no column '" + name + "' among the model's input columns (" + list + ")");
}

bool is_categorical(const Model& model, Index c) {
    const auto& cats = model.categories();
    return static_cast<std::size_t>(c) < cats.size() && !cats[static_cast<std::size_t>(c)].empty();
}

struct Curve {
    Index column = 0;
    bool ice = false;
};

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
    ExplainFlags f;
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
    app.add_flag("--shap-summary", f.shap,
                 "mean |contribution| of each input column (tree, forest, gbdt and the linear models)");
    plots.add_to(app, explain_plot_kinds(), false);
    app.add_option("-o,--output", f.output, "write the report (text, or JSON with --json) to FILE instead of stdout")
        ->type_name("FILE");
    app.add_option("MODEL", model_path, "model file written by kestrel-train")->required()->type_name("FILE");
    app.add_option("DATA", input, "data to explain (.csv, .tsv, .libsvm; - for stdin)")->required()->type_name("FILE");
    if (!parse(app, args, io)) return 0;

    if (!f.importance && !f.shap && f.pdp.empty() && f.ice.empty())
        throw UsageError("nothing to explain: give --importance, --pdp COL, --ice COL or --shap-summary");
    if (!f.metric.empty() && !f.importance) throw UsageError("--metric applies to --importance, which is not given");
    if (!f.metric.empty()) metric_info(f.metric);  // an unknown name fails before any work
    const auto targets = plots.targets(explain_plot_kinds());
    Context ctx = common.context(io);
    const Model model = Model::load(model_path);

    // Every choice is checked before the data is read.
    std::vector<Curve> curves;
    for (const auto& name : f.pdp) curves.push_back({column_of(model, name, "--pdp"), false});
    if (!f.ice.empty()) {
        const Index c = column_of(model, f.ice, "--ice");
        auto it = std::find_if(curves.begin(), curves.end(), [&](const Curve& k) { return k.column == c; });
        if (it != curves.end())
            it->ice = true;
        else
            curves.push_back({c, true});
    }
    if (f.shap) {
        try {
            (void)model.contribution_sources();
        } catch (const UsageError& e) {
            const std::string why = e.what();
            if (why.find("retrain") != std::string::npos)
                throw UsageError("--shap-summary: " + why.substr(why.find(':') + 2) + "; or use --importance");
            throw UsageError("--shap-summary: model " + model.model_name() +
                             " gives no feature contributions (tree, forest, gbdt and the linear models do); use "
                             "--importance, which works for every model");
        }
    }
    check_explain_plots(targets, f.importance, f.shap, !curves.empty());

    ReadOptions read = model.align_options(data.options(ctx.threads));
    // Only --importance scores the rows: the others leave the model's label column of a CSV
    // with a header unread (the rows explained often leave it empty), as kestrel-predict
    // without --metrics.
    if (!f.importance && data.label_col.empty() && read.header) read.label_col.clear();
    Table t = read_table(input, read);
    if (t.X.rows() == 0) throw DataError(t.source + ": no data rows");
    const auto names = model.input_names();
    Json j = {{"model", model.model_name()}, {"data", t.source}, {"rows", t.X.rows()}, {"seed", common.seed}};
    std::ostringstream text;
    text << "explanations of " << model.model_name() << " on " << t.source << " (" << plural(t.X.rows(), "row")
         << ")\n";
    ExplanationPlots pictures;
    pictures.about = model.model_name() + " on " + plot_source_name(t.source);

    if (f.importance) {
        const Vector y = labelled_targets(model, t, option_named("importance"));
        const std::string metric = f.metric.empty() ? default_metric(model.task()) : f.metric;
        const PermutationImportance p = permutation_importance(model, t.X, y, metric, f.repeats, common.seed, ctx.threads);
        j["importance"] = importance_json(p, names, metric, f.repeats);
        text << "\npermutation importance: " << metric << " baseline " << fixed_digits(p.baseline) << ", "
             << plural(f.repeats, "repeat") << ", seed " << common.seed << "\n"
             << importance_table(p, names);
        pictures.importance = p;
        pictures.importance_metric = metric;
    }
    if (f.shap) {
        const ShapSummary s = shap_summary(model, t.X);
        j["shap_summary"] = shap_summary_json(s);
        text << "\nSHAP summary: mean |contribution| per column" << (s.outputs.size() > 1 ? ", per class and summed" : "")
             << "\n"
             << shap_summary_table(s);
        pictures.shap = s;
    }
    if (!curves.empty()) {
        j["partial_dependence"] = Json::array();
        for (const Curve& c : curves) {
            const std::string& name = names[static_cast<std::size_t>(c.column)];
            const auto grid = column_grid(model, t.X, c.column, f.grid_resolution);
            const PartialDependence p = partial_dependence(model, t.X, c.column, grid, c.ice ? f.ice_rows : 0,
                                                           common.seed, ctx.threads);
            const bool categorical = is_categorical(model, c.column);
            j["partial_dependence"].push_back(partial_dependence_json(p, name, categorical, c.ice));
            text << "\npartial dependence of " << name << " (" << p.response << ", mean over "
                 << plural(t.X.rows(), "row") << ")"
                 << (c.ice ? ", with ICE curves of " + plural(static_cast<long long>(p.ice_rows.size()), "row") : "")
                 << "\n"
                 << partial_dependence_table(p, name, c.ice);
            pictures.curves.push_back({p, name, categorical, c.ice});
        }
    }
    write_explanation_plots(targets, pictures, names);
    const std::string report = common.json ? j.dump(2) + "\n" : text.str();
    if (!f.output.empty()) {
        write_file_atomically(f.output, report);
        return 0;
    }
    io.out << report;
    io.check_out();
    return 0;
}

}  // namespace kestrel::cli
