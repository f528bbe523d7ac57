#include "kestrel/tasks/cv_report.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "kestrel/core/number_text.hpp"
#include "kestrel/metrics/classification.hpp"
#include "kestrel/metrics/regression.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/prediction_text.hpp"

namespace kestrel {
namespace {

// Appends ",value" (appending, not "," + value: GCC 12 warns falsely on the latter).
void add_csv_value(std::string& out, const std::string& value) {
    out += ',';
    out += value;
}

std::string fold_class_name(const std::vector<std::string>& classes, double index) {
    const auto i = static_cast<std::size_t>(index);
    return i < classes.size() ? classes[i] : std::to_string(i);
}

bool parses_as_number(const std::string& s, double& v) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

std::string fraction_text(double f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", f);
    return buf;
}

}  // namespace

Json cv_about_json(const ModelSpec& spec, const Dataset& data, const SplitOptions& s, std::uint64_t seed) {
    Json j = {{"model", spec.model},
              {"task", registry().task_label(*resolved_params(spec), data.task)},
              {"rows", data.rows()},
              {"seed", seed}};
    j.update(cv_scheme_json(s));
    return j;
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

std::string cv_scores_text(const CvResult& r) {
    std::ostringstream os;
    std::size_t w = 6;
    for (const auto& m : r.metrics) w = std::max(w, m.size());
    // Many splits (leave-one-out): the metric of all test predictions pooled stands in
    // for per-split columns, which may be undefined on one row.
    const bool pooled = r.folds.size() > 10;
    const std::size_t shown = pooled ? 0 : r.folds.size();
    os << std::left << std::setw(static_cast<int>(w) + 2) << "metric" << std::right << std::setw(10) << "mean"
       << std::setw(10) << "std";
    if (pooled) os << std::setw(10) << "pooled";
    for (std::size_t f = 0; f < shown; ++f) os << std::setw(9) << ("f" + std::to_string(f + 1));
    os << "\n";
    for (const auto& m : r.metrics) {
        os << std::left << std::setw(static_cast<int>(w) + 2) << m << std::right << std::setw(10)
           << format_fixed(r.summary.at(m).mean, 4) << std::setw(10) << format_fixed(r.summary.at(m).std, 4);
        if (pooled) os << std::setw(10) << format_fixed(r.pooled.at(m), 4);
        for (std::size_t f = 0; f < shown; ++f) os << std::setw(9) << format_fixed(r.folds[f].scores.at(m), 4);
        os << "\n";
    }
    // Early stopping on each test fold: the rounds each fold's model kept.
    if (shown > 0 && r.folds.front().rounds > 0) {
        os << std::left << std::setw(static_cast<int>(w) + 2) << "rounds" << std::right << std::setw(20) << "";
        for (std::size_t f = 0; f < shown; ++f) os << std::setw(9) << r.folds[f].rounds;
        os << "\n";
    }
    return os.str();
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

Json cv_scheme_json(const SplitOptions& s) {
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

Json cv_scores_json(const CvResult& r, Task task) {
    Json j = Json::object();
    for (const auto& m : r.metrics) {
        Json folds = Json::array();
        for (const auto& f : r.folds) folds.push_back(f.scores.at(m));
        j["metrics"][m] = {
            {"mean", r.summary.at(m).mean}, {"std", r.summary.at(m).std}, {"folds", folds}, {"pooled", r.pooled.at(m)}};
    }
    if (!r.folds.empty() && r.folds.front().rounds > 0) {
        Json rounds = Json::array();
        for (const auto& f : r.folds) rounds.push_back(f.rounds);
        j["rounds"] = rounds;  // early stopping on each test fold
    }
    j["out_of_fold"] = task == Task::classification ? classification_report(r.out_of_fold).to_json()
                                                    : regression_report(r.out_of_fold).to_json();
    return j;
}

std::string fold_predictions_csv(const Dataset& data, const CvResult& r, const SplitOptions& s) {
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
    for (Index c = 0; c < proba_cols; ++c)
        add_csv_value(out, csv_field("proba_" + fold_class_name(classes, static_cast<double>(c))));
    if (decision_cols == 1) out += ",decision";
    else
        for (Index c = 0; c < decision_cols; ++c)
            add_csv_value(out, csv_field("decision_" + fold_class_name(classes, static_cast<double>(c))));
    out += "\n";
    for (std::size_t f = 0; f < r.fold_predictions.size(); ++f) {
        const Predictions& p = r.fold_predictions[f];
        const Fold& fold = r.splits[f];
        for (std::size_t i = 0; i < fold.test.size(); ++i) {
            const auto row = static_cast<Index>(i);
            // A validation file's rows follow the training rows: number them within their file.
            const Index first = s.scheme == CvScheme::fixed ? fold.test.front() : 0;
            out += std::to_string(fold.test[i] - first);
            if (repeats) add_csv_value(out, std::to_string(fold.repeat + 1));
            add_csv_value(out, std::to_string(fold.index + 1));
            add_csv_value(out, classify ? csv_field(fold_class_name(classes, p.y_true[row])) : format_number(p.y_true[row]));
            add_csv_value(out, classify ? csv_field(fold_class_name(classes, p.y_pred[row])) : format_number(p.y_pred[row]));
            for (Index c = 0; c < proba_cols; ++c) add_csv_value(out, format_number(p.proba(row, c)));
            for (Index c = 0; c < decision_cols; ++c) add_csv_value(out, format_number(p.decision(row, c)));
            out += "\n";
        }
    }
    return out;
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
        add_csv_value(out, std::to_string(p.train_size));
        for (double v : {p.train.mean, p.train.std, p.validation.mean, p.validation.std, p.fit_seconds})
            add_csv_value(out, format_number(v));
        out += '\n';
    }
    return out;
}

std::vector<Index> group_ids(const std::vector<std::string>& values) {
    bool numeric = true;
    std::vector<double> num(values.size());
    for (std::size_t i = 0; i < values.size() && numeric; ++i) numeric = parses_as_number(values[i], num[i]);
    std::vector<std::size_t> order(values.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return numeric ? num[a] < num[b] : values[a] < values[b];
    });
    std::vector<Index> id(values.size());
    Index next = -1;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const bool same = i > 0 && values[order[i]] == values[order[i - 1]];
        const bool same_num = i > 0 && numeric && num[order[i]] == num[order[i - 1]];
        if (!(same || same_num)) ++next;
        id[order[i]] = next;
    }
    return id;
}

}  // namespace kestrel
