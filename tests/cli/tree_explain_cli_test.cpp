// kestrel-predict --explain: each row's decision path in the rendering of
// kestrel-train --dump-tree; tree models only, predictions to a file.
#include <doctest/doctest.h>

#include <sstream>
#include <vector>

#include "cli/run_tool.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_tree_explain_cli_test {

using namespace kestrel::test;

namespace {
const std::string iris_train = repo_path("data/iris/train.csv");
const std::string iris_test = repo_path("data/iris/test.csv");
const std::string heart_train = repo_path("data/heart_scale/train.libsvm");
const std::string heart_test = repo_path("data/heart_scale/test.libsvm");

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}
bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}
}  // namespace

TEST_SUITE("cli.tree") {
    TEST_CASE("explain: a tree's path per row, leaves as --dump-tree renders them") {
        ScratchDir dir("tree_explain");
        const auto model = dir / "tree.json";
        auto t = run_tool("kestrel-train -m tree -p max_depth=2 '" + iris_train + "' -o '" + model + "' --dump-tree");
        REQUIRE(t.exit_code == 0);
        const std::string dump = t.out;
        auto p =
            run_tool("kestrel-predict '" + model + "' '" + iris_test + "' -o '" + (dir / "pred.csv") + "' --explain");
        REQUIRE(p.exit_code == 0);
        const auto out = lines(p.out);
        const auto preds = lines(slurp(dir / "pred.csv"));
        std::size_t rows = 0, leaves = 0;
        for (const auto& l : out) {
            if (l.rfind("row ", 0) == 0) {
                ++rows;
                // "row N: predicted LABEL" agrees with the predictions file.
                CHECK(l == "row " + std::to_string(rows) + ": predicted " + preds[rows]);
            } else if (l.rfind("  leaf ", 0) == 0) {
                ++leaves;
                // The leaf line is the dump's leaf line: "leaf K: class: ... (samples=..)".
                const std::string leaf = l.substr(l.find(": ") + 2);
                CHECK(has(dump, "|--- " + leaf));
            } else {
                // A split taken: "  FEATURE = VALUE <= THRESHOLD -> left" (or "> ... -> right").
                CHECK(l.rfind("  petal_", 0) == 0);
                CHECK((has(l, " <= ") && has(l, "-> left")) != (has(l, " >  ") && has(l, "-> right")));
            }
        }
        CHECK(rows == preds.size() - 1);
        CHECK(leaves == rows);
    }

    TEST_CASE("explain: forest on sparse LIBSVM data, every tree; errors for other models and stdout") {
        ScratchDir dir("tree_explain_forest");
        const auto model = dir / "forest.json";
        REQUIRE(run_tool("kestrel-train -m forest -p n_estimators=3 -p max_depth=3 '" + heart_train + "' -o '" + model +
                         "'")
                    .exit_code == 0);
        auto p =
            run_tool("kestrel-predict '" + model + "' '" + heart_test + "' -o '" + (dir / "p.csv") + "' --explain");
        REQUIRE(p.exit_code == 0);
        CHECK(has(p.out, "row 1: predicted "));
        CHECK(has(p.out, "  tree 0:\n    x"));
        CHECK(has(p.out, "  tree 2:\n"));

        auto to_stdout = run_tool("kestrel-predict '" + model + "' '" + heart_test + "' --explain");
        CHECK(to_stdout.exit_code == 1);
        CHECK(has(to_stdout.err, "--explain prints to stdout"));

        const auto linear = dir / "logistic.json";
        REQUIRE(run_tool("kestrel-train -m logistic '" + heart_train + "' -o '" + linear + "'").exit_code == 0);
        auto not_tree =
            run_tool("kestrel-predict '" + linear + "' '" + heart_test + "' -o '" + (dir / "q.csv") + "' --explain");
        CHECK(not_tree.exit_code == 1);
        CHECK(has(not_tree.err, "not a tree model (valid: adaboost, forest, tree)"));
    }
}  // TEST_SUITE

}  // namespace cli_tree_explain_cli_test
}  // namespace
