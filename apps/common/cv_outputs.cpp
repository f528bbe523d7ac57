#include "common/cv_outputs.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>

#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/cv_report.hpp"

namespace kestrel::cli {

namespace {

std::string fraction_text(double f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", f);
    return buf;
}

}  // namespace

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

std::string cv_title(const SplitOptions& s) {
    switch (s.scheme) {
        case CvScheme::kfold:
            return std::to_string(s.k) + "-fold cross-validation" +
                   (s.repeats > 1 ? " x " + std::to_string(s.repeats) + " repeats" : std::string());
        case CvScheme::leave_one_out: return "leave-one-out cross-validation";
        case CvScheme::shuffle_split:
            return "shuffle-split cross-validation (" + std::to_string(s.shuffle_splits) + " splits, test fraction " +
                   fraction_text(s.test_fraction) + ")";
        case CvScheme::group_kfold: return "group " + std::to_string(s.k) + "-fold cross-validation";
        case CvScheme::fixed: return "evaluation on a validation file (training rows first)";
    }
    return "cross-validation";
}

std::string learning_curve_text(const LearningCurve& c) {
    std::ostringstream os;
    os << std::right << std::setw(9) << "fraction" << std::setw(8) << "rows" << std::setw(12) << "train" << std::setw(10)
       << "std" << std::setw(12) << "validation" << std::setw(10) << "std" << std::setw(10) << "fit_s" << "\n";
    for (const auto& p : c.points) {
        os << std::setw(9) << fraction_text(p.fraction) << std::setw(8) << p.train_size << std::fixed
           << std::setprecision(4) << std::setw(12) << p.train.mean << std::setw(10) << p.train.std << std::setw(12)
           << p.validation.mean << std::setw(10) << p.validation.std << std::setprecision(3) << std::setw(10)
           << p.fit_seconds << "\n";
        os.unsetf(std::ios::fixed);
    }
    return os.str();
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

void print_learning_curve(const LearningCurve& c, const CvOutputFlags& flags, const ModelSpec& spec,
                          const Dataset& data, const CvOptions& opts, bool json, std::uint64_t seed, Io& io) {
    (void)flags;
    if (json) {
        Json j = {{"model", spec.model},
                  {"task", registry().task_label(*resolved_params(spec), data.task)},
                  {"rows", data.rows()},
                  {"seed", seed}};
        j.update(cv_scheme_json(opts));
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
