#include "common/cv_outputs.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>

#include "common/prediction_table.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel::cli {

namespace {

std::string fraction_text(double f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", f);
    return buf;
}

// Appends ",value" (appending, not "," + value: GCC 12 warns falsely on the latter).
void add(std::string& out, const std::string& value) {
    out += ',';
    out += value;
}

std::string class_name(const std::vector<std::string>& classes, double index) {
    const auto i = static_cast<std::size_t>(index);
    return i < classes.size() ? classes[i] : std::to_string(i);
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

Json scheme_json(const SplitOptions& s) {
    Json j = {{"scheme", describe(s)}};
    switch (s.scheme) {
        case CvScheme::kfold:
            j["k"] = s.k;
            j["repeats"] = s.repeats;
            break;
        case CvScheme::leave_one_out: break;
        case CvScheme::shuffle_split:
            j["splits"] = s.shuffle_splits;
            j["test_fraction"] = s.test_fraction;
            break;
        case CvScheme::group_kfold: {
            j["k"] = s.k;
            Index groups = 0;
            for (Index g : s.groups) groups = std::max(groups, g + 1);
            j["groups"] = groups;
            break;
        }
        case CvScheme::fixed: break;
    }
    return j;
}

void write_fold_predictions(const std::string& path, const Dataset& data, const CvResult& r, const SplitOptions& s) {
    const bool classify = data.task == Task::classification;
    const bool repeats = s.scheme == CvScheme::kfold && s.repeats > 1;
    // Score columns only when every split has them with the same width.
    auto width = [&](auto member) {
        const Index cols = (r.fold_predictions.front().*member).cols();
        for (const auto& p : r.fold_predictions)
            if ((p.*member).cols() != cols || (p.*member).size() == 0) return Index{0};
        return cols;
    };
    const Index proba_cols = classify ? width(&Predictions::proba) : 0;
    const Index decision_cols = classify ? width(&Predictions::decision) : 0;
    const auto& classes = r.fold_predictions.front().classes.size() > data.classes.size()
                              ? r.fold_predictions.front().classes
                              : data.classes;

    std::string out = repeats ? "row,repeat,fold,truth,prediction" : "row,fold,truth,prediction";
    for (Index c = 0; c < proba_cols; ++c) add(out, csv_field("proba_" + class_name(classes, static_cast<double>(c))));
    if (decision_cols == 1) out += ",decision";
    else
        for (Index c = 0; c < decision_cols; ++c)
            add(out, csv_field("decision_" + class_name(classes, static_cast<double>(c))));
    out += "\n";
    for (std::size_t f = 0; f < r.fold_predictions.size(); ++f) {
        const Predictions& p = r.fold_predictions[f];
        const Fold& fold = r.splits[f];
        for (std::size_t i = 0; i < fold.test.size(); ++i) {
            const auto row = static_cast<Index>(i);
            // A validation file's rows follow the training rows: number them within their file.
            const Index first = s.scheme == CvScheme::fixed ? fold.test.front() : 0;
            out += std::to_string(fold.test[i] - first);
            if (repeats) add(out, std::to_string(fold.repeat + 1));
            add(out, std::to_string(fold.index + 1));
            add(out, classify ? csv_field(class_name(classes, p.y_true[row])) : format_number(p.y_true[row]));
            add(out, classify ? csv_field(class_name(classes, p.y_pred[row])) : format_number(p.y_pred[row]));
            for (Index c = 0; c < proba_cols; ++c) add(out, format_number(p.proba(row, c)));
            for (Index c = 0; c < decision_cols; ++c) add(out, format_number(p.decision(row, c)));
            out += "\n";
        }
    }
    write_file_atomically(path, out);
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

Json learning_curve_json(const LearningCurve& c) {
    Json j = {{"metric", c.metric}, {"greater_is_better", c.greater_is_better}, {"points", Json::array()}};
    for (const auto& p : c.points)
        j["points"].push_back({{"fraction", p.fraction},
                               {"train_size", p.train_size},
                               {"train", {{"mean", p.train.mean}, {"std", p.train.std}, {"folds", p.train_scores}}},
                               {"validation",
                                {{"mean", p.validation.mean}, {"std", p.validation.std}, {"folds", p.validation_scores}}},
                               {"mean_fit_seconds", p.fit_seconds}});
    return j;
}

std::string learning_curve_csv(const LearningCurve& c) {
    std::string out = "fraction,train_size,train_mean,train_std,validation_mean,validation_std,mean_fit_seconds\n";
    for (const auto& p : c.points) {
        out += format_number(p.fraction);
        add(out, std::to_string(p.train_size));
        for (double v : {p.train.mean, p.train.std, p.validation.mean, p.validation.std, p.fit_seconds})
            add(out, format_number(v));
        out += '\n';
    }
    return out;
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
        j.update(scheme_json(opts));
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
