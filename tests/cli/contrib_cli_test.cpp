// kestrel-predict --contrib (docs/explanations.md): one column per input column and
// `bias` (CLASS:feature per class for several outputs), summing to the raw output the
// other columns show; refusals are one line and exit 1 (usage errors). Streaming identity:
// predict_stream_test.cpp.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/run_tool.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_contrib_cli_test {

using namespace kestrel::test;

namespace {
const std::string iris_train = repo_path("data/iris/train.csv");
const std::string iris_test = repo_path("data/iris/test.csv");
const std::string diabetes_train = repo_path("data/diabetes/train.csv");
const std::string diabetes_test = repo_path("data/diabetes/test.csv");

std::vector<std::vector<std::string>> csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> r;
        std::istringstream fields(line);
        for (std::string f; std::getline(fields, f, ',');) r.push_back(f);
        rows.push_back(r);
    }
    return rows;
}
}  // namespace

TEST_SUITE("cli.contrib") {
    TEST_CASE("--contrib: gbdt regression, contributions summing to the prediction") {
        ScratchDir dir("contrib_gbdt");
        const auto model = dir / "gbdt.json";
        REQUIRE(run_tool("kestrel-train -q -m gbdt -p n_estimators=20 '" + diabetes_train + "' -o '" + model + "'")
                    .exit_code == 0);
        const auto p = run_tool("kestrel-predict '" + model + "' '" + diabetes_test + "' --contrib");
        REQUIRE(p.exit_code == 0);
        const auto rows = csv(p.out);
        REQUIRE(rows.size() > 10);
        CHECK(rows[0] == std::vector<std::string>{"prediction", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9",
                                                  "f10", "bias"});
        for (std::size_t i = 1; i < rows.size(); ++i) {
            double sum = 0;
            for (std::size_t j = 1; j < rows[i].size(); ++j) sum += std::stod(rows[i][j]);
            CHECK(sum == doctest::Approx(std::stod(rows[i][0])).epsilon(1e-9));
        }
    }

    TEST_CASE("--contrib: a forest's class probabilities, one block per class") {
        ScratchDir dir("contrib_forest");
        const auto model = dir / "forest.json";
        REQUIRE(run_tool("kestrel-train -q -m forest -p n_estimators=10 '" + iris_train + "' -o '" + model + "'")
                    .exit_code == 0);
        const auto p = run_tool("kestrel-predict '" + model + "' '" + iris_test + "' --proba --contrib");
        REQUIRE(p.exit_code == 0);
        const auto rows = csv(p.out);
        REQUIRE(rows[0].size() == 1 + 3 + 3 * 5);
        CHECK(rows[0][4] == "setosa:sepal_length");
        CHECK(rows[0][8] == "setosa:bias");
        CHECK(rows[0][18] == "virginica:bias");
        for (std::size_t i = 1; i < rows.size(); ++i)
            for (std::size_t c = 0; c < 3; ++c) {
                double sum = 0;
                for (std::size_t j = 0; j < 5; ++j) sum += std::stod(rows[i][4 + 5 * c + j]);
                CHECK(sum == doctest::Approx(std::stod(rows[i][1 + c])).epsilon(1e-9));
            }
    }

    TEST_CASE("--contrib refusals: models without contributions, steps that mix columns") {
        ScratchDir dir("contrib_refused");
        const auto svc = dir / "svc.json", poly = dir / "poly.json";
        REQUIRE(run_tool("kestrel-train -q -m svc '" + iris_train + "' -o '" + svc + "'").exit_code == 0);
        REQUIRE(run_tool("kestrel-train -q -m tree --poly 2 '" + iris_train + "' -o '" + poly + "'").exit_code == 0);
        const auto a = run_tool("kestrel-predict '" + svc + "' '" + iris_test + "' --contrib");
        CHECK(a.exit_code == 1);  // a usage error
        CHECK(a.out.empty());
        CHECK(a.err.find("gives no feature contributions") != std::string::npos);
        const auto b = run_tool("kestrel-predict '" + poly + "' '" + iris_test + "' --contrib");
        CHECK(b.exit_code == 1);
        CHECK(b.err.find("'poly'") != std::string::npos);
    }
}

}  // namespace cli_contrib_cli_test
}  // namespace
