#include "common/cv_outputs.hpp"

#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/tasks/cv_report.hpp"

namespace kestrel::cli {

void CvOutputFlags::add_to(CLI::App& app) {
    app.add_option("--predictions", predictions,
                   "write every split's test predictions as CSV: row, fold, truth, prediction, scores")->type_name("FILE");
    app.add_option("--learning-curve", learning_curve,
                   "learning curve over fractions of the training folds: start:stop:count (0.1:1.0:10) or a list");
    app.add_option("--curve-csv", curve_csv, "with --learning-curve: write the curve as CSV")->type_name("FILE");
}

void CvOutputFlags::check() const {
    if (!curve_csv.empty() && learning_curve.empty()) throw UsageError("--curve-csv needs --learning-curve");
    if (!learning_curve.empty()) {
        (void)parse_fractions(learning_curve);
        if (!predictions.empty()) throw UsageError("--predictions cannot be combined with --learning-curve");
    }
}

LearningCurve run_learning_curve(const CvOutputFlags& flags, const ModelSpec& spec, const Dataset& data,
                                 const CvOptions& opts, const Context& ctx) {
    LearningCurveOptions lc;
    lc.split = opts;
    lc.fractions = parse_fractions(flags.learning_curve);
    if (opts.metrics.size() > 1) throw UsageError("--learning-curve scores one --metric; " + std::to_string(opts.metrics.size()) + " given");
    if (!opts.metrics.empty()) lc.metric = opts.metrics.front();
    LearningCurve c = learning_curve(spec, data, lc, ctx);
    if (!flags.curve_csv.empty()) write_file_atomically(flags.curve_csv, learning_curve_csv(c));
    return c;
}

void print_learning_curve(const LearningCurve& c, const ModelSpec& spec, const Dataset& data, const CvOptions& opts,
                          bool json, std::uint64_t seed, Io& io) {
    if (json) {
        Json j = cv_about_json(spec, data, opts, seed);
        j["learning_curve"] = learning_curve_json(c);
        io.out << j.dump(2) << "\n";
        return;
    }
    io.out << "learning curve of " << spec.model << " on " << data.source << " (" << plural(data.rows(), "row")
           << "), " << cv_title(opts) << ", metric " << c.metric
           << (c.greater_is_better ? " (higher is better)" : " (lower is better)") << ", seed " << seed << "\n\n"
           << learning_curve_text(c);
}

}  // namespace kestrel::cli
