// Line plots: ROC and precision-recall curves, learning curves.
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

constexpr double kLegendRow = 18;

struct Range {
    double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
    void add(double v) {
        if (!std::isfinite(v)) return;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    bool empty() const { return lo > hi; }
};

// Data value -> pixel, linear or log10, over a domain padded by 3% so that points on the
// domain's edge are not hidden under the frame.
struct Scale {
    double lo = 0, hi = 1, p0 = 0, p1 = 1;
    bool log = false;
    double t(double v) const { return log ? std::log10(v) : v; }
    double operator()(double v) const {
        const double a = t(lo), b = t(hi), pad = 0.03 * (b - a);
        return p0 + (t(v) - (a - pad)) / ((b + pad) - (a - pad)) * (p1 - p0);
    }
    bool valid(double v) const { return std::isfinite(v) && (!log || v > 0); }
};

Range settle(Range r, bool log) {
    if (r.empty()) return log ? Range{1, 10} : Range{0, 1};
    if (r.hi == r.lo) {
        if (log) return Range{r.lo / 2, r.hi * 2};
        const double half = r.lo == 0 ? 0.5 : std::fabs(r.lo) * 0.1;
        return Range{r.lo - half, r.hi + half};
    }
    return r;
}

struct Box {
    double x = 0, y = 0, w = 0, h = 0;
    bool contains(double px, double py) const { return px >= x && px <= x + w && py >= y && py <= y + h; }
};

// The polyline of a series in pixels, split at missing points; steps hold y until the next x.
std::vector<std::vector<std::pair<double, double>>> pixel_runs(const Series& s, const Scale& xs, const Scale& ys,
                                                                bool step) {
    std::vector<std::vector<std::pair<double, double>>> runs(1);
    const std::size_t n = std::min(s.x.size(), s.y.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (!xs.valid(s.x[i]) || !ys.valid(s.y[i])) {
            if (!runs.back().empty()) runs.emplace_back();
            continue;
        }
        const double px = xs(s.x[i]), py = ys(s.y[i]);
        auto& run = runs.back();
        if (step && !run.empty()) run.emplace_back(px, run.back().second);
        run.emplace_back(px, py);
    }
    if (runs.back().empty()) runs.pop_back();
    return runs;
}

std::string path_data(const std::vector<std::pair<double, double>>& run) {
    std::string d;
    for (std::size_t i = 0; i < run.size(); ++i)
        d += (i == 0 ? "M" : " L") + coord(run[i].first) + " " + coord(run[i].second);
    return d;
}

// How much of the drawing a legend box at `box` would hide: sampled points of every segment inside it.
int overlap(const Box& box, const std::vector<std::vector<std::vector<std::pair<double, double>>>>& all_runs) {
    int hits = 0;
    for (const auto& runs : all_runs)
        for (const auto& run : runs) {
            if (run.size() == 1 && box.contains(run[0].first, run[0].second)) ++hits;
            for (std::size_t i = 1; i < run.size(); ++i)
                for (int k = 0; k <= 8; ++k) {
                    const double f = k / 8.0;
                    const double px = run[i - 1].first + f * (run[i].first - run[i - 1].first);
                    const double py = run[i - 1].second + f * (run[i].second - run[i - 1].second);
                    if (box.contains(px, py)) ++hits;
                }
        }
    return hits;
}

// A series' polyline runs in pixels, one entry per series of the plot.
using LinePlotRuns = std::vector<std::vector<std::vector<std::pair<double, double>>>>;

// The plot's axes: data ranges, ticks, the drawing area and the scales onto it.
struct LinePlotFrame {
    Range xr, yr;
    std::vector<Tick> xt, yt;
    Box area;
    Scale xs, ys;
};

LinePlotFrame line_plot_frame(const LinePlot& plot) {
    const double W = plot.width, H = plot.height;
    LinePlotFrame f;
    // Data ranges.
    Range xr, yr;
    for (const Series& s : plot.series) {
        const std::size_t n = std::min(s.x.size(), s.y.size());
        for (std::size_t i = 0; i < n; ++i) {
            if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i]) || (plot.log_x && s.x[i] <= 0)) continue;
            xr.add(s.x[i]);
            yr.add(s.y[i]);
            if (i < s.y_err.size() && std::isfinite(s.y_err[i])) {
                yr.add(s.y[i] - std::fabs(s.y_err[i]));
                yr.add(s.y[i] + std::fabs(s.y_err[i]));
            }
        }
    }
    if (plot.diagonal) xr = yr = Range{0, 1};
    if (plot.fixed_x) xr = Range{plot.x_min, plot.x_max};
    if (plot.fixed_y) yr = Range{plot.y_min, plot.y_max};
    if (plot.log_x && plot.fixed_x && !(xr.lo > 0)) throw InternalError("render_line_plot: log x range must be positive");
    f.xr = settle(xr, plot.log_x);
    f.yr = settle(yr, false);
    f.xt = plot.log_x ? log_ticks(f.xr.lo, f.xr.hi) : linear_ticks(f.xr.lo, f.xr.hi, 6);
    f.yt = linear_ticks(f.yr.lo, f.yr.hi, 6);

    // Layout: room for the y tick labels and the axis labels.
    double y_label_w = 0;
    for (const Tick& t : f.yt) y_label_w = std::max(y_label_w, text_width(t.label, kLabelFont));
    const double left = 22 + y_label_w + 12, right = 20;
    const double top = plot.title.empty() ? 16 : 42, bottom = 54;
    f.area = Box{left, top, W - left - right, H - top - bottom};
    f.xs = Scale{f.xr.lo, f.xr.hi, f.area.x, f.area.x + f.area.w, plot.log_x};
    f.ys = Scale{f.yr.lo, f.yr.hi, f.area.y + f.area.h, f.area.y, false};
    return f;
}

// Grid lines and ticks.
void draw_line_plot_grid(SvgDocument& doc, const LinePlotFrame& f) {
    const Box& area = f.area;
    std::string grid, ticks;
    for (const Tick& t : f.xt) {
        const double px = f.xs(t.value);
        grid += "<line x1=\"" + coord(px) + "\" y1=\"" + coord(area.y) + "\" x2=\"" + coord(px) + "\" y2=\"" +
                coord(area.y + area.h) + "\"/>";
        ticks += "<line x1=\"" + coord(px) + "\" y1=\"" + coord(area.y + area.h) + "\" x2=\"" + coord(px) +
                 "\" y2=\"" + coord(area.y + area.h + 5) + "\" stroke=\"#333333\"/>";
        doc.text(px, area.y + area.h + 19, t.label, "middle", "tick", "", t.exponent);
    }
    for (const Tick& t : f.yt) {
        const double py = f.ys(t.value);
        grid += "<line x1=\"" + coord(area.x) + "\" y1=\"" + coord(py) + "\" x2=\"" + coord(area.x + area.w) +
                "\" y2=\"" + coord(py) + "\"/>";
        ticks += "<line x1=\"" + coord(area.x - 5) + "\" y1=\"" + coord(py) + "\" x2=\"" + coord(area.x) + "\" y2=\"" +
                 coord(py) + "\" stroke=\"#333333\"/>";
        doc.text(area.x - 8, py + 4, t.label, "end", "tick");
    }
    doc.raw("<g class=\"grid\" stroke=\"#e5e5e5\" stroke-width=\"1\">" + grid + "</g>\n");
    doc.raw("<g class=\"ticks\">" + ticks + "</g>\n");
}

// Chance line: y = x over the visible range.
void draw_line_plot_diagonal(SvgDocument& doc, const LinePlotFrame& f) {
    const double a = std::max(f.xr.lo, f.yr.lo), b = std::min(f.xr.hi, f.yr.hi);
    if (b > a)
        doc.raw("<line class=\"diagonal\" x1=\"" + coord(f.xs(a)) + "\" y1=\"" + coord(f.ys(a)) + "\" x2=\"" +
                coord(f.xs(b)) + "\" y2=\"" + coord(f.ys(b)) +
                "\" stroke=\"#888888\" stroke-width=\"1\" stroke-dasharray=\"5 4\" clip-path=\"url(#plot-area)\"/>\n");
}

// The bands of the series with error bars (drawn first, so that every line stays on top
// of every band); returns every series' runs in pixels.
LinePlotRuns draw_line_plot_bands(SvgDocument& doc, const LinePlot& plot, const LinePlotFrame& f) {
    LinePlotRuns all_runs;
    for (std::size_t si = 0; si < plot.series.size(); ++si) {
        const Series& s = plot.series[si];
        all_runs.push_back(pixel_runs(s, f.xs, f.ys, plot.step));
        if (s.y_err.empty()) continue;
        Series upper = s, lower = s;
        for (std::size_t i = 0; i < s.y.size(); ++i) {
            const double e = i < s.y_err.size() ? std::fabs(s.y_err[i]) : std::numeric_limits<double>::quiet_NaN();
            upper.y[i] = s.y[i] + e;
            lower.y[i] = s.y[i] - e;
        }
        const auto up = pixel_runs(upper, f.xs, f.ys, plot.step), down = pixel_runs(lower, f.xs, f.ys, plot.step);
        std::string d;
        for (std::size_t r = 0; r < up.size() && r < down.size(); ++r) {
            auto ring = up[r];
            ring.insert(ring.end(), down[r].rbegin(), down[r].rend());
            if (!d.empty()) d += ' ';
            d += path_data(ring);
            d += " Z";
        }
        if (!d.empty())
            doc.raw("<path class=\"band\" data-series=\"" + xml_escape(s.name) + "\" d=\"" + d + "\" fill=\"" +
                    series_colour(si) + "\" fill-opacity=\"0.18\" stroke=\"none\" clip-path=\"url(#plot-area)\"/>\n");
    }
    return all_runs;
}

std::string line_series_colour(const LinePlot& plot, std::size_t si) {
    const int c = plot.series[si].colour;
    return series_colour(c >= 0 ? static_cast<std::size_t>(c) : si);
}

std::string runs_path_data(const std::vector<std::vector<std::pair<double, double>>>& runs) {
    std::string d;
    for (const auto& run : runs) {
        if (!d.empty()) d += ' ';
        d += path_data(run);
    }
    return d;
}

// The faint lines first, under every full one; then the full lines with their markers and
// point labels.
void draw_line_plot_series(SvgDocument& doc, const LinePlot& plot, const LinePlotFrame& f, const LinePlotRuns& all_runs) {
    for (std::size_t si = 0; si < plot.series.size(); ++si) {
        const Series& s = plot.series[si];
        if (!s.faint) continue;
        doc.raw("<path class=\"faint\" data-series=\"" + xml_escape(s.name) + "\" d=\"" + runs_path_data(all_runs[si]) +
                "\" fill=\"none\" stroke=\"" + line_series_colour(plot, si) +
                "\" stroke-opacity=\"0.3\" stroke-width=\"1\" clip-path=\"url(#plot-area)\"/>\n");
    }
    for (std::size_t si = 0; si < plot.series.size(); ++si) {
        const Series& s = plot.series[si];
        if (s.faint) continue;
        const std::string colour = line_series_colour(plot, si);
        doc.raw("<path class=\"series\" data-series=\"" + xml_escape(s.name) + "\" d=\"" + runs_path_data(all_runs[si]) +
                "\" fill=\"none\" stroke=\"" + colour +
                "\" stroke-width=\"2\" stroke-linejoin=\"round\" stroke-linecap=\"round\" clip-path=\"url(#plot-area)\"/>\n");
        if (s.markers) {
            std::string dots;
            for (const auto& run : all_runs[si])
                for (std::size_t i = 0; i < run.size(); ++i) {
                    if (plot.step && i % 2 == 1) continue;  // the step corners are not data points
                    dots += "<circle cx=\"" + coord(run[i].first) + "\" cy=\"" + coord(run[i].second) + "\" r=\"3\"/>";
                }
            doc.raw("<g class=\"markers\" fill=\"" + colour + "\">" + dots + "</g>\n");
        }
        const std::vector<std::string> none;
        const auto& labels = si < plot.point_labels.size() ? plot.point_labels[si] : none;
        for (std::size_t i = 0; i < labels.size() && i < s.x.size() && i < s.y.size(); ++i) {
            if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i]) || (plot.log_x && s.x[i] <= 0)) continue;
            doc.text(f.xs(s.x[i]) + 5, f.ys(s.y[i]) - 6, labels[i], "start", "point-label",
                     "font-size=\"10\" fill=\"" + colour + "\" data-series=\"" + xml_escape(s.name) + "\"");
        }
    }
}

// Legend in the corner where it hides the least of the curves.
void draw_line_plot_legend(SvgDocument& doc, const LinePlot& plot, const Box& area, const LinePlotRuns& all_runs) {
    std::vector<std::size_t> named;
    for (std::size_t si = 0; si < plot.series.size(); ++si)
        if (!plot.series[si].name.empty() && !plot.series[si].faint) named.push_back(si);
    if (named.empty()) return;
    double text_w = 0;
    for (std::size_t si : named) text_w = std::max(text_w, text_width(plot.series[si].name, kLabelFont));
    const double w = 40 + text_w + 14, h = static_cast<double>(named.size()) * kLegendRow + 10, inset = 10;
    const std::vector<Box> corners = {{area.x + area.w - inset - w, area.y + area.h - inset - h, w, h},
                                      {area.x + area.w - inset - w, area.y + inset, w, h},
                                      {area.x + inset, area.y + area.h - inset - h, w, h},
                                      {area.x + inset, area.y + inset, w, h}};
    Box best = corners[0];
    int best_hits = std::numeric_limits<int>::max();
    for (const Box& b : corners) {
        const int hits = overlap(b, all_runs);
        if (hits < best_hits) best = b, best_hits = hits;
    }
    doc.raw("<g class=\"legend-box\"><rect x=\"" + coord(best.x) + "\" y=\"" + coord(best.y) + "\" width=\"" +
            coord(best.w) + "\" height=\"" + coord(best.h) +
            "\" fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"#bbbbbb\" rx=\"3\"/>\n");
    double y = best.y + 5 + kLegendRow / 2;
    for (std::size_t si : named) {
        doc.raw("<line x1=\"" + coord(best.x + 8) + "\" y1=\"" + coord(y) + "\" x2=\"" + coord(best.x + 32) +
                "\" y2=\"" + coord(y) + "\" stroke=\"" + line_series_colour(plot, si) + "\" stroke-width=\"2.5\"/>");
        if (!plot.series[si].y_err.empty())
            doc.raw("<rect x=\"" + coord(best.x + 8) + "\" y=\"" + coord(y - 5) + "\" width=\"24\" height=\"10\" fill=\"" +
                    line_series_colour(plot, si) + "\" fill-opacity=\"0.18\"/>");
        doc.text(best.x + 38, y + 4, plot.series[si].name, "start", "legend");
        y += kLegendRow;
    }
    doc.raw("</g>\n");
}

}  // namespace

std::string render_line_plot(const LinePlot& plot) {
    const double W = plot.width, H = plot.height;
    const LinePlotFrame f = line_plot_frame(plot);
    const Box& area = f.area;
    SvgDocument doc(W, H, plot.title);
    doc.clip_rect("plot-area", area.x, area.y, area.w, area.h);
    draw_line_plot_grid(doc, f);
    if (plot.diagonal) draw_line_plot_diagonal(doc, f);
    const LinePlotRuns all_runs = draw_line_plot_bands(doc, plot, f);
    draw_line_plot_series(doc, plot, f, all_runs);
    // Frame and labels.
    doc.raw("<rect class=\"frame\" x=\"" + coord(area.x) + "\" y=\"" + coord(area.y) + "\" width=\"" + coord(area.w) +
            "\" height=\"" + coord(area.h) + "\" fill=\"none\" stroke=\"#333333\" stroke-width=\"1\"/>\n");
    if (!plot.title.empty()) doc.title(W, 26, plot.title);
    if (!plot.x_label.empty()) doc.text(area.x + area.w / 2, H - 12, plot.x_label, "middle", "x-label");
    if (!plot.y_label.empty())
        doc.text(16, area.y + area.h / 2, plot.y_label, "middle", "y-label",
                 "transform=\"rotate(-90 16 " + coord(area.y + area.h / 2) + ")\"");
    draw_line_plot_legend(doc, plot, area, all_runs);
    return doc.finish();
}

}  // namespace kestrel::report
