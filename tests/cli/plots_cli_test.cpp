// --curves and --plot on kestrel-predict, kestrel-cv and kestrel-gridsearch, run in
// process; then the SVGs rendered in headless Chromium (skipped when it is absent).
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "cli/run_in_process.hpp"
#include "kestrel/core/params.hpp"
#include "unit/report/svg_check.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_plots_cli_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::Captured;
using kestrel::test::run;
using kestrel::test::elements_named;
using kestrel::test::parse_xml;

namespace {

std::vector<std::string> series_names(const std::string& svg) {
    std::vector<std::string> out;
    for (const auto& e : elements_named(parse_xml(svg), "path", "series")) out.push_back(e.attrs.at("data-series"));
    return out;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out(1);
    for (char c : line) {
        if (c == ',') out.emplace_back();
        else out.back().push_back(c);
    }
    return out;
}

// A binary logistic model on heart_scale, trained once per test.
std::string heart_model(const test::ScratchDir& dir) {
    const auto model = dir / "heart.json";
    const auto t = run(run_train, "kestrel-train",
                       {"-q", "-m", "logistic", test::repo_path("data/heart_scale/train.csv"), "-o", model});
    REQUIRE(t.code == 0);
    return model;
}

}  // namespace

TEST_SUITE("cli.plots") {

TEST_CASE("kestrel-predict --curves and --plot: ROC, PR and confusion for a binary model") {
    test::ScratchDir dir("plots_predict");
    const auto model = heart_model(dir);
    const auto p = run(run_predict, "kestrel-predict",
                       {model, test::repo_path("data/heart_scale/test.csv"), "--metrics", "--json", "--curves",
                        dir / "curves.csv", "--plot", dir / "roc.svg", "--plot", "pr=" + (dir / "precision.svg"),
                        "--plot", dir / "confusion-test.svg"});
    REQUIRE_MESSAGE(p.code == 0, p.err);
    const Json report = Json::parse(p.out);
    const double auc = report["roc_auc"].get<double>(), ap = report["average_precision"].get<double>();

    // The CSV's ROC points enclose the report's AUC, its PR steps the average precision.
    const auto rows = lines_of(test::slurp(dir / "curves.csv"));
    REQUIRE(rows.size() > 3);
    CHECK(rows[0] == "curve,class,threshold,fpr,tpr,precision,recall");
    CHECK(rows[1].rfind("roc,1,", 0) == 0);
    double area = 0, steps = 0, fpr0 = 0, tpr0 = 0, recall0 = -1, precision0 = 0;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const auto f = split(rows[i]);
        REQUIRE(f.size() == 7);
        if (f[0] == "roc") {
            const double fpr = std::stod(f[3]), tpr = std::stod(f[4]);
            area += (fpr - fpr0) * (tpr + tpr0) / 2;
            fpr0 = fpr, tpr0 = tpr;
        } else {
            const double precision = std::stod(f[5]), recall = std::stod(f[6]);
            if (recall0 >= 0) steps += (recall0 - recall) * precision0;
            recall0 = recall, precision0 = precision;
        }
    }
    CHECK(area == doctest::Approx(auc).epsilon(1e-12));
    CHECK(steps == doctest::Approx(ap).epsilon(1e-12));
    CHECK(split(rows.back())[2].empty());  // the PR end point (recall 0) has no threshold

    const std::string roc = test::slurp(dir / "roc.svg");
    const auto roc_series = series_names(roc);
    REQUIRE(roc_series.size() == 1);
    char expected[32];
    std::snprintf(expected, sizeof expected, "AUC = %.3f", auc);
    CHECK(roc_series[0] == expected);
    CHECK(roc.find("<title>ROC curve, positive class 1 (logistic on heart_scale/test.csv)</title>") != std::string::npos);
    const auto pr_series = series_names(test::slurp(dir / "precision.svg"));
    REQUIRE(pr_series.size() == 1);
    CHECK(pr_series[0].rfind("AP = 0.", 0) == 0);
    const auto confusion = parse_xml(test::slurp(dir / "confusion-test.svg"));
    const auto cells = elements_named(confusion, "text", "cell-value");
    REQUIRE(cells.size() == 4);
    long long total = 0;
    for (const auto& c : cells) total += std::stoll(c.text);
    CHECK(total == 54);  // every test row once
}

TEST_CASE("kestrel-cv --plot: one-vs-rest ROC curves of the out-of-fold scores on iris") {
    test::ScratchDir dir("plots_cv");
    const auto r = run(run_cv, "kestrel-cv",
                       {"-q", "-m", "logistic", "-k", "3", test::repo_path("data/iris/train.csv"), "--plot",
                        dir / "roc-iris.svg", "--curves", dir / "curves.csv"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    const auto names = series_names(test::slurp(dir / "roc-iris.svg"));
    REQUIRE(names.size() == 3);
    CHECK(names[0].rfind("setosa vs rest (AUC = ", 0) == 0);
    CHECK(names[2].rfind("virginica vs rest (AUC = ", 0) == 0);
    const std::string csv = test::slurp(dir / "curves.csv");
    CHECK(csv.find("\nroc,versicolor,") != std::string::npos);
    CHECK(csv.find("\npr,virginica,") != std::string::npos);
}

TEST_CASE("kestrel-cv --learning-curve --plot: training and validation scores with bands") {
    test::ScratchDir dir("plots_learning");
    const auto data = test::repo_path("data/iris/train.csv");
    const auto r = run(run_cv, "kestrel-cv",
                       {"-q", "-m", "logistic", "-k", "3", "--learning-curve", "0.25,0.5,1", data, "--plot",
                        dir / "curve.svg"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    const auto all = parse_xml(test::slurp(dir / "curve.svg"));
    CHECK(series_names(test::slurp(dir / "curve.svg")) == std::vector<std::string>{"Training score", "Validation score"});
    CHECK(elements_named(all, "path", "band").size() == 2);
    CHECK(elements_named(all, "circle").size() == 6);  // a marker per size and series
    std::string x_label;
    for (const auto& t : elements_named(all, "text", "x-label")) x_label = t.text;
    CHECK(x_label == "Training examples");

    const auto without = run(run_cv, "kestrel-cv", {"-q", "-m", "logistic", data, "--plot", dir / "learning.svg"});
    CHECK(without.code == 1);
    CHECK(without.err.find("needs --learning-curve") != std::string::npos);
    const auto mixed = run(run_cv, "kestrel-cv",
                           {"-q", "-m", "logistic", "--learning-curve", "0.5,1", data, "--plot", dir / "roc.svg"});
    CHECK(mixed.code == 1);
    CHECK(mixed.err.find("--plot roc cannot be combined with --learning-curve") != std::string::npos);
}

TEST_CASE("kestrel-gridsearch --plot: a heat map over a 2-D grid, an error otherwise") {
    test::ScratchDir dir("plots_grid");
    const auto data = test::repo_path("data/heart_scale/train.csv");
    const auto g = run(run_gridsearch, "kestrel-gridsearch",
                       {"-q", "-m", "logistic", "-g", "C=2^-4:2^4:4", "-g", "tol=1e-4,1e-3", "-k", "3", data,
                        "--plot", dir / "grid.svg"});
    REQUIRE_MESSAGE(g.code == 0, g.err);
    const auto all = parse_xml(test::slurp(dir / "grid.svg"));
    CHECK(elements_named(all, "rect", "cell").size() == 6);
    CHECK(elements_named(all, "g", "highlight").size() == 1);
    std::vector<std::string> rows;
    for (const auto& t : elements_named(all, "text", "y-tick")) rows.push_back(t.text);
    // C increasing upwards, powers of two written 2^e (the exponent raised: "2" then "4").
    CHECK(rows == std::vector<std::string>{"24", "20", "2-4"});

    const auto one = run(run_gridsearch, "kestrel-gridsearch",
                         {"-q", "-m", "logistic", "-g", "C=1,2", data, "--plot", dir / "one.svg"});
    CHECK(one.code == 1);
    CHECK(one.err.find("--plot draws the score over a 2-D grid (two -g axes); this search has 1 axis") !=
          std::string::npos);
}

TEST_CASE("--plot and --curves: clear errors naming the flag") {
    test::ScratchDir dir("plots_errors");
    const auto model = heart_model(dir);
    const auto test_file = test::repo_path("data/heart_scale/test.csv");
    auto unknown = run(run_predict, "kestrel-predict", {model, test_file, "--plot", "lift=x.svg"});
    CHECK(unknown.code == 1);
    CHECK(unknown.err.find("--plot lift=x.svg: unknown plot kind 'lift' (valid: roc, pr, confusion, calibration)") != std::string::npos);
    auto unnamed = run(run_predict, "kestrel-predict", {model, test_file, "--plot", dir / "figure.svg"});
    CHECK(unnamed.code == 1);
    CHECK(unnamed.err.find("the file name does not say which plot; write KIND=FILE") != std::string::npos);
    auto regression = run(run_cv, "kestrel-cv",
                          {"-q", "-m", "ridge", test::repo_path("data/diabetes/train.csv"), "--plot", dir / "roc.svg"});
    CHECK(regression.code == 1);
    CHECK(regression.err.find("--plot roc needs a classifier") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(dir / "roc.svg"));
}

TEST_CASE("the SVGs load in headless Chromium with their series drawn") {
    if (test::run_tool("command -v chromium").exit_code != 0) {
        MESSAGE("chromium is not installed (scripts/setup.sh installs it): rendering check skipped");
        return;
    }
    test::ScratchDir dir("plots_chromium");
    const auto model = heart_model(dir);
    REQUIRE(run(run_predict, "kestrel-predict",
                {model, test::repo_path("data/heart_scale/test.csv"), "-o", dir / "pred.csv", "--plot",
                 dir / "roc.svg", "--plot", dir / "confusion.svg"})
                .code == 0);
    REQUIRE(run(run_gridsearch, "kestrel-gridsearch",
                {"-q", "-m", "logistic", "-g", "C=0.1,1", "-g", "tol=1e-4,1e-3", "-k", "3",
                 test::repo_path("data/heart_scale/train.csv"), "--plot", dir / "grid.svg"})
                .code == 0);
    // One browser start for all three: the page parses each file as strict XML (as the
    // browser does when an .svg is opened), puts it in the page, and reports what it drew.
    dir.file("page.html", R"(<!DOCTYPE html><html><body><script>
for (const f of ["roc.svg", "confusion.svg", "grid.svg"]) {
  const out = document.createElement("div");
  out.className = "result";
  out.setAttribute("data-file", f);
  try {
    const x = new XMLHttpRequest(); x.open("GET", f, false); x.send();
    const doc = new DOMParser().parseFromString(x.responseText, "image/svg+xml");
    out.setAttribute("data-errors", doc.getElementsByTagName("parsererror").length);
    const svg = document.importNode(doc.documentElement, true);
    document.body.appendChild(svg);
    const series = [...svg.querySelectorAll("path.series")];
    out.setAttribute("data-series", series.map(p => p.getAttribute("data-series")).join("|"));
    out.setAttribute("data-drawn", series.filter(p => p.getBBox().width > 0 && p.getBBox().height > 0).length);
    out.setAttribute("data-cells", [...svg.querySelectorAll("rect.cell")].filter(r => r.getBBox().width > 0).length);
    out.setAttribute("data-width", Math.round(svg.getBoundingClientRect().width));
  } catch (e) { out.setAttribute("data-exception", String(e)); }
  document.body.appendChild(out);
}
</script></body></html>)");
    const auto r = test::run_tool("timeout 60 chromium --headless --disable-gpu --no-sandbox --allow-file-access-from-files "
                                  "--user-data-dir='" + (dir / "profile") + "' --dump-dom 'file://" + (dir / "page.html") + "'");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto result = [&](const std::string& file) {
        const auto at = r.out.find("data-file=\"" + file + "\"");
        REQUIRE_MESSAGE(at != std::string::npos, r.out);
        return r.out.substr(at, r.out.find('>', at) - at);
    };
    const std::string roc = result("roc.svg"), confusion = result("confusion.svg"), grid = result("grid.svg");
    for (const auto& s : {roc, confusion, grid}) {
        CAPTURE(s);
        CHECK(s.find("data-errors=\"0\"") != std::string::npos);
        CHECK(s.find("data-exception") == std::string::npos);
        CHECK(s.find("data-width=\"0\"") == std::string::npos);
    }
    CHECK(roc.find("data-series=\"AUC = 0.") != std::string::npos);
    CHECK(roc.find("data-drawn=\"1\"") != std::string::npos);
    CHECK(confusion.find("data-cells=\"4\"") != std::string::npos);
    CHECK(grid.find("data-cells=\"4\"") != std::string::npos);
}

}  // TEST_SUITE

}  // namespace cli_plots_cli_test
}  // namespace
