// kestrel-explain (docs/explanations.md): permutation importance shared with kestrel-select,
// partial dependence / ICE, the SHAP summary, as text, JSON and SVG; refusals are one line
// with exit 1 (usage) or 2 (data, I/O).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "common/commands.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_explain_cli_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::run;

namespace {
const std::string iris_train = test::repo_path("data/iris/train.csv");
const std::string iris_test = test::repo_path("data/iris/test.csv");
const std::string pdp_fixture = test::repo_path("tests/unit/model_selection/data/pdp_fixture.csv");

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}
}  // namespace

TEST_SUITE("cli.explain") {
    TEST_CASE("kestrel-explain --importance --shap-summary: JSON and text, the same at any thread count") {
        test::ScratchDir dir("explain_basic");
        const auto model = dir / "iris.json";
        REQUIRE(run(run_train, "kestrel-train", {"-q", "-m", "logistic", iris_train, "-o", model}).code == 0);
        auto one = run(run_explain, "kestrel-explain",
                       {model, iris_test, "--importance", "--shap-summary", "--json", "--threads", "1", "--seed", "4"});
        REQUIRE_MESSAGE(one.code == 0, one.err);
        auto two = run(run_explain, "kestrel-explain",
                       {model, iris_test, "--importance", "--shap-summary", "--json", "--threads", "2", "--seed", "4"});
        CHECK(two.out == one.out);
        const Json j = Json::parse(one.out);
        CHECK(j["model"] == "logistic");
        CHECK(j["importance"]["metric"] == "accuracy");
        CHECK(j["importance"]["repeats"] == 5);
        REQUIRE(j["importance"]["importances"].size() == 4);
        // The petal columns carry iris; the importances are sorted.
        const std::string top = j["importance"]["importances"][0]["feature"];
        CHECK(top.rfind("petal", 0) == 0);
        CHECK(j["importance"]["importances"][0]["mean"] >= j["importance"]["importances"][3]["mean"]);
        // Three classes: one mean |contribution| per class, the total their sum.
        CHECK(j["shap_summary"]["outputs"].size() == 3);
        REQUIRE(j["shap_summary"]["features"].size() == 4);
        double sum = 0;
        for (const auto& [cls, v] : j["shap_summary"]["features"][0]["mean_abs"].items()) sum += v.get<double>();
        CHECK(j["shap_summary"]["features"][0]["total"].get<double>() == doctest::Approx(sum));

        // The same permutation importance as kestrel-select's (one library function).
        auto sel = run(run_select, "kestrel-select",
                       {"--method", "permutation", "-m", model, "--heldout", iris_test, "--json", "--seed", "4"});
        REQUIRE_MESSAGE(sel.code == 0, sel.err);
        CHECK(Json::parse(sel.out)["importances"] == j["importance"]["importances"]);

        auto text = run(run_explain, "kestrel-explain", {model, iris_test, "--importance", "--shap-summary", "--seed", "4"});
        REQUIRE(text.code == 0);
        CHECK(text.out.find("permutation importance: accuracy baseline") != std::string::npos);
        CHECK(text.out.find("feature             mean       std\n") != std::string::npos);
        CHECK(text.out.find("SHAP summary: mean |contribution| per column, per class and summed") != std::string::npos);
    }

    TEST_CASE("--pdp and --ice: scikit-learn's values on a linear regression, and class probabilities") {
        test::ScratchDir dir("explain_pdp");
        const auto ls = dir / "ls.json";
        REQUIRE(run(run_train, "kestrel-train", {"-q", "-m", "least_squares", pdp_fixture, "-o", ls}).code == 0);
        auto r = run(run_explain, "kestrel-explain", {ls, pdp_fixture, "--pdp", "a,c", "--grid-resolution", "10", "--json"});
        REQUIRE_MESSAGE(r.code == 0, r.err);
        const Json j = Json::parse(r.out);
        REQUIRE(j["partial_dependence"].size() == 2);
        const Json& a = j["partial_dependence"][0];
        CHECK(a["feature"] == "a");
        CHECK(a["kind"] == "numeric");
        CHECK(a["response"] == "prediction");
        REQUIRE(a["grid"].size() == 10);
        // make_pdp_references.py (scikit-learn 1.2.1 partial_dependence of LinearRegression).
        CHECK(a["grid"][0].get<double>() == doctest::Approx(-5.8121100000000006).epsilon(1e-12));
        CHECK(a["average"]["prediction"][0].get<double>() == doctest::Approx(-10.545427255005189).epsilon(1e-9));
        CHECK(a["average"]["prediction"][9].get<double>() == doctest::Approx(11.437092310248564).epsilon(1e-9));
        CHECK_FALSE(a.contains("ice"));
        CHECK(j["partial_dependence"][1]["grid"] == Json::array({0.0, 1.0, 2.0, 3.0, 4.0}));
        CHECK(j["partial_dependence"][1]["average"]["prediction"][0].get<double>() ==
              doctest::Approx(-0.5623818586153307).epsilon(1e-9));

        const auto model = dir / "iris.json";
        REQUIRE(run(run_train, "kestrel-train", {"-q", "-m", "logistic", iris_train, "-o", model}).code == 0);
        auto ice = run(run_explain, "kestrel-explain",
                       {model, iris_test, "--ice", "petal_length", "--ice-rows", "7", "--json", "--grid-resolution", "20"});
        REQUIRE_MESSAGE(ice.code == 0, ice.err);
        const Json p = Json::parse(ice.out)["partial_dependence"][0];
        CHECK(p["response"] == "proba");
        REQUIRE(p["outputs"].size() == 3);
        REQUIRE(p["grid"].size() == 20);
        CHECK(p["ice"]["rows"].size() == 7);
        CHECK(p["ice"]["setosa"].size() == 7);
        CHECK(p["ice"]["setosa"][0].size() == 20);
        // The class probabilities sum to one at every grid point.
        for (std::size_t g = 0; g < 20; ++g) {
            double s = 0;
            for (const auto& c : p["outputs"]) s += p["average"][c.get<std::string>()][g].get<double>();
            CHECK(s == doctest::Approx(1.0));
        }
        auto text = run(run_explain, "kestrel-explain", {model, iris_test, "--ice", "petal_length", "--ice-rows", "2"});
        REQUIRE(text.code == 0);
        CHECK(text.out.find("partial dependence of petal_length (proba, mean over") != std::string::npos);
        CHECK(text.out.find("ICE of petal_length (setosa)") != std::string::npos);
    }

    TEST_CASE("--plot: importance and SHAP bar charts, the PDP line chart with faint ICE lines") {
        test::ScratchDir dir("explain_plot");
        const auto model = dir / "iris.json";
        REQUIRE(run(run_train, "kestrel-train", {"-q", "-m", "logistic", iris_train, "-o", model}).code == 0);
        auto r = run(run_explain, "kestrel-explain",
                     {model, iris_test, "--importance", "--shap-summary", "--ice", "petal_width", "--pdp", "sepal_width",
                      "--ice-rows", "5", "--plot", dir / "importance.svg", "--plot", dir / "shap_summary.svg", "--plot",
                      "pdp=" + (dir / "curves.svg"), "-o", dir / "report.txt"});
        REQUIRE_MESSAGE(r.code == 0, r.err);
        CHECK(r.out.empty());
        CHECK(slurp(dir / "report.txt").find("permutation importance") != std::string::npos);
        const std::string imp = slurp(dir / "importance.svg");
        CHECK(imp.find("<rect class=\"bar\" data-label=\"petal_length\"") != std::string::npos);
        CHECK(imp.find("class=\"whisker\"") != std::string::npos);
        const std::string shap = slurp(dir / "shap_summary.svg");
        CHECK(shap.find("<rect class=\"bar\" data-label=\"sepal_width\"") != std::string::npos);
        // Every plot is titled with the data file's short name (the issue: the whole path ran
        // off both edges), as kestrel-cv's and kestrel-predict's are.
        CHECK(shap.find("<title>SHAP summary: logistic on iris/test.csv</title>") != std::string::npos);
        CHECK(imp.find("<title>Permutation importance: logistic on iris/test.csv</title>") != std::string::npos);
        // Two columns: one file each.
        const std::string pw = slurp(dir / "curves-petal_width.svg");
        CHECK(pw.find("class=\"faint\"") != std::string::npos);
        CHECK(pw.find("data-series=\"virginica\"") != std::string::npos);
        CHECK(slurp(dir / "curves-sepal_width.svg").find("class=\"faint\"") == std::string::npos);
    }

    TEST_CASE("bad input: one line, exit 1 for usage, 2 for data and I/O") {
        test::ScratchDir dir("explain_bad");
        const auto model = dir / "iris.json";
        REQUIRE(run(run_train, "kestrel-train", {"-q", "-m", "logistic", iris_train, "-o", model}).code == 0);
        auto nothing = run(run_explain, "kestrel-explain", {model, iris_test});
        CHECK(nothing.code == 1);
        CHECK(nothing.err == "kestrel-explain: nothing to explain: give --importance, --pdp COL, --ice COL or --shap-summary\n");
        auto unknown = run(run_explain, "kestrel-explain", {model, iris_test, "--pdp", "petal_length,nope"});
        CHECK(unknown.code == 1);
        CHECK(unknown.err.find("--pdp: no column 'nope' among the model's input columns (sepal_length,") !=
              std::string::npos);
        auto ice = run(run_explain, "kestrel-explain", {model, iris_test, "--ice", "species"});
        CHECK(ice.code == 1);
        CHECK(ice.err.find("--ice: no column 'species'") != std::string::npos);
        const auto svc = dir / "svc.json";
        REQUIRE(run(run_train, "kestrel-train", {"-q", "-m", "svc", iris_train, "-o", svc}).code == 0);
        auto shap = run(run_explain, "kestrel-explain", {svc, iris_test, "--shap-summary"});
        CHECK(shap.code == 1);
        CHECK(shap.err ==
              "kestrel-explain: --shap-summary: model svc gives no feature contributions (tree, forest, gbdt and the "
              "linear models do); use --importance, which works for every model\n");
        auto plot = run(run_explain, "kestrel-explain", {model, iris_test, "--importance", "--plot", dir / "pdp.svg"});
        CHECK(plot.code == 1);
        CHECK(plot.err.find("needs --pdp COL or --ice COL") != std::string::npos);
        auto metric = run(run_explain, "kestrel-explain", {model, iris_test, "--shap-summary", "--metric", "f1_macro"});
        CHECK(metric.code == 1);
        // No label column: --importance needs one (a data error); the rest works without.
        const auto unlabelled = dir.file("u.csv", "sepal_length,sepal_width,petal_length,petal_width\n5,3,1.5,0.2\n6,3,4.5,1.5\n");
        auto nolabel = run(run_explain, "kestrel-explain", {model, unlabelled, "--importance"});
        CHECK(nolabel.code == 2);
        CHECK(nolabel.err.find("u.csv: --importance needs a label column") != std::string::npos);
        auto nolabel_shap = run(run_explain, "kestrel-explain", {model, unlabelled, "--shap-summary"});
        CHECK_MESSAGE(nolabel_shap.code == 0, nolabel_shap.err);
        // A write error is exit 2, never a silent 0.
        const auto full = test::run_tool("'" + std::string(KESTREL_BIN_DIR) + "/kestrel-explain' '" + model + "' '" +
                                         iris_test + "' --shap-summary -o /dev/full");
        CHECK(full.exit_code == 2);
        const auto full_out = test::run_tool("'" + std::string(KESTREL_BIN_DIR) + "/kestrel-explain' '" + model + "' '" +
                                             iris_test + "' --shap-summary > /dev/full");
        CHECK(full_out.exit_code == 2);
        auto plot_dir = run(run_explain, "kestrel-explain",
                            {model, iris_test, "--shap-summary", "--plot", "shap=/nonexistent-dir/shap.svg"});
        CHECK(plot_dir.code == 2);
    }
}

}  // namespace cli_explain_cli_test
}  // namespace
