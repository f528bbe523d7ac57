#include "kestrel/tasks/prediction_plots.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/metrics/classification.hpp"
#include "kestrel/metrics/curves.hpp"
#include "kestrel/report/svg_plot.hpp"
#include "kestrel/tasks/prediction_text.hpp"

namespace kestrel {
namespace {

std::string three_decimals(double v) {
    const std::string s = format_number(std::round(v * 1000.0) / 1000.0);
    // "0.9" -> "0.900": AUCs in a legend line up when they have the same width.
    const auto dot = s.find('.');
    if (s.find_first_of("en") != std::string::npos) return s;
    if (dot == std::string::npos) return s + ".000";
    return s + std::string(3 - std::min<std::size_t>(3, s.size() - dot - 1), '0');
}

// The curves, or DataError naming what asked for them when there is no class to draw.
std::vector<ClassCurves> curves_for(const Predictions& p, const ErrorText& asked_by) {
    std::vector<ClassCurves> curves = class_curves(p);
    if (curves.empty())
        throw DataError(asked_by +
                        ": the labels hold a single class, so there is no curve to draw (it needs positives and negatives)");
    return curves;
}

std::string legend(const ClassCurves& c, bool binary, const std::string& auc_name, double auc) {
    const std::string value = auc_name + " = " + three_decimals(auc);
    return binary ? value : c.class_name + " vs rest (" + value + ")";
}

std::string in_brackets(const std::string& about) { return about.empty() ? "" : " (" + about + ")"; }

// ", positive class NAME" for two classes, ", one vs rest" for more.
std::string class_clause(bool binary, const std::string& positive) {
    return binary ? ", positive class " + positive : std::string(", one vs rest");
}

void fix_unit_square(report::LinePlot& plot) {
    plot.fixed_x = plot.fixed_y = true;
    plot.x_min = plot.y_min = 0;
    plot.x_max = plot.y_max = 1;
}

// A curve plot's start: the curves (DataError naming "plot KIND" when there are none) and
// the title, naming the positive class for two classes.
struct CurvePlot {
    std::vector<ClassCurves> curves;
    bool binary = false;
    report::LinePlot plot;
};

CurvePlot curve_plot(const Predictions& p, const std::string& kind, const std::string& name, const std::string& about) {
    CurvePlot c;
    c.curves = curves_for(p, option_named("plot") + " " + kind);
    c.binary = p.n_classes() <= 2 && c.curves.size() == 1;
    c.plot.title = name + class_clause(c.binary, c.curves[0].class_name) + in_brackets(about);
    return c;
}

std::string roc_svg(const Predictions& p, const std::string& about) {
    CurvePlot c = curve_plot(p, "roc", "ROC curve", about);
    c.plot.x_label = "False positive rate";
    c.plot.y_label = "True positive rate";
    c.plot.diagonal = true;
    for (const auto& k : c.curves)
        c.plot.series.push_back({legend(k, c.binary, "AUC", k.roc_auc), k.roc.fpr, k.roc.tpr, {}, false});
    return report::render_line_plot(c.plot);
}

std::string pr_svg(const Predictions& p, const std::string& about) {
    CurvePlot c = curve_plot(p, "pr", "Precision-recall curve", about);
    c.plot.x_label = "Recall";
    c.plot.y_label = "Precision";
    c.plot.step = true;  // average precision is the area under these steps
    fix_unit_square(c.plot);
    for (const auto& k : c.curves)
        c.plot.series.push_back({legend(k, c.binary, "AP", k.average_precision), k.pr.recall, k.pr.precision, {}, false});
    return report::render_line_plot(c.plot);
}

std::string confusion_svg(const Predictions& p, const std::string& about) {
    const ClassificationReport r = classification_report(p);
    report::HeatMap map;
    map.title = "Confusion matrix" + in_brackets(about);
    map.x_label = "Predicted class";
    map.y_label = "True class";
    map.value_label = "count";
    map.x_ticks = map.y_ticks = r.classes;
    map.digits = 17;  // counts, written in full
    for (Index i = 0; i < r.confusion.rows(); ++i) {
        map.values.emplace_back();
        for (Index j = 0; j < r.confusion.cols(); ++j) map.values.back().push_back(static_cast<double>(r.confusion(i, j)));
    }
    return report::render_heatmap(map);
}

// One class's points of the reliability diagram, each labelled with its row count.
report::Series reliability_series(const Predictions& p, Index c, bool binary, std::vector<std::string>& labels) {
    const Eigen::VectorXd is_positive = (p.y_true.array() == static_cast<double>(c)).cast<double>();
    const ReliabilityCurve r = reliability_curve(is_positive, p.proba.col(c));
    report::Series s;
    s.name = binary ? "P(" + p.classes.at(1) + ")" : p.classes.at(static_cast<std::size_t>(c)) + " vs rest";
    s.x = r.mean_predicted;
    s.y = r.fraction_positive;
    s.markers = true;
    for (const Index n : r.count) labels.push_back("n=" + std::to_string(n));
    return s;
}

// The reliability diagram: per class (class 1 for two classes, each class present in the
// truth against the rest for more) the fraction of positives against the mean probability in
// ten uniform bins.
std::string calibration_svg(const Predictions& p, const std::string& about) {
    if (p.proba.size() == 0)
        throw UsageError(option_named("plot") + " calibration needs probabilities, which these predictions do not hold");
    const Index m = p.proba.cols();
    const bool binary = m == 2;
    report::LinePlot plot;
    plot.title = "Reliability diagram" + class_clause(binary, binary ? p.classes.at(1) : "") + in_brackets(about);
    plot.x_label = "Mean predicted probability (10 bins; n = rows per bin)";
    plot.y_label = "Fraction of positives";
    plot.diagonal = true;
    fix_unit_square(plot);
    for (Index c = binary ? 1 : 0; c < m; ++c) {
        if (!binary && (p.y_true.array() == static_cast<double>(c)).count() == 0) continue;
        plot.point_labels.emplace_back();
        plot.series.push_back(reliability_series(p, c, binary, plot.point_labels.back()));
    }
    return report::render_line_plot(plot);
}

}  // namespace

std::string plot_source_name(const std::string& source) {
    const auto last = source.find_last_of('/');
    if (last == std::string::npos || last == 0) return source;
    const auto before = source.find_last_of('/', last - 1);
    return before == std::string::npos ? source : source.substr(before + 1);
}

bool is_prediction_plot(std::string_view kind) {
    return kind == "roc" || kind == "pr" || kind == "confusion" || kind == "calibration";
}

std::string prediction_curves_csv(const Predictions& p) {
    const auto curves = curves_for(p, option_named("curves"));
    std::string out = "curve,class,threshold,fpr,tpr,precision,recall\n";
    for (const auto& c : curves) {
        const std::string cls = csv_field(c.class_name);
        for (std::size_t i = 0; i < c.roc.fpr.size(); ++i)
            out += "roc," + cls + "," + format_number(c.roc.thresholds[i]) + "," + format_number(c.roc.fpr[i]) + "," +
                   format_number(c.roc.tpr[i]) + ",,\n";
    }
    for (const auto& c : curves) {
        const std::string cls = csv_field(c.class_name);
        for (std::size_t i = 0; i < c.pr.recall.size(); ++i)
            out += "pr," + cls + "," + (i < c.pr.thresholds.size() ? format_number(c.pr.thresholds[i]) : "") + ",,," +
                   format_number(c.pr.precision[i]) + "," + format_number(c.pr.recall[i]) + "\n";
    }
    return out;
}

std::string prediction_plot_svg(std::string_view kind, const Predictions& p, const std::string& about) {
    if (kind == "roc") return roc_svg(p, about);
    if (kind == "pr") return pr_svg(p, about);
    if (kind == "confusion") return confusion_svg(p, about);
    if (kind == "calibration") return calibration_svg(p, about);
    throw UsageError(option_named("plot") + " " + std::string(kind) +
                     ": not a plot of predictions (roc, pr, confusion, calibration)");
}

}  // namespace kestrel
