// Heat maps: confusion matrices and grid-search scores over two parameters.
#include <algorithm>
#include <cmath>
#include <limits>

#include "axis_ticks.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/report/svg_plot.hpp"
#include "palette.hpp"
#include "svg_document.hpp"
#include "svg_text.hpp"

namespace kestrel::report {
namespace {

using namespace detail;

// A heatmap grows to show its title at full size, up to this width; past it the title is
// fitted as every chart's is (SvgDocument::title) rather than the chart stretched.
constexpr double kMaxTitleWidth = 800;

double max_width(const std::vector<std::string>& labels) {
    double w = 0;
    for (const auto& s : labels) w = std::max(w, text_width(s, kLabelFont));
    return w;
}

std::string rect(double x, double y, double w, double h, const std::string& attrs) {
    return "<rect x=\"" + coord(x) + "\" y=\"" + coord(y) + "\" width=\"" + coord(w) + "\" height=\"" + coord(h) +
           "\" " + attrs + "/>";
}

// "2^-5" is drawn as 2 with a raised -5 (grid.py's log2 axes); anything else as it is.
std::pair<std::string, std::string> power_parts(const std::string& label) {
    const auto caret = label.find('^');
    if (caret == std::string::npos || caret == 0 || caret + 1 == label.size()) return {label, ""};
    const std::string base = label.substr(0, caret), exponent = label.substr(caret + 1);
    const bool digits = base.find_first_not_of("0123456789.") == std::string::npos &&
                        exponent.find_first_not_of("-0123456789.") == std::string::npos;
    return digits ? std::pair{base, exponent} : std::pair{label, std::string()};
}

}  // namespace

std::string render_heatmap(const HeatMap& map) {
    const std::size_t rows = map.values.size(), cols = map.x_ticks.size();
    if (map.y_ticks.size() != rows) throw InternalError("render_heatmap: one y tick per row expected");
    for (const auto& r : map.values)
        if (r.size() != cols) throw InternalError("render_heatmap: every row needs one value per x tick");

    double vmin = std::numeric_limits<double>::infinity(), vmax = -vmin;
    bool any_missing = false;
    for (const auto& r : map.values)
        for (double v : r) {
            if (!std::isfinite(v)) {
                any_missing = true;
                continue;
            }
            vmin = std::min(vmin, v);
            vmax = std::max(vmax, v);
        }
    const bool any_value = vmin <= vmax;
    const auto shade = [&](double v) { return vmax > vmin ? (v - vmin) / (vmax - vmin) : 0.5; };

    // Cells wide enough for their annotation; labels turned 45 degrees when wider than a cell.
    const double dc = static_cast<double>(std::max<std::size_t>(cols, 1)), dr = static_cast<double>(std::max<std::size_t>(rows, 1));
    double cw = std::clamp(520.0 / dc, map.annotate ? 46.0 : 16.0, 84.0);
    double ch = std::clamp(400.0 / dr, map.annotate ? 28.0 : 12.0, 60.0);
    if (map.cell_size > 0) cw = ch = map.cell_size;
    const double x_tick_w = max_width(map.x_ticks);
    const bool turn = x_tick_w > cw - 6;
    const double left = 24 + max_width(map.y_ticks) + 10;
    const double top = map.title.empty() ? 16 : 44;
    const double x_ticks_h = turn ? x_tick_w * 0.71 + 18 : 22;
    const double gw = cw * dc, gh = ch * dr;

    // Colour bar: its tick labels set the right margin.
    std::vector<Tick> bar_ticks;
    if (any_value) {
        if (vmax > vmin) bar_ticks = linear_ticks(vmin, vmax, 5);
        else bar_ticks.push_back({vmin, significant_text(vmin, map.digits), ""});
    }
    double bar_label_w = 0;
    for (const Tick& t : bar_ticks) bar_label_w = std::max(bar_label_w, text_width(t.label, kLabelFont));
    const double bar_x = left + gw + 24, bar_w = 14;
    const double right = 24 + bar_w + 8 + std::max(bar_label_w, any_missing ? 24.0 : 0.0) + (map.value_label.empty() ? 12 : 34);
    const double W = std::max(left + gw + right, map.title.empty() ? 0.0 : std::min(text_width(map.title, kTitleFont) * 1.1 + 40, kMaxTitleWidth));
    const double H = top + gh + x_ticks_h + (map.x_label.empty() ? 8 : 26);

    SvgDocument doc(W, H, map.title);
    std::string cells, labels;
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) {
            const double v = map.values[r][c];
            const double x = left + cw * static_cast<double>(c), y = top + ch * static_cast<double>(r);
            const bool missing = !std::isfinite(v);
            cells += rect(x, y, cw, ch,
                          "class=\"cell\" data-row=\"" + std::to_string(r) + "\" data-col=\"" + std::to_string(c) +
                              "\" fill=\"" + (missing ? kMissingColour : viridis(shade(v))) +
                              "\" stroke=\"#ffffff\" stroke-width=\"1\"") +
                     "\n";
            if (!map.annotate) continue;
            const bool white = !missing && dark_on_viridis(shade(v));
            labels += "<text class=\"cell-value\" x=\"" + coord(x + cw / 2) + "\" y=\"" + coord(y + ch / 2 + 4) +
                      "\" text-anchor=\"middle\" fill=\"" + (white ? "#ffffff" : "#222222") + "\">" +
                      (missing ? std::string("n/a") : xml_escape(significant_text(v, map.digits))) + "</text>\n";
        }
    doc.raw("<g class=\"cells\">\n" + cells + "</g>\n");
    if (!labels.empty()) doc.raw("<g class=\"cell-values\" font-size=\"11\">\n" + labels + "</g>\n");
    if (map.highlight_row >= 0 && map.highlight_col >= 0 && static_cast<std::size_t>(map.highlight_row) < rows &&
        static_cast<std::size_t>(map.highlight_col) < cols) {
        const double x = left + cw * map.highlight_col, y = top + ch * map.highlight_row;
        // Black outside, white inside: visible on the darkest and the brightest cell alike.
        doc.raw("<g class=\"highlight\">" + rect(x + 1.5, y + 1.5, cw - 3, ch - 3, "fill=\"none\" stroke=\"#000000\" stroke-width=\"3\"") +
                rect(x + 3.5, y + 3.5, cw - 7, ch - 7, "fill=\"none\" stroke=\"#ffffff\" stroke-width=\"1.5\"") + "</g>\n");
    }

    // Tick labels.
    for (std::size_t c = 0; c < cols; ++c) {
        const double x = left + cw * (static_cast<double>(c) + 0.5), y = top + gh + 16;
        const auto [text, exponent] = power_parts(map.x_ticks[c]);
        if (turn)
            doc.text(x + 4, y - 4, text, "end", "x-tick", "transform=\"rotate(-45 " + coord(x + 4) + " " + coord(y - 4) + ")\"",
                     exponent);
        else
            doc.text(x, y, text, "middle", "x-tick", "", exponent);
    }
    for (std::size_t r = 0; r < rows; ++r) {
        const auto [text, exponent] = power_parts(map.y_ticks[r]);
        doc.text(left - 8, top + ch * (static_cast<double>(r) + 0.5) + 4, text, "end", "y-tick", "", exponent);
    }
    if (!map.title.empty()) doc.title(W, 27, map.title);
    if (!map.x_label.empty()) doc.text(left + gw / 2, H - 10, map.x_label, "middle", "x-label");
    if (!map.y_label.empty())
        doc.text(16, top + gh / 2, map.y_label, "middle", "y-label",
                 "transform=\"rotate(-90 16 " + coord(top + gh / 2) + ")\"");

    // Colour bar: low values at the bottom.
    if (any_value) {
        std::string stops;
        for (int i = 0; i <= 10; ++i)
            stops += "<stop offset=\"" + fixed_text(i / 10.0, 1) + "\" stop-color=\"" + viridis(i / 10.0) + "\"/>";
        doc.raw("<defs><linearGradient id=\"colour-scale\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">" + stops +
                "</linearGradient></defs>\n");
        const double bar_h = std::max(60.0, std::min(gh, 240.0));
        const double bar_y = top + (gh - bar_h) / 2;
        doc.raw("<g class=\"colour-bar\">" + rect(bar_x, bar_y, bar_w, bar_h, "fill=\"url(#colour-scale)\" stroke=\"#888888\"") +
                "\n");
        for (const Tick& t : bar_ticks) {
            const double y = bar_y + bar_h * (1 - shade(t.value));
            doc.raw("<line x1=\"" + coord(bar_x + bar_w) + "\" y1=\"" + coord(y) + "\" x2=\"" + coord(bar_x + bar_w + 4) +
                    "\" y2=\"" + coord(y) + "\" stroke=\"#333333\"/>");
            doc.text(bar_x + bar_w + 7, y + 4, t.label, "start", "bar-tick");
        }
        if (any_missing) {
            doc.raw(rect(bar_x, bar_y + bar_h + 10, bar_w, 12, "fill=\"" + kMissingColour + "\" stroke=\"#888888\""));
            doc.text(bar_x + bar_w + 7, bar_y + bar_h + 20, "n/a", "start", "bar-tick");
        }
        if (!map.value_label.empty()) {
            const double lx = bar_x + bar_w + 14 + bar_label_w + 12, ly = bar_y + bar_h / 2;
            doc.text(lx, ly, map.value_label, "middle", "bar-label",
                     "transform=\"rotate(-90 " + coord(lx) + " " + coord(ly) + ")\"");
        }
        doc.raw("</g>\n");
    }
    return doc.finish();
}

}  // namespace kestrel::report
