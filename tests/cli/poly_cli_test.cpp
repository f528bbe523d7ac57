// --poly, --poly-interaction-only, --max-poly-width and -g poly, run in process.
#include <doctest/doctest.h>

#include <sstream>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "kestrel/pipeline/model.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_poly_cli_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::Captured;
using kestrel::test::run;

namespace {

// y = a² − 0.5 b + 0.1 c on a small grid of points: a tree splits best on a^2.
std::string quadratic_csv() {
    std::ostringstream os;
    os << "label,a,b,c\n";
    for (int i = 0; i < 40; ++i) {
        const double a = -2 + 0.1 * i, b = (i % 7) * 0.3 - 1, c = (i % 5) * 0.5;
        os << a * a - 0.5 * b + 0.1 * c << "," << a << "," << b << "," << c << "\n";
    }
    return os.str();
}

}  // namespace

TEST_SUITE("cli.poly") {
    TEST_CASE("kestrel-train --poly: stored before the scaling, applied by kestrel-predict, named in tree dumps") {
        test::ScratchDir dir("poly_train");
        const auto data = dir.file("q.csv", quadratic_csv());
        const auto model = dir / "m.json";
        auto t = run(run_train, "kestrel-train",
                     {"-m", "ridge", "-p", "alpha=1e-6", "--scale", "standard", "--poly", "2", data, "-o", model});
        REQUIRE_MESSAGE(t.code == 0, t.err);
        const Json j = Json::parse(test::slurp(model));
        REQUIRE(j["preprocessing"].size() == 2);
        CHECK(j["preprocessing"][0]["type"] == "poly");
        CHECK(j["preprocessing"][0]["out_features"] == 9);
        CHECK(j["preprocessing"][1]["type"] == "standard");
        CHECK(j["features"]["count"] == 3);  // the file's columns: the expansion is inside the model
        auto p = run(run_predict, "kestrel-predict", {model, data, "--metrics", "--json"});
        REQUIRE_MESSAGE(p.code == 0, p.err);
        CHECK(Json::parse(p.out)["r2"].get<double>() > 0.999999);

        auto tree = run(run_train, "kestrel-train",
                        {"-m", "tree", "-p", "max_depth=1", "--poly", "2", data, "-o", dir / "t.json", "--dump-tree"});
        REQUIRE_MESSAGE(tree.code == 0, tree.err);
        CHECK(tree.out.find("a^2 <= ") != std::string::npos);
    }

    TEST_CASE("--poly in kestrel-cv and -g poly in kestrel-gridsearch") {
        test::ScratchDir dir("poly_search");
        const auto data = dir.file("q.csv", quadratic_csv());
        auto cv = run(run_cv, "kestrel-cv", {"-m", "ridge", "--poly", "2", "-k", "4", data, "--json"});
        REQUIRE_MESSAGE(cv.code == 0, cv.err);
        CHECK(Json::parse(cv.out)["metrics"]["r2"]["mean"].get<double>() > 0.99);

        const auto results = dir / "grid.csv";
        auto g = run(run_gridsearch, "kestrel-gridsearch",
                     {"-m", "ridge", "-g", "poly=1,2,3", "--scale", "standard", "-k", "4", data, "--results", results,
                      "-o", dir / "best.json", "--json"});
        REQUIRE_MESSAGE(g.code == 0, g.err);
        const Json best = Json::parse(test::slurp(dir / "best.json"));
        CHECK(best["preprocessing"][0]["type"] == "poly");
        CHECK(best["preprocessing"][1]["type"] == "standard");
        CHECK(best["preprocessing"][0]["degree"].get<int>() >= 2);
        CHECK(test::slurp(results).find("poly") != std::string::npos);

        // The options reach the axis; --poly and -g poly together are refused.
        auto io = run(run_gridsearch, "kestrel-gridsearch",
                      {"-m", "ridge", "-g", "poly=2", "--poly-interaction-only", "-k", "4", data, "-o",
                       dir / "io.json"});
        REQUIRE_MESSAGE(io.code == 0, io.err);
        const Json io_model = Json::parse(test::slurp(dir / "io.json"));
        CHECK(io_model["preprocessing"][0]["interaction_only"] == true);
        CHECK(io_model["preprocessing"][0]["out_features"] == 6);
        auto both = run(run_gridsearch, "kestrel-gridsearch", {"-m", "ridge", "-g", "poly=2", "--poly", "3", data});
        CHECK(both.code == 1);
        CHECK(both.err.find("--poly is also given") != std::string::npos);
    }

    TEST_CASE("a too-wide expansion and options without --poly are usage errors naming the flag") {
        test::ScratchDir dir("poly_errors");
        const auto data = dir.file("q.csv", quadratic_csv());
        auto wide = run(run_train, "kestrel-train",
                        {"-m", "ridge", "--poly", "3", "--max-poly-width", "10", data, "-o", dir / "m.json"});
        CHECK(wide.code == 1);
        CHECK(wide.err.find("19 columns, more than --max-poly-width 10") != std::string::npos);
        CHECK(wide.err.find('\n') == wide.err.size() - 1);  // one line
        CHECK(!std::filesystem::exists(dir / "m.json"));
        auto lone = run(run_train, "kestrel-train", {"-m", "ridge", "--poly-interaction-only", data, "-o", dir / "m.json"});
        CHECK(lone.code == 1);
        CHECK(lone.err.find("--poly-interaction-only applies to --poly") != std::string::npos);
        auto zero = run(run_train, "kestrel-train", {"-m", "ridge", "--poly", "0", data, "-o", dir / "m.json"});
        CHECK(zero.code == 1);
    }
}

}  // namespace cli_poly_cli_test
}  // namespace
