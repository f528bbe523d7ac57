// Horizontal bar charts: permutation importances and SHAP summaries.
#include <algorithm>
#include <cmath>

#include "axis_ticks.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/report/svg_plot.hpp"
#include "palette.hpp"
#include "svg_document.hpp"
#include "svg_text.hpp"

namespace kestrel::report {

using namespace detail;

std::string render_bar_chart(const BarChart& chart) {
    if (chart.values.size() != chart.labels.size() || (!chart.errors.empty() && chart.errors.size() != chart.values.size()))
        throw InternalError("render_bar_chart: labels, values and errors differ in length");
    constexpr double kRow = 22;
    // The value axis always shows 0 (a bar starts there) and every bar's end and whisker.
    double lo = 0, hi = 0;
    for (std::size_t i = 0; i < chart.values.size(); ++i) {
        const double v = chart.values[i];
        if (!std::isfinite(v)) continue;
        const double e = i < chart.errors.size() && std::isfinite(chart.errors[i]) ? std::fabs(chart.errors[i]) : 0;
        lo = std::min(lo, v - e);
        hi = std::max(hi, v + e);
    }
    if (hi == lo) hi = lo + 1;
    const std::vector<Tick> ticks = linear_ticks(lo, hi, 6);
    double label_w = 0;
    for (const auto& l : chart.labels) label_w = std::max(label_w, text_width(l, kLabelFont));
    const double W = chart.width, left = 16 + label_w + 10, right = 24;
    const double top = chart.title.empty() ? 16 : 42, bottom = 50;
    const double area_h = std::max(1.0, static_cast<double>(chart.labels.size())) * kRow + 8;
    const double H = top + area_h + bottom, area_w = W - left - right;
    const double pad = 0.03 * (hi - lo);
    const auto px = [&](double v) { return left + (v - (lo - pad)) / ((hi + pad) - (lo - pad)) * area_w; };

    SvgDocument doc(W, H, chart.title);
    std::string grid, tick_marks;
    for (const Tick& t : ticks) {
        const double x = px(t.value);
        grid += "<line x1=\"" + coord(x) + "\" y1=\"" + coord(top) + "\" x2=\"" + coord(x) + "\" y2=\"" +
                coord(top + area_h) + "\"/>";
        tick_marks += "<line x1=\"" + coord(x) + "\" y1=\"" + coord(top + area_h) + "\" x2=\"" + coord(x) + "\" y2=\"" +
                      coord(top + area_h + 5) + "\" stroke=\"#333333\"/>";
        doc.text(x, top + area_h + 19, t.label, "middle", "tick");
    }
    doc.raw("<g class=\"grid\" stroke=\"#e5e5e5\" stroke-width=\"1\">" + grid + "</g>\n");
    doc.raw("<g class=\"ticks\">" + tick_marks + "</g>\n");
    const double zero = px(0);
    for (std::size_t i = 0; i < chart.labels.size(); ++i) {
        const double y = top + 4 + static_cast<double>(i) * kRow;
        doc.text(left - 8, y + kRow / 2 + 4, chart.labels[i], "end", "bar-label");
        const double v = chart.values[i];
        if (!std::isfinite(v)) continue;
        const double a = std::min(zero, px(v)), b = std::max(zero, px(v));
        doc.raw("<rect class=\"bar\" data-label=\"" + xml_escape(chart.labels[i]) + "\" x=\"" + coord(a) + "\" y=\"" +
                coord(y + 3) + "\" width=\"" + coord(b - a) + "\" height=\"" + coord(kRow - 6) + "\" fill=\"" +
                series_colour(0) + "\"/>\n");
        if (i < chart.errors.size() && std::isfinite(chart.errors[i]) && chart.errors[i] != 0) {
            const double e = std::fabs(chart.errors[i]), cy = y + kRow / 2;
            doc.raw("<path class=\"whisker\" d=\"M" + coord(px(v - e)) + " " + coord(cy) + " L" + coord(px(v + e)) + " " +
                    coord(cy) + " M" + coord(px(v - e)) + " " + coord(cy - 4) + " L" + coord(px(v - e)) + " " +
                    coord(cy + 4) + " M" + coord(px(v + e)) + " " + coord(cy - 4) + " L" + coord(px(v + e)) + " " +
                    coord(cy + 4) + "\" stroke=\"#333333\" stroke-width=\"1\" fill=\"none\"/>\n");
        }
    }
    doc.raw("<line class=\"zero\" x1=\"" + coord(zero) + "\" y1=\"" + coord(top) + "\" x2=\"" + coord(zero) + "\" y2=\"" +
            coord(top + area_h) + "\" stroke=\"#333333\" stroke-width=\"1\"/>\n");
    doc.raw("<rect class=\"frame\" x=\"" + coord(left) + "\" y=\"" + coord(top) + "\" width=\"" + coord(area_w) +
            "\" height=\"" + coord(area_h) + "\" fill=\"none\" stroke=\"#333333\" stroke-width=\"1\"/>\n");
    if (!chart.title.empty()) doc.title(W, 26, chart.title);
    if (!chart.x_label.empty()) doc.text(left + area_w / 2, H - 12, chart.x_label, "middle", "x-label");
    return doc.finish();
}

}  // namespace kestrel::report
