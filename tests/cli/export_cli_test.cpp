// kestrel-export in process: its flags, its refusals (exit 2, one line, nothing written) and
// the head of the ONNX file it writes. What the file computes is tested against ONNX Runtime
// by tests/exchange/onnx_runtime_test.py (ctest onnx_runtime).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "test_data.hpp"
#include "common/commands.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_export_cli_test {

using namespace kestrel;

namespace {

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_SUITE("cli.in_process") {
    TEST_CASE("kestrel-export --to onnx writes a ModelProto of IR version 8; refusals write nothing") {
        const test::ScratchDir dir("export");
        const std::string iris = test::repo_path("data/iris/train.csv");
        REQUIRE(test::run(cli::run_train, "kestrel-train", {"-q", "-m", "tree", iris, "-o", dir / "tree.json"}).code == 0);
        const auto ok = test::run(cli::run_export, "kestrel-export", {dir / "tree.json", "--to", "onnx", "-o", dir / "t.onnx"});
        REQUIRE(ok.code == 0);
        const std::string bytes = read_bytes(dir / "t.onnx");
        REQUIRE(bytes.size() > 100);
        CHECK(bytes.substr(0, 2) == std::string("\x08\x08", 2));  // field 1 (ir_version), varint 8
        CHECK(bytes.find("TreeEnsembleRegressor") != std::string::npos);
        CHECK(bytes.find("sepal_length") != std::string::npos);  // an input named after its column

        // A model without probabilities has none for ZipMap's maps.
        REQUIRE(test::run(cli::run_train, "kestrel-train", {"-q", "-m", "linear_svm", iris, "-o", dir / "svm.json"}).code ==
                0);
        const auto refused = test::run(cli::run_export, "kestrel-export",
                                       {dir / "svm.json", "--to", "onnx", "--zipmap", "-o", dir / "s.onnx"});
        CHECK(refused.code == 2);
        CHECK(refused.err.find("ONNX export: model linear_svm gives no probabilities for ZipMap") != std::string::npos);
        CHECK(std::count(refused.err.begin(), refused.err.end(), '\n') == 1);
        CHECK_FALSE(std::filesystem::exists(dir / "s.onnx"));

        const auto no_format = test::run(cli::run_export, "kestrel-export", {dir / "tree.json", "-o", dir / "x.onnx"});
        CHECK(no_format.code == 1);
        const auto zipmap = test::run(cli::run_export, "kestrel-export",
                                      {dir / "tree.json", "--to", "xgboost-json", "--zipmap", "-o", dir / "x.json"});
        CHECK(zipmap.code == 1);
        CHECK(zipmap.err.find("--zipmap") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(dir / "x.json"));
    }
}

}  // namespace cli_export_cli_test
}  // namespace
