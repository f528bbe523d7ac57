// kestrel-train -m gbdt with monotone and interaction constraints by column name
// (docs/models/gbdt.md, "Constraints"): the model trains and predicts; an unknown name, a
// constraint on a string (categorical) column and bad syntax are parameter errors, exit 1,
// on one line naming the parameter.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_tool.hpp"
#include "kestrel/core/json_text.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_constraints_cli_test {

using namespace kestrel;
using namespace kestrel::test;

namespace {

// price rises with size and falls with age; colour is a string (categorical) column.
std::string houses_csv(int n) {
    Rng rng(23);
    std::ostringstream s;
    s << "price,size,age,colour\n";
    const char* colours[] = {"red", "green", "blue"};
    for (int i = 0; i < n; ++i) {
        const double size = 50 + 100 * rng.uniform(), age = 40 * rng.uniform();
        s << 2 * size - age + 10 * rng.normal() << ',' << size << ',' << age << ',' << colours[i % 3] << '\n';
    }
    return s.str();
}

int lines(const std::string& text) {
    int k = 0;
    for (char c : text) k += c == '\n';
    return k;
}

}  // namespace

TEST_SUITE("cli.constraints") {
    TEST_CASE("gbdt constraints by column name: train, predict, and one-line parameter errors") {
        ScratchDir dir("constraints");
        const auto data = dir.file("houses.csv", houses_csv(300));
        const auto model = dir / "houses.json";
        const std::string train = "kestrel-train -q -m gbdt -p n_estimators=20 ";
        const auto t = run_tool(train + "-p monotone_constraints=size:1,age:-1 -p 'interaction_constraints=[[size,age]]' '" +
                                data + "' -o '" + model + "'");
        REQUIRE(t.exit_code == 0);
        const auto p = run_tool("kestrel-predict '" + model + "' '" + data + "'");
        CHECK(p.exit_code == 0);
        CHECK(lines(p.out) == 301);

        const auto run_bad = [&](const std::string& param) {
            return run_tool(train + "-p '" + param + "' '" + data + "' -o '" + (dir / "bad.json") + "'");
        };
        const auto unknown = run_bad("monotone_constraints=size:1,weight:-1");
        CHECK(unknown.exit_code == 1);
        CHECK(lines(unknown.err) == 1);
        CHECK(unknown.err.find("monotone_constraints=size:1,weight:-1 of model gbdt: no feature column is named 'weight'") !=
              std::string::npos);
        const auto categorical = run_bad("monotone_constraints=colour:1");
        CHECK(categorical.exit_code == 1);
        CHECK(categorical.err.find("colour) is categorical") != std::string::npos);
        const auto syntax = run_bad("monotone_constraints=(1,2)");
        CHECK(syntax.exit_code == 1);
        CHECK(syntax.err.find("entry '2' is not 1, 0 or -1") != std::string::npos);
        const auto range = run_bad("interaction_constraints=[[0,3]]");
        CHECK(range.exit_code == 1);
        CHECK(range.err.find("feature index 3 is out of range (0..2)") != std::string::npos);
    }

    TEST_CASE("kestrel-gridsearch -g over constraint values: parentheses, brackets and braces keep a value whole") {
        ScratchDir dir("constraints_grid");
        const auto data = dir.file("houses.csv", houses_csv(200));
        const auto g = run_tool("kestrel-gridsearch -m gbdt -p n_estimators=10 -k 3 --json "
                                "-g 'monotone_constraints=(1,-1,0),{size:1,age:-1},{size:1}' "
                                "-g 'interaction_constraints=[[size,age]],[]' '" +
                                data + "' --results '" + (dir / "r.csv") + "' -o '" + (dir / "best.json") + "'");
        REQUIRE_MESSAGE(g.exit_code == 0, g.err);
        const Json j = Json::parse(g.out);
        REQUIRE(j["points"].size() == 6);
        std::vector<std::string> seen;
        for (const Json& p : j["points"])
            seen.push_back(p["params"]["monotone_constraints"].get<std::string>() + " " +
                           p["params"]["interaction_constraints"].get<std::string>());
        std::sort(seen.begin(), seen.end());  // the points come best first
        CHECK(seen == std::vector<std::string>{"(1,-1,0) [[size,age]]", "(1,-1,0) []", "size:1 [[size,age]]", "size:1 []",
                                               "size:1,age:-1 [[size,age]]", "size:1,age:-1 []"});
        // The results file quotes the values holding commas (RFC 4180): one row per point.
        CHECK(lines(slurp(dir / "r.csv")) == 7);
        CHECK(slurp(dir / "r.csv").find("\"size:1,age:-1\"") != std::string::npos);
        // Without braces the name:sign list reads as a range: one line saying what to write.
        const auto bare = run_tool("kestrel-gridsearch -m gbdt -g 'monotone_constraints=size:1,age:-1' '" + data + "'");
        CHECK(bare.exit_code == 1);
        CHECK(lines(bare.err) == 1);
        CHECK(bare.err.find("goes in braces: {price:-1,age:1}") != std::string::npos);
    }
}

}  // namespace cli_constraints_cli_test
}  // namespace
