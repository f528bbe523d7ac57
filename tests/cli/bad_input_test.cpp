// Every bad input of the foundation issue: one line on stderr naming file:line (and
// column or field), the documented exit code, and no output file left behind.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "cli/run_tool.hpp"
#include "kestrel/core/params.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_bad_input_test {

using namespace kestrel::test;
namespace fs = std::filesystem;

namespace {

// Trains on `content` and expects failure: exit code, a message fragment, one line,
// and no model written.
void expect_train_error(const std::string& name, const std::string& content, int code, const std::string& fragment,
                        const std::string& extra = "") {
    ScratchDir dir("bad_" + name);
    const auto data = dir.file(name, content);
    const auto model = dir / "model.json";
    auto r = run_tool("kestrel-train -m logistic " + extra + " '" + data + "' -o '" + model + "'");
    CAPTURE(name);
    CAPTURE(r.err);
    CHECK(r.exit_code == code);
    CHECK(r.err.find(fragment) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(model));
    for (const auto& e : fs::directory_iterator(dir.path)) CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
}

const std::string iris_train = repo_path("data/iris/train.csv");

}  // namespace

TEST_SUITE("cli.bad_input") {
    TEST_CASE("data files") {
        expect_train_error("ragged.csv", "label,a,b\n0,1,2\n1,3\n", 2, "ragged.csv:3");
        expect_train_error("text.csv", "label,a,b\n0,1,2\n1,x7,4\n", 2, "text.csv:3:2", "--numeric a");
        expect_train_error("nan.csv", "label,a,b\n0,1,2\n1,NaN,4\n", 2, "nan.csv:3:2", "--missing error");
        expect_train_error("empty_cell.csv", "label,a,b\n0,1,\n1,3,4\n", 2, "empty_cell.csv:2:3", "--missing error");
        expect_train_error("inf.csv", "label,a,b\n0,1,inf\n1,3,4\n", 2, "inf.csv:2:3");
        expect_train_error("nolabel.csv", "y,a,b\n0,1,2\n1,3,4\n", 2, "nolabel.csv", "--label-col target");
        expect_train_error("index0.libsvm", "1 1:0.5\n-1 0:1 2:3\n", 2, "index0.libsvm:2");
        expect_train_error("order.libsvm", "1 1:0.5\n-1 3:1 2:3\n", 2, "order.libsvm:2");
        expect_train_error("malformed.libsvm", "1 1:0.5\n-1 2=3\n", 2, "malformed.libsvm:2");
        expect_train_error("empty.csv", "", 2, "empty.csv");
        expect_train_error("header_only.csv", "label,a,b\n", 2, "header_only.csv");
        expect_train_error("one_class.csv", "label,a\nx,1\nx,2\nx,3\n", 2, "needs at least two classes");
    }

    TEST_CASE("a file that does not exist") {
        auto r = run_tool("kestrel-train -m logistic /nonexistent/does_not_exist.csv -o /tmp/kestrel_never.json");
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("/nonexistent/does_not_exist.csv") != std::string::npos);
        CHECK_FALSE(fs::exists("/tmp/kestrel_never.json"));
    }

    TEST_CASE("missing values follow the chosen policy") {
        ScratchDir dir("missing_policy");
        const auto data = dir.file("m.csv", "label,a,b\n0,1,2\n1,NA,4\n0,1.5,2.5\n1,3,?\n0,0.5,1\n1,4,5\n");
        auto drop = run_tool("kestrel-train -m logistic --missing drop '" + data + "' -o '" + (dir / "d.json") + "'");
        CHECK(drop.exit_code == 0);
        CHECK(kestrel::Json::parse(slurp(dir / "d.json"))["provenance"]["rows"] == 4);
        auto mean = run_tool("kestrel-train -m logistic --missing mean '" + data + "' -o '" + (dir / "m.json") + "'");
        CHECK(mean.exit_code == 0);
        const auto j = kestrel::Json::parse(slurp(dir / "m.json"));
        CHECK(j["preprocessing"][0]["type"] == "impute");
        CHECK(j["preprocessing"][0]["strategy"] == "mean");
        CHECK(j["preprocessing"][0]["fill"][0].get<double>() == doctest::Approx((1 + 1.5 + 3 + 0.5 + 4) / 5.0));
        // The imputing model accepts missing cells at predict time too.
        auto p = run_tool("kestrel-predict '" + (dir / "m.json") + "' '" + data + "'");
        CHECK(p.exit_code == 0);
    }

    TEST_CASE("parameters and usage: exit 1") {
        ScratchDir dir("usage");
        auto unknown = run_tool("kestrel-train -m logistic -p gamma=1 '" + iris_train + "' -o '" + (dir / "m.json") + "'");
        CHECK(unknown.exit_code == 1);
        CHECK(unknown.err.find("unknown parameter 'gamma'") != std::string::npos);
        CHECK(unknown.err.find("valid: C") != std::string::npos);
        auto range = run_tool("kestrel-train -m logistic -p C=-1 '" + iris_train + "' -o '" + (dir / "m.json") + "'");
        CHECK(range.exit_code == 1);
        CHECK(range.err.find("C=-1") != std::string::npos);
        auto model = run_tool("kestrel-train -m svm_magic '" + iris_train + "' -o '" + (dir / "m.json") + "'");
        CHECK(model.exit_code == 1);
        CHECK(model.err.find("valid: ") != std::string::npos);
        CHECK(run_tool("kestrel-train --no-such-flag").exit_code == 1);
        CHECK(run_tool("kestrel-cv -m logistic -k 1 '" + iris_train + "'").exit_code == 1);
        CHECK(run_tool("kestrel-gridsearch -m logistic -g 'C=' '" + iris_train + "'").exit_code == 1);
        CHECK(run_tool("kestrel-cv -m logistic --metric r2 '" + iris_train + "'").exit_code == 1);
        CHECK_FALSE(fs::exists(dir / "m.json"));
    }

    TEST_CASE("model files and predict-time data") {
        ScratchDir dir("bad_model");
        const auto good = dir / "good.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic '" + iris_train + "' -o '" + good + "'").exit_code == 0);
        const std::string text = slurp(good);
        const auto truncated = dir.file("truncated.json", text.substr(0, text.size() / 2));
        auto t = run_tool("kestrel-predict '" + truncated + "' '" + iris_train + "'");
        CHECK(t.exit_code == 2);
        CHECK(t.err.find("truncated.json: model file is truncated") != std::string::npos);

        auto j = kestrel::Json::parse(text);
        j["version"] = 99;
        auto future = run_tool("kestrel-predict '" + dir.file("future.json", j.dump()) + "' '" + iris_train + "'");
        CHECK(future.exit_code == 2);
        CHECK(future.err.find("format version 99 is newer") != std::string::npos);
        j = kestrel::Json::parse(text);
        j["model"] = "mystery";
        auto unknown = run_tool("kestrel-predict '" + dir.file("unknown.json", j.dump()) + "' '" + iris_train + "'");
        CHECK(unknown.exit_code == 2);
        CHECK(unknown.err.find("unknown model 'mystery'") != std::string::npos);

        const auto narrow = dir.file("narrow.csv", "1,2,3\n4,5,6\n");
        auto mismatch = run_tool("kestrel-predict --no-header '" + good + "' '" + narrow + "'");
        CHECK(mismatch.exit_code == 2);
        CHECK(mismatch.err.find("3") != std::string::npos);
        CHECK(mismatch.err.find("4") != std::string::npos);
    }

    TEST_CASE("unwritable output: exit 2, nothing written") {
        auto r = run_tool("kestrel-train -m logistic '" + iris_train + "' -o /nonexistent-dir/model.json");
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("/nonexistent-dir/model.json") != std::string::npos);
        CHECK_FALSE(fs::exists("/nonexistent-dir/model.json"));
    }
}

}  // namespace cli_bad_input_test
}  // namespace
