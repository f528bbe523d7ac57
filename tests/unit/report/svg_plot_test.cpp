// SVG plots: well-formed XML with the expected series, labels, ticks and cells.
#include <doctest/doctest.h>

#include <algorithm>
#include <clocale>
#include <cmath>
#include <limits>
#include <sstream>

#include "kestrel/core/error.hpp"
#include "kestrel/report/svg_plot.hpp"
#include "unit/report/svg_check.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_report_svg_plot_test {

using namespace kestrel;
using namespace kestrel::report;
using kestrel::test::elements_named;
using kestrel::test::parse_xml;
using kestrel::test::XmlElement;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

LinePlot roc_like() {
    LinePlot p;
    p.title = "ROC curve";
    p.x_label = "False positive rate";
    p.y_label = "True positive rate";
    p.diagonal = true;
    p.series.push_back({"class a (AUC = 0.875)", {0, 0, 0.5, 1}, {0, 0.5, 1, 1}, {}, false});
    p.series.push_back({"class b (AUC = 0.500)", {0, 1}, {0, 1}, {}, false});
    return p;
}

std::vector<std::string> texts(const std::vector<XmlElement>& all, const std::string& cls) {
    std::vector<std::string> out;
    for (const auto& e : elements_named(all, "text", cls)) out.push_back(e.text);
    return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// The points of a path's d attribute ("M x y L x y ...").
std::vector<std::pair<double, double>> points(const std::string& d, int* moves = nullptr) {
    std::vector<std::pair<double, double>> out;
    std::string spaced;
    for (char c : d) spaced += (c == 'M' || c == 'L') ? std::string(" ") + c + " " : std::string(1, c);
    std::istringstream in(spaced);
    in.imbue(std::locale::classic());
    std::string cmd;
    double x = 0, y = 0;
    if (moves) *moves = 0;
    while (in >> cmd >> x >> y) {
        if (cmd == "M" && moves) ++*moves;
        out.emplace_back(x, y);
    }
    return out;
}

}  // namespace

TEST_SUITE("report") {

TEST_CASE("line plot: a well-formed SVG with one path and one legend entry per series") {
    const std::string svg = render_line_plot(roc_like());
    const auto all = parse_xml(svg);
    REQUIRE(all.front().name == "svg");
    CHECK(all.front().attrs.at("xmlns") == "http://www.w3.org/2000/svg");
    CHECK(all.front().attrs.at("viewBox") == "0 0 640 480");
    const auto series = elements_named(all, "path", "series");
    REQUIRE(series.size() == 2);
    CHECK(series[0].attrs.at("data-series") == "class a (AUC = 0.875)");
    CHECK(series[0].attrs.at("stroke") != series[1].attrs.at("stroke"));
    CHECK(has(texts(all, "legend"), "class a (AUC = 0.875)"));
    CHECK(has(texts(all, "legend"), "class b (AUC = 0.500)"));
    CHECK(texts(all, "title") == std::vector<std::string>{"ROC curve"});
    CHECK(texts(all, "x-label") == std::vector<std::string>{"False positive rate"});
    CHECK(texts(all, "y-label") == std::vector<std::string>{"True positive rate"});
    CHECK(elements_named(all, "title").size() == 1);
    CHECK(elements_named(all, "line", "diagonal").size() == 1);
    // Axes [0, 1] with ticks every 0.2, written without binary noise.
    const auto ticks = texts(all, "tick");
    for (const char* t : {"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}) CHECK(has(ticks, t));
    CHECK(ticks.size() == 12);
    // The curve climbs from the lower left corner to the upper right one, inside the frame.
    const auto frame = elements_named(all, "rect", "frame").at(0).attrs;
    const double fx = std::stod(frame.at("x")), fy = std::stod(frame.at("y"));
    const double fw = std::stod(frame.at("width")), fh = std::stod(frame.at("height"));
    const auto pts = points(series[0].attrs.at("d"));
    REQUIRE(pts.size() == 4);
    CHECK(pts.front().first == doctest::Approx(fx + fw * 0.03 / 1.06).epsilon(0.001));
    CHECK(pts.front().second == doctest::Approx(fy + fh * (1 - 0.03 / 1.06)).epsilon(0.001));
    CHECK(pts.back().first > pts.front().first);
    CHECK(pts.back().second < pts.front().second);
}

TEST_CASE("line plot: the same bytes every time, whatever the C locale") {
    const std::string first = render_line_plot(roc_like());
    CHECK(render_line_plot(roc_like()) == first);
    const char* old = std::setlocale(LC_NUMERIC, nullptr);
    const std::string saved = old ? old : "C";
    if (std::setlocale(LC_NUMERIC, "de_DE.UTF-8") || std::setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
        CHECK(render_line_plot(roc_like()) == first);
        std::setlocale(LC_NUMERIC, saved.c_str());
    } else {
        MESSAGE("no comma-decimal locale installed; the locale half of this check was skipped");
    }
    for (const auto& e : parse_xml(first))  // no decimal commas in any coordinate
        for (const auto& [name, value] : e.attrs)
            if (name != "font-family") CHECK(value.find(',') == std::string::npos);
}

TEST_CASE("line plot: names are escaped, steps hold y, gaps split paths, bands and markers") {
    LinePlot p;
    p.step = true;
    p.series.push_back({"a<b & \"c\"", {1, 0.5, 0}, {0.5, 0.8, 1}, {}, true});
    p.series.push_back({"gap", {0, 1, 2, 3}, {1, kNaN, 2, 3}, {}, false});
    p.series.push_back({"band", {0, 1, 2}, {1, 2, 3}, {0.5, 0.5, 0.5}, false});
    const auto all = parse_xml(render_line_plot(p));
    const auto series = elements_named(all, "path", "series");
    REQUIRE(series.size() == 3);
    CHECK(series[0].attrs.at("data-series") == "a<b & \"c\"");
    CHECK(has(texts(all, "legend"), "a<b & \"c\""));
    // Three points, two steps: each step goes across first, then up.
    const auto step = points(series[0].attrs.at("d"));
    REQUIRE(step.size() == 5);
    CHECK(step[1].second == step[0].second);
    CHECK(step[2].first == step[1].first);
    CHECK(elements_named(all, "circle").size() == 3);  // markers on the data points only
    int moves = 0;
    points(series[1].attrs.at("d"), &moves);
    CHECK(moves == 2);
    const auto bands = elements_named(all, "path", "band");
    REQUIRE(bands.size() == 1);
    CHECK(bands[0].attrs.at("data-series") == "band");
}

TEST_CASE("line plot: a log x axis has powers of ten as ticks") {
    LinePlot p;
    p.log_x = true;
    p.series.push_back({"score", {0.001, 0.1, 10, 1000}, {0.5, 0.7, 0.9, 0.6}, {}, true});
    const auto all = parse_xml(render_line_plot(p));
    std::vector<std::string> labels;
    for (const auto& t : elements_named(all, "text", "tick"))
        if (t.text.rfind("10", 0) == 0) labels.push_back(t.text);
    CHECK(has(labels, "10-3"));  // "10" and the superscript tspan "-3"
    CHECK(has(labels, "103"));
    CHECK(has(labels, "100"));
}

TEST_CASE("line plot: nice ticks over an arbitrary range") {
    LinePlot p;
    p.series.push_back({"", {13, 87}, {0.113, 0.387}, {}, false});
    const auto all = parse_xml(render_line_plot(p));
    const auto ticks = texts(all, "tick");
    for (const char* t : {"20", "40", "60", "80", "0.15", "0.20", "0.35"}) CHECK(has(ticks, t));
    for (const auto& t : ticks) CHECK(t.size() <= 4);
    CHECK(elements_named(all, "g").size() >= 2);
    CHECK(texts(all, "legend").empty());  // an unnamed series has no legend entry
}

TEST_CASE("heat map: one cell per value, annotated; NaN cells grey; the best cell outlined") {
    HeatMap h;
    h.title = "Grid search: mean accuracy";
    h.x_label = "gamma";
    h.y_label = "C";
    h.x_ticks = {"0.01", "0.1", "1"};
    h.y_ticks = {"2^3", "2^1"};
    h.values = {{0.5, 0.75, kNaN}, {0.875, 0.625, 0.5}};
    h.highlight_row = 1;
    h.highlight_col = 0;
    const auto all = parse_xml(render_heatmap(h));
    const auto cells = elements_named(all, "rect", "cell");
    REQUIRE(cells.size() == 6);
    CHECK(cells[2].attrs.at("data-row") == "0");
    CHECK(cells[2].attrs.at("data-col") == "2");
    CHECK(cells[2].attrs.at("fill") == "#c8c8c8");
    CHECK(cells[3].attrs.at("fill") == "#fde725");  // the highest value: viridis' yellow end
    CHECK(cells[0].attrs.at("fill") == "#440154");  // the lowest: its purple end
    CHECK(texts(all, "cell-value") == std::vector<std::string>{"0.5", "0.75", "n/a", "0.875", "0.625", "0.5"});
    CHECK(texts(all, "x-tick") == std::vector<std::string>{"0.01", "0.1", "1"});
    CHECK(texts(all, "y-tick") == std::vector<std::string>{"23", "21"});  // 2 with a raised exponent
    CHECK(texts(all, "title") == std::vector<std::string>{"Grid search: mean accuracy"});
    CHECK(elements_named(all, "g", "highlight").size() == 1);
    CHECK(elements_named(all, "linearGradient").size() == 1);

    h.values[1].pop_back();
    CHECK_THROWS_AS(render_heatmap(h), InternalError);
}

TEST_CASE("heat map: counts written in full, labels escaped, no annotations on request") {
    HeatMap h;
    h.x_ticks = h.y_ticks = {"<a>", "b&c"};
    h.values = {{123456, 0}, {7, 89}};
    h.digits = 17;
    auto all = parse_xml(render_heatmap(h));
    CHECK(texts(all, "cell-value") == std::vector<std::string>{"123456", "0", "7", "89"});
    CHECK(texts(all, "x-tick") == std::vector<std::string>{"<a>", "b&c"});
    h.annotate = false;
    all = parse_xml(render_heatmap(h));
    CHECK(texts(all, "cell-value").empty());
}


TEST_CASE("bar chart: one bar per label from zero, whiskers, top to bottom in the given order") {
    BarChart c;
    c.title = "Permutation importance";
    c.x_label = "decrease in accuracy";
    c.labels = {"petal <width>", "sepal", "none"};
    c.values = {0.4, -0.1, kNaN};
    c.errors = {0.05, 0.0, 0.0};
    const auto all = parse_xml(render_bar_chart(c));
    const auto bars = elements_named(all, "rect", "bar");
    REQUIRE(bars.size() == 2);  // the NaN value draws no bar
    CHECK(bars[0].attrs.at("data-label") == "petal <width>");
    CHECK(std::stod(bars[0].attrs.at("y")) < std::stod(bars[1].attrs.at("y")));
    // Bars start at zero: the positive one's left edge is the negative one's right edge,
    // and their lengths are in the ratio of the values.
    const double x0 = std::stod(bars[0].attrs.at("x")), w0 = std::stod(bars[0].attrs.at("width"));
    const double x1 = std::stod(bars[1].attrs.at("x")), w1 = std::stod(bars[1].attrs.at("width"));
    CHECK(x1 + w1 == doctest::Approx(x0).epsilon(1e-3));
    CHECK(w0 / w1 == doctest::Approx(4.0).epsilon(1e-2));
    CHECK(elements_named(all, "path", "whisker").size() == 1);  // zero errors draw none
    CHECK(texts(all, "bar-label") == std::vector<std::string>{"petal <width>", "sepal", "none"});
    CHECK(texts(all, "title") == std::vector<std::string>{"Permutation importance"});
    c.errors = {0.1};
    CHECK_THROWS_AS(render_bar_chart(c), InternalError);
}

TEST_CASE("line plot: faint series are drawn thin, under the others, and out of the legend") {
    LinePlot p;
    p.series.push_back({"row 1", {0, 1}, {0, 1}, {}, false, true, 0});
    p.series.push_back({"average", {0, 1}, {0.5, 0.5}, {}, false, false, 0});
    const auto all = parse_xml(render_line_plot(p));
    const auto faint = elements_named(all, "path", "faint");
    REQUIRE(faint.size() == 1);
    CHECK(faint[0].attrs.at("data-series") == "row 1");
    CHECK(faint[0].attrs.at("stroke") == elements_named(all, "path", "series").at(0).attrs.at("stroke"));
    CHECK(texts(all, "legend") == std::vector<std::string>{"average"});
}

}  // TEST_SUITE

TEST_CASE("titles fit the picture: full size, then shrunk, then shortened in the middle; <title> keeps all") {
    // 'x' is 0.6 em in the layout estimate: 9 px at 15 px, 6 px at 10 px. A 640-wide plot
    // leaves 616 px between its title margins.
    const auto title_of = [](const std::string& title) {
        LinePlot p = roc_like();
        p.title = title;
        const auto all = parse_xml(render_line_plot(p));
        const auto t = elements_named(all, "text", "title");
        REQUIRE(t.size() == 1);
        CHECK(elements_named(all, "title").at(0).text == title);
        return std::make_pair(t[0].attrs.at("font-size"), t[0].text);
    };
    CHECK(title_of(std::string(68, 'x')) == std::make_pair(std::string("15"), std::string(68, 'x')));  // 612 px
    // 80 x 9 = 720 px: shrunk to 15 * 616 / 720 = 12.83, down to the half pixel.
    CHECK(title_of(std::string(80, 'x')) == std::make_pair(std::string("12.5"), std::string(80, 'x')));
    // 300 x: at 10 px, 101 x and the ellipsis (6 px each) take 612 px, 51 before it and 50 after.
    CHECK(title_of(std::string(300, 'x')) ==
          std::make_pair(std::string("10"), std::string(51, 'x') + "\xE2\x80\xA6" + std::string(50, 'x')));
    // Both ends of a real title survive: the chart's kind and the file's name.
    const auto [size, text] = title_of("SHAP summary: gbdt on " + std::string(200, 'd') + "/test.csv");
    CHECK(size == "10");
    CHECK(text.rfind("SHAP summary: gbdt on ", 0) == 0);
    CHECK(text.size() > 9);
    CHECK(text.substr(text.size() - 9) == "/test.csv");
}

}  // namespace unit_report_svg_plot_test
}  // namespace
