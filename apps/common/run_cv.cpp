#include <iomanip>
#include <sstream>

#include "common/commands.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/registry.hpp"
#include "kestrel/metrics/classification.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/metrics/regression.hpp"
#include "kestrel/model_selection/cross_validate.hpp"

namespace kestrel::cli {
namespace {

std::string fixed(double x, int digits = 4) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(digits) << x;
    return os.str();
}

std::string text_table(const CvResult& r) {
    std::ostringstream os;
    std::size_t w = 6;
    for (const auto& m : r.metrics) w = std::max(w, m.size());
    os << std::left << std::setw(static_cast<int>(w) + 2) << "metric" << std::right << std::setw(10) << "mean"
       << std::setw(10) << "std";
    for (std::size_t f = 0; f < r.folds.size() && f < 10; ++f) os << std::setw(9) << ("f" + std::to_string(f + 1));
    os << "\n";
    for (const auto& m : r.metrics) {
        os << std::left << std::setw(static_cast<int>(w) + 2) << m << std::right << std::setw(10) << fixed(r.summary.at(m).mean)
           << std::setw(10) << fixed(r.summary.at(m).std);
        for (std::size_t f = 0; f < r.folds.size() && f < 10; ++f) os << std::setw(9) << fixed(r.folds[f].scores.at(m));
        os << "\n";
    }
    return os.str();
}

}  // namespace

int run_cv(const std::vector<std::string>& args, Io& io) {
    CLI::App app{"Estimate a model's generalization by k-fold cross-validation.\n"
                 "  kestrel-cv -m MODEL [-p k=v]... [-k 5] [--repeat R] [--seed S] DATA_FILE",
                 "kestrel-cv"};
    CommonFlags common;
    DataFlags data;
    ModelFlags model;
    std::string input;
    CvOptions opts;
    common.add_to(app);
    data.add_to(app);
    model.add_to(app, true);
    app.add_option("-k,--folds", opts.k, "number of folds (stratified for classification)")->capture_default_str();
    app.add_option("--repeat", opts.repeats, "repetitions of the k-fold split, each reshuffled")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--metric", opts.metrics, "metric to report (repeatable; default: a standard set for the task)")
        ->allow_extra_args(false);
    app.add_option("DATA_FILE", input, "data (.csv, .tsv, .libsvm; - for stdin)")->required();
    if (!parse(app, args, io)) return 0;

    const ModelSpec spec = model.spec(data);
    for (const auto& m : opts.metrics) metric_info(m);  // unknown names fail before any work
    Context ctx = common.context(io);
    const Dataset d = read_training_data(input, spec, data, ctx.threads);
    for (const auto& m : opts.metrics)
        if (metric_info(m).task != d.task)
            throw UsageError("--metric " + m + " is a " + to_string(metric_info(m).task) + " metric, but this is " +
                             to_string(d.task));
    const CvResult r = cross_validate(spec, d, opts, ctx);

    if (common.json) {
        Json j = {{"model", spec.model}, {"task", to_string(d.task)}, {"rows", d.rows()}, {"k", opts.k},
                  {"repeats", opts.repeats}, {"seed", common.seed}};
        for (const auto& m : r.metrics) {
            Json folds = Json::array();
            for (const auto& f : r.folds) folds.push_back(f.scores.at(m));
            j["metrics"][m] = {{"mean", r.summary.at(m).mean}, {"std", r.summary.at(m).std}, {"folds", folds}};
        }
        j["out_of_fold"] = d.task == Task::classification ? classification_report(r.out_of_fold).to_json()
                                                          : regression_report(r.out_of_fold).to_json();
        io.out << j.dump(2) << "\n";
        return 0;
    }
    io.out << opts.k << "-fold cross-validation";
    if (opts.repeats > 1) io.out << " x " << opts.repeats << " repeats";
    io.out << " of " << spec.model << " on " << d.source << " (" << plural(d.rows(), "row");
    if (d.task == Task::classification) io.out << ", " << plural(d.n_classes(), "class");
    io.out << "), seed " << common.seed << "\n\n" << text_table(r) << "\nOut-of-fold predictions"
           << (opts.repeats > 1 ? " (first repeat)" : "") << ":\n";
    io.out << (d.task == Task::classification ? classification_report(r.out_of_fold).to_text()
                                              : regression_report(r.out_of_fold).to_text());
    return 0;
}

}  // namespace kestrel::cli
