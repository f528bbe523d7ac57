#include <iomanip>
#include <sstream>

#include "common/commands.hpp"
#include "common/prediction_table.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/core/registry.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/model_selection/grid_search.hpp"

namespace kestrel::cli {
namespace {

std::string results_csv(const GridSearchResult& r, const std::vector<GridAxis>& axes) {
    std::string out = "rank";
    for (const auto& a : axes) out += "," + csv_field(a.name);
    out += ",mean_" + r.metric + ",std_" + r.metric + ",mean_fit_seconds";
    for (std::size_t f = 0; f < r.best().fold_scores.size(); ++f) out += ",fold" + std::to_string(f + 1);
    out += "\n";
    for (const auto& p : r.points) {
        out += std::to_string(p.rank);
        for (const auto& [name, value] : p.point) out += "," + csv_field(value);
        out += "," + format_number(p.score.mean) + "," + format_number(p.score.std) + "," + format_number(p.fit_seconds);
        for (double s : p.fold_scores) out += "," + format_number(s);
        out += "\n";
    }
    return out;
}

std::string text_table(const GridSearchResult& r, const std::vector<GridAxis>& axes, std::size_t max_rows) {
    std::ostringstream os;
    std::vector<std::size_t> w;
    for (const auto& a : axes) {
        std::size_t width = a.name.size();
        for (const auto& v : a.values) width = std::max(width, v.size());
        w.push_back(width + 2);
    }
    os << std::setw(5) << "rank";
    for (std::size_t i = 0; i < axes.size(); ++i) os << std::setw(static_cast<int>(w[i])) << axes[i].name;
    os << std::setw(12) << "mean" << std::setw(10) << "std" << std::setw(10) << "fit_s" << "\n";
    for (std::size_t i = 0; i < r.points.size() && i < max_rows; ++i) {
        const auto& p = r.points[i];
        os << std::setw(5) << p.rank;
        for (std::size_t a = 0; a < p.point.size(); ++a) os << std::setw(static_cast<int>(w[a])) << p.point[a].second;
        os << std::fixed << std::setprecision(4) << std::setw(12) << p.score.mean << std::setw(10) << p.score.std
           << std::setprecision(3) << std::setw(10) << p.fit_seconds << "\n";
        os.unsetf(std::ios::fixed);
    }
    if (r.points.size() > max_rows) os << "  ... " << r.points.size() - max_rows << " more (--results FILE has all)\n";
    return os.str();
}

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
    std::vector<std::string> grid_texts;
    int k = 5;
    std::string metric;
    common.add_to(app);
    data.add_to(app);
    model.add_to(app, true);
    app.add_option("-g,--grid", grid_texts,
                   "grid axis: name=v1,v2,...  name=a:b:step  name=B^a:B^b:step (repeatable)")
        ->required()
        ->allow_extra_args(false);
    app.add_option("-k,--folds", k, "cross-validation folds per point")->capture_default_str();
    app.add_option("--metric", metric, "metric to optimize (default: accuracy or r2)");
    app.add_option("DATA_FILE", input, "data (.csv, .tsv, .libsvm; - for stdin)")->required();
    app.add_option("-o,--output", output, "write the best point's model, refit on all the data");
    app.add_option("--results", results, "write every point's scores as CSV");
    if (!parse(app, args, io)) return 0;

    ModelSpec spec = model.spec(data);
    std::vector<GridAxis> axes;
    for (const auto& g : grid_texts) {
        axes.push_back(parse_grid_axis(g));
        if (spec.params.contains(axes.back().name))
            throw UsageError("-g " + g + ": parameter " + axes.back().name + " is also fixed with -p");
    }
    if (!metric.empty()) metric_info(metric);
    Context ctx = common.context(io);
    const Dataset d = read_training_data(input, spec, data, ctx.threads);
    if (metric.empty()) metric = default_metric(d.task);
    if (metric_info(metric).task != d.task)
        throw UsageError("--metric " + metric + " is a " + to_string(metric_info(metric).task) + " metric, but this is " +
                         to_string(d.task));

    const GridSearchResult r = grid_search(spec, axes, d, k, metric, ctx);
    if (!results.empty()) write_file_atomically(results, results_csv(r, axes));

    if (!output.empty()) {
        ModelSpec best = spec;
        best.params = r.best().params;
        Model m = Model::train(best, d, ctx);
        m.provenance()["data_file"] = input == "-" ? "<stdin>" : input;
        m.provenance()["gridsearch"] = {{"metric", metric}, {"k", k}, {"cv_mean", r.best().score.mean},
                                        {"cv_std", r.best().score.std}};
        m.save(output);
    }

    if (common.json) {
        Json j = {{"model", spec.model}, {"metric", metric}, {"k", k}, {"seed", common.seed}};
        j["points"] = Json::array();
        for (const auto& p : r.points) {
            Json point = Json::object();
            for (const auto& [name, value] : p.point) point[name] = value;
            j["points"].push_back({{"rank", p.rank}, {"params", point}, {"mean", p.score.mean}, {"std", p.score.std},
                                   {"fold_scores", p.fold_scores}, {"mean_fit_seconds", p.fit_seconds}});
        }
        j["best"] = j["points"][0];
        io.out << j.dump(2) << "\n";
        return 0;
    }
    io.out << "grid search of " << spec.model << " on " << d.source << ": " << plural(static_cast<long long>(r.points.size()), "point")
           << " x " << k << " folds, metric " << metric << (r.greater_is_better ? " (higher is better)" : " (lower is better)")
           << ", seed " << common.seed << "\n\n"
           << text_table(r, axes, 25) << "\nbest:";
    for (const auto& [name, value] : r.best().point) io.out << " " << name << "=" << value;
    io.out << "  " << metric << " = " << std::fixed << std::setprecision(4) << r.best().score.mean << " +/- "
           << r.best().score.std << "\n";
    if (!output.empty()) io.out << "refit on all " << plural(d.rows(), "row") << " -> " << output << "\n";
    return 0;
}

}  // namespace kestrel::cli
