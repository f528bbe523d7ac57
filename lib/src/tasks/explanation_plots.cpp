#include "kestrel/tasks/explanation_plots.hpp"

#include "kestrel/report/svg_plot.hpp"
#include "kestrel/tasks/importance_report.hpp"

namespace kestrel {

std::string importance_svg(const PermutationImportance& p, const std::vector<std::string>& names,
                           const std::string& metric, const std::string& about) {
    report::BarChart chart;
    chart.title = "Permutation importance: " + about;
    chart.x_label = "decrease in " + metric + " (mean +/- std over the repeats)";
    for (Index c : importance_order(p)) {
        chart.labels.push_back(names[static_cast<std::size_t>(c)]);
        chart.values.push_back(p.mean[c]);
        chart.errors.push_back(p.std[c]);
    }
    return report::render_bar_chart(chart);
}

std::string shap_summary_svg(const ShapSummary& s, const std::string& about) {
    report::BarChart chart;
    chart.title = "SHAP summary: " + about;
    chart.x_label = s.outputs.size() > 1 ? "mean |contribution|, summed over the classes" : "mean |contribution|";
    for (Index f : s.order) {
        chart.labels.push_back(s.features[static_cast<std::size_t>(f)]);
        chart.values.push_back(s.total[f]);
    }
    return report::render_bar_chart(chart);
}

std::string partial_dependence_svg(const ExplanationCurve& c, const std::string& about) {
    const PartialDependence& p = c.pd;
    report::LinePlot plot;
    plot.title = "Partial dependence: " + about;
    plot.x_label = c.name;
    if (c.categorical) {
        plot.x_label += " (category codes:";
        for (std::size_t i = 0; i < p.labels.size() && i < 8; ++i)
            plot.x_label += " " + std::to_string(i) + "=" + p.labels[i];
        plot.x_label += p.labels.size() > 8 ? " ...)" : ")";
    }
    plot.y_label = p.response == "proba" ? "probability" : p.response == "decision" ? "decision value" : "prediction";
    const bool several = p.outputs.size() > 1;
    for (std::size_t o = 0; o < p.outputs.size(); ++o) {
        if (c.ice)
            for (Index r = 0; r < p.ice[o].rows(); ++r) {
                report::Series s;
                s.name = "row " + std::to_string(p.ice_rows[static_cast<std::size_t>(r)] + 1);
                s.x = p.grid;
                for (Index g = 0; g < p.ice[o].cols(); ++g) s.y.push_back(p.ice[o](r, g));
                s.faint = true;
                s.colour = static_cast<int>(o);
                plot.series.push_back(std::move(s));
            }
        report::Series s;
        s.name = several ? p.outputs[o] : "average";
        s.x = p.grid;
        for (Index g = 0; g < p.average.rows(); ++g) s.y.push_back(p.average(g, static_cast<Index>(o)));
        s.markers = c.categorical || p.grid.size() <= 20;
        s.colour = static_cast<int>(o);
        plot.series.push_back(std::move(s));
    }
    return report::render_line_plot(plot);
}

}  // namespace kestrel
