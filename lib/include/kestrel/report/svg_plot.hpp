#pragma once
// SVG plots written by kestrel itself: no plotting runtime is needed to look at a ROC
// curve, a learning curve or a grid-search heat map. The output is a complete,
// standalone SVG document, byte-for-byte deterministic (numbers never go through the
// locale), with axes, "nice" ticks, labels, a legend and a colour-blind-safe palette
// (Okabe & Ito for lines, viridis for heat maps).
//
// Each series is drawn as one <path class="series" data-series="NAME">, each legend
// entry as a <text class="legend">NAME</text>, so tests and scripts can find them.
#include <string>
#include <vector>

namespace kestrel::report {

struct Series {
    std::string name;                 // legend text (e.g. "virginica (AUC = 0.981)")
    std::vector<double> x, y;         // same length; non-finite points are skipped (gaps)
    std::vector<double> y_err;        // optional: a band y +/- y_err (same length as y)
    bool markers = false;             // a dot at every point (few points, e.g. learning curves)
    // A thin translucent line under the others, left out of the legend (ICE curves under
    // their partial dependence), drawn as <path class="faint">.
    bool faint = false;
    int colour = -1;                  // palette index; -1 = the series' own position
};

struct LinePlot {
    std::string title, x_label, y_label;
    std::vector<Series> series;
    bool log_x = false;     // x on a log10 scale (points with x <= 0 are skipped)
    bool step = false;      // step lines, holding each y until the next x (PR curves)
    bool diagonal = false;  // dashed y = x reference (ROC's chance line); also makes both axes [0, 1]
    // Optional fixed ranges (both ends, min < max); otherwise fitted to the data.
    double x_min = 0, x_max = 0, y_min = 0, y_max = 0;
    bool fixed_x = false, fixed_y = false;
    // Optional, per series: a short text beside each of its points (a reliability diagram's
    // bin counts), drawn as <text class="point-label" data-series="NAME">.
    std::vector<std::vector<std::string>> point_labels;
    int width = 640, height = 480;
};

std::string render_line_plot(const LinePlot& plot);

// A horizontal bar chart (importances): one bar per label, top to bottom in the given
// order, from 0 to the value, with an optional whisker value +/- error. Each bar is a
// <rect class="bar" data-label="LABEL">, each label a <text class="bar-label">.
struct BarChart {
    std::string title, x_label;
    std::vector<std::string> labels;
    std::vector<double> values;  // non-finite values are drawn as no bar
    std::vector<double> errors;  // optional, same length
    int width = 640;             // the height follows the number of bars
};

std::string render_bar_chart(const BarChart& chart);

struct HeatMap {
    std::string title, x_label, y_label;
    std::vector<std::string> x_ticks, y_ticks;  // column and row names
    std::vector<std::vector<double>> values;    // values[row = y][col = x]; row 0 is drawn at the top
    bool annotate = true;                       // the value printed in each cell
    int digits = 3;                             // significant digits of the annotations and colour bar
    std::string value_label;                    // colour bar caption (e.g. "mean accuracy")
    // Optional cell outlined as the best one; -1 = none.
    int highlight_row = -1, highlight_col = -1;
    int cell_size = 0;                          // pixels; 0 = chosen from the grid size
};

// Cells that are NaN are drawn grey and annotated "n/a". UsageError-free: a ragged
// `values` (rows not all as long as x_ticks) throws InternalError.
std::string render_heatmap(const HeatMap& map);

}  // namespace kestrel::report
