#include <algorithm>
#include <iomanip>
#include <optional>
#include <sstream>

#include "common/commands.hpp"
#include "common/curves_output.hpp"
#include "common/flag_spelling.hpp"
#include "common/cv_flags.hpp"
#include "common/cv_outputs.hpp"
#include "common/prediction_table.hpp"
#include "common/search_flags.hpp"
#include "common/search_plots.hpp"
#include "kestrel/tasks/prediction_plots.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/model_selection/grid_search.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/cv_report.hpp"
#include "kestrel/tasks/search_refit.hpp"
#include "kestrel/tasks/search_results_csv.hpp"
#include "kestrel/tasks/search_text.hpp"

namespace kestrel::cli {
namespace {
constexpr std::size_t kShownPoints = 25;  // the table's rows; --results FILE has every point
}  // namespace

int run_gridsearch(const std::vector<std::string>& args, Io& io) {
    CLI::App app{"Search a grid of parameters by cross-validation; refit the best on all the data.\n"
                 "  kestrel-gridsearch -m MODEL -g 'C=2^-5:2^15:2' -g 'gamma=0.001,0.01,0.1' [-k 5]\n"
                 "                     [--metric f1_macro] DATA_FILE [-o BEST.json] [--results grid.csv]",
                 "kestrel-gridsearch"};
    CommonFlags common;
    DataFlags data;
    ModelFlags model;
    std::string input, output, results;
    SearchFlags search_flags;
    SearchRequest& request = search_flags.request;
    common.add_to(app);
    data.add_to(app);
    data.add_weights_to(app);
    data.add_group_to(app);
    model.add_to(app, true);
    app.add_option("-g,--grid", request.grid,
                   "grid axis: name=v1,v2,...  name=a:b:step  name=B^a:B^b:step (repeatable); "
                   "none: the model's declared search space (docs/auto.md), 10 random points")
        ->allow_extra_args(false);
    SplitFlags split;
    split.add_to(app, "cross-validation folds per point");
    search_flags.add_to(app);
    app.add_option("--metric", request.metric, "metric to optimize (default: accuracy or r2)");
    app.add_option("DATA_FILE", input, "data (.csv, .tsv, .libsvm; - for stdin)")->type_name("FILE")->required();
    app.add_option("-o,--output", output, "write the best point's model, refit on all the data")->type_name("FILE");
    app.add_option("--results", results, "write every point's scores as CSV")->type_name("FILE");
    static const std::vector<PlotKind> grid_kinds = {{"grid", {}}};
    PlotFlags plots;
    plots.add_to(app, grid_kinds, false);
    if (!parse(app, args, io)) return 0;
    const auto plot_targets = plots.targets(grid_kinds);

    for (const auto& g : request.grid) model.poly_axis |= g.rfind("poly=", 0) == 0;
    ModelSpec spec = model.spec(data);
    const std::vector<GridAxis> axes = search_axes_for(request, spec);
    check_search_request(request);
    if (!plot_targets.empty()) check_grid_plot(axes);
    if (!plot_targets.empty() && request.nested() && output.empty())
        throw UsageError("--plot draws the search over all the rows, which --outer-k runs only with -o");
    Context ctx = common.context(io);
    const SplitFlags::Data cv_data = split.read(input, spec, data, ctx);
    const Dataset& d = cv_data.data;
    const std::string metric = search_metric_for(request, d);
    const std::size_t n_splits = make_splits(d, cv_data.split, ctx.seed).size();
    const SearchOptions search_opts = search_options_for(request, axes, cv_data.split, metric, n_splits);
    Json about = {{"model", spec.model}, {"metric", metric}, {"seed", common.seed}};
    about.update(cv_scheme_json(cv_data.split));
    std::optional<NestedSearchResult> nested;
    if (request.nested()) {
        nested = nested_search(spec, axes, d, search_opts, outer_split_for(request, cv_data.split), ctx);
        if (output.empty()) {  // the estimate is the answer; -o also needs the search on all rows
            Json j = about;
            j["nested"] = nested_search_json(*nested);
            if (common.json) io.out << j.dump(2) << "\n";
            else io.out << "search of " << spec.model << " on " << d.source << ", " << describe(cv_data.split)
                        << " inside " << request.outer_k << " outer folds\n" << nested_text(*nested);
            return 0;
        }
    }
    const GridSearchResult r = search(spec, axes, d, search_opts, ctx);
    if (!results.empty() || !request.known_file.empty())
        write_file_atomically(results.empty() ? request.known_file : results, results_csv(r, axes));
    for (const auto& t : plot_targets)
        write_file_atomically(t.path, grid_heatmap_svg(r, axes, spec.model + " on " + plot_source_name(d.source)));

    if (!output.empty())
        refit_best_point(r, d, {input, metric, describe(cv_data.split), nested ? &*nested : nullptr}, ctx).save(output);

    if (common.json) {
        Json j = about;
        j.update(search_json(r));
        if (nested) j["nested"] = nested_search_json(*nested);
        io.out << j.dump(2) << "\n";
        return 0;
    }
    if (nested) io.out << nested_text(*nested) << "\n";
    io.out << (r.kind == "halving" ? "successive halving" : r.kind == "random" ? "random search" : "grid search") << " of "
           << spec.model << " on " << d.source << ": " << plural(static_cast<long long>(r.points.size()), "point")
           << " x " << splits_text(cv_data.split, n_splits) << ", metric " << metric << (r.greater_is_better ? " (higher is better)" : " (lower is better)")
           << ", seed " << common.seed << "\n\n"
           << search_rounds_text(r).respelled(flag_spelling) << search_points_text(r, axes, kShownPoints);
    if (r.points.size() > kShownPoints)
        io.out << "  ... " << r.points.size() - kShownPoints << " more (--results FILE has all)\n";
    io.out << "\nbest:";
    for (const auto& [name, value] : r.best().point) io.out << " " << name << "=" << value;
    io.out << "  " << metric << " = " << std::fixed << std::setprecision(4) << r.best().score.mean << " +/- "
           << r.best().score.std << "\n";
    if (!output.empty()) io.out << "refit on all " << plural(d.rows(), "row") << " -> " << output << "\n";
    return 0;
}

}  // namespace kestrel::cli
