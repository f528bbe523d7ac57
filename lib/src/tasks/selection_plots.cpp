#include "kestrel/tasks/selection_plots.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/report/svg_plot.hpp"

namespace kestrel {
namespace {

struct AxisLayout {
    std::vector<std::size_t> order;   // drawing position -> index into the axis values
    std::vector<std::string> labels;  // by drawing position
};

// Numeric axes in increasing order (reversed for rows, so that they increase upwards);
// words as listed. Powers of two spanning fractions or thousands read better as 2^e
// (grid.py's log2 axes) than as 0.0009765625 or 32768.
AxisLayout layout(const GridAxis& axis, bool rows) {
    AxisLayout out;
    out.order.resize(axis.values.size());
    std::iota(out.order.begin(), out.order.end(), std::size_t{0});
    std::vector<double> v;
    for (const auto& text : axis.values)
        if (auto x = parse_number_text(text)) v.push_back(*x);
    const bool numeric = v.size() == axis.values.size();
    if (numeric) {
        std::stable_sort(out.order.begin(), out.order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
        if (rows) std::reverse(out.order.begin(), out.order.end());
    }
    bool powers_of_two = numeric && axis.values.size() >= 3, wide = false;
    for (std::size_t i = 0; powers_of_two && i < v.size(); ++i) {
        const double e = v[i] > 0 ? std::round(std::log2(v[i])) : 0;
        powers_of_two = v[i] > 0 && std::ldexp(1.0, static_cast<int>(e)) == v[i];
        wide = wide || v[i] < 1 || v[i] > 1000;
    }
    for (std::size_t i : out.order)
        out.labels.push_back(powers_of_two && wide ? "2^" + format_number(std::round(std::log2(v[i]))) : axis.values[i]);
    return out;
}

std::size_t position_of(const AxisLayout& l, const GridAxis& axis, const std::string& value) {
    for (std::size_t pos = 0; pos < l.order.size(); ++pos)
        if (axis.values[l.order[pos]] == value) return pos;
    return l.order.size();
}

std::string value_of(const GridPoint& point, const std::string& name) {
    for (const auto& [n, v] : point)
        if (n == name) return v;
    return {};
}

}  // namespace

std::string grid_heatmap_svg(const GridSearchResult& r, const std::vector<GridAxis>& axes, const std::string& about) {
    if (axes.size() != 2 || axes[0].kind != AxisKind::list || axes[1].kind != AxisKind::list)
        throw UsageError("a grid heat map needs two axes of listed values; this search has " +
                         std::to_string(axes.size()) + " ax" + (axes.size() == 1 ? "is" : "es") +
                         (axes.size() == 2 ? ", one a distribution" : ""));
    const AxisLayout rows = layout(axes[0], true), cols = layout(axes[1], false);
    report::HeatMap map;
    map.title = "Grid search: mean " + r.metric + (about.empty() ? "" : " (" + about + ")");
    map.y_label = axes[0].name;
    map.x_label = axes[1].name;
    map.y_ticks = rows.labels;
    map.x_ticks = cols.labels;
    map.value_label = "mean " + r.metric + (r.greater_is_better ? " (higher is better)" : " (lower is better)");
    map.values.assign(rows.order.size(), std::vector<double>(cols.order.size(), std::numeric_limits<double>::quiet_NaN()));
    std::vector<std::vector<bool>> seen(rows.order.size(), std::vector<bool>(cols.order.size(), false));
    // Points come best first (halving: the last round first), so the first score of a cell is the one to show.
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        const auto& p = r.points[i];
        const std::size_t row = position_of(rows, axes[0], value_of(p.point, axes[0].name));
        const std::size_t col = position_of(cols, axes[1], value_of(p.point, axes[1].name));
        if (row >= rows.order.size() || col >= cols.order.size() || seen[row][col]) continue;
        seen[row][col] = true;
        map.values[row][col] = p.score.mean;
        if (i == 0) map.highlight_row = static_cast<int>(row), map.highlight_col = static_cast<int>(col);
    }
    return report::render_heatmap(map);
}

std::string learning_curve_svg(const LearningCurve& curve, const std::string& about) {
    report::LinePlot plot;
    plot.title = "Learning curve" + (about.empty() ? "" : " (" + about + ")");
    plot.x_label = "Training examples";
    plot.y_label = curve.metric + (curve.greater_is_better ? "" : " (lower is better)");
    report::Series train{"Training score", {}, {}, {}, true}, validation{"Validation score", {}, {}, {}, true};
    for (const auto& pt : curve.points) {
        for (report::Series* s : {&train, &validation}) s->x.push_back(static_cast<double>(pt.train_size));
        train.y.push_back(pt.train.mean);
        train.y_err.push_back(pt.train.std);
        validation.y.push_back(pt.validation.mean);
        validation.y_err.push_back(pt.validation.std);
    }
    plot.series = {train, validation};
    return report::render_line_plot(plot);
}

}  // namespace kestrel
