// Every command reads gzip, zstd, xz and bzip2 data, named or not, from a file or standard
// input: the same model and predictions as from the plain file; kestrel-predict streams
// them to the same bytes; the two-pass read of kestrel-cv --groups reads them twice; a
// truncated file is one line naming it and its compressed byte offset, exit 2, no output.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "cli/run_tool.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_compressed_input_cli_test {

using namespace kestrel::test;

namespace {
const std::string iris_train = repo_path("data/iris/train.csv");
const std::string iris_test = repo_path("data/iris/test.csv");

std::string q(const std::string& s) { return "'" + s + "'"; }

struct Tool {
    const char* name;
    const char* compress;  // a shell command from standard input to standard output
    const char* suffix;
};
const Tool kTools[] = {{"gzip", "gzip -c", ".gz"}, {"zstd", "zstd -q -c", ".zst"}, {"xz", "xz -c", ".xz"},
                       {"bzip2", "bzip2 -c", ".bz2"}};

// `path` compressed by `tool` into `out`.
std::string compressed(const Tool& tool, const std::string& path, const std::string& out) {
    REQUIRE(run_tool(std::string(tool.compress) + " < " + q(path) + " > " + q(out)).exit_code == 0);
    return out;
}
}  // namespace

TEST_SUITE("cli.compressed_input") {
    TEST_CASE("train and predict read every format as the plain file, from a file or standard input") {
        ScratchDir dir("compressed_cli");
        const auto plain_model = dir / "plain.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic " + q(iris_train) + " -o " + q(plain_model)).exit_code == 0);
        const ToolResult plain = run_tool("kestrel-predict --proba " + q(plain_model) + " " + q(iris_test));
        REQUIRE(plain.exit_code == 0);
        for (const Tool& t : kTools) {
            CAPTURE(t.name);
            const auto train = compressed(t, iris_train, dir / (std::string("train.csv") + t.suffix));
            const auto test = compressed(t, iris_test, dir / std::string("test.data"));  // no telling name
            const auto model = dir / (std::string(t.name) + ".json");
            REQUIRE(run_tool("kestrel-train -q -m logistic " + q(train) + " -o " + q(model)).exit_code == 0);
            const ToolResult from_file = run_tool("kestrel-predict --proba " + q(model) + " " + q(test));
            CHECK(from_file.exit_code == 0);
            CHECK(from_file.out == plain.out);
            const ToolResult from_stdin = run_tool("kestrel-predict --proba " + q(plain_model) + " - < " + q(test));
            CHECK(from_stdin.exit_code == 0);
            CHECK(from_stdin.out == plain.out);
            const ToolResult whole =
                run_tool("kestrel-predict --chunk-bytes 0 --proba " + q(plain_model) + " " + q(test));
            CHECK(whole.out == plain.out);
        }
    }

    TEST_CASE("kestrel-predict streams a .zst in small pieces to the plain file's bytes") {
        ScratchDir dir("compressed_stream");
        const auto model = dir / "m.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic " + q(iris_train) + " -o " + q(model)).exit_code == 0);
        std::string big = slurp(iris_test);
        const std::string body = big.substr(big.find('\n') + 1);
        for (int i = 0; i < 200; ++i) big += body;
        const auto plain = dir.file("big.csv", big);
        const auto zst = compressed(kTools[1], plain, dir / "big.csv.zst");
        const ToolResult a = run_tool("kestrel-predict --chunk-bytes 700 --proba " + q(model) + " " + q(plain));
        const ToolResult b = run_tool("kestrel-predict --chunk-bytes 700 --proba " + q(model) + " " + q(zst));
        REQUIRE(a.exit_code == 0);
        CHECK(b.exit_code == 0);
        CHECK(a.out == b.out);
    }

    TEST_CASE("kestrel-cv --groups reads a compressed file twice") {
        ScratchDir dir("compressed_groups");
        std::string text = "g,a,b,label\n";
        for (int i = 0; i < 120; ++i)
            text += std::to_string(i % 6) + "," + std::to_string(i % 7) + "," + std::to_string((i * 13) % 11) + "," +
                    std::to_string((i % 7 + (i * 13) % 11) > 8 ? 1 : 0) + "\n";
        const auto plain = dir.file("grouped.csv", text);
        const auto gz = compressed(kTools[0], plain, dir / "grouped.csv.gz");
        const ToolResult a = run_tool("kestrel-cv -m logistic --groups g -k 3 " + q(plain));
        const ToolResult b = run_tool("kestrel-cv -m logistic --groups g -k 3 " + q(gz));
        REQUIRE(a.exit_code == 0);
        CHECK(b.exit_code == 0);
        std::string b_out = b.out;  // the same report but for the file's name in its title
        const auto at = b_out.find(gz);
        REQUIRE(at != std::string::npos);
        b_out.replace(at, gz.size(), plain);
        CHECK(a.out == b_out);
    }

    TEST_CASE("a truncated or corrupt file: one line with the compressed byte offset, exit 2, nothing written") {
        ScratchDir dir("compressed_bad");
        const auto model = dir / "m.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic " + q(iris_train) + " -o " + q(model)).exit_code == 0);
        const auto zst = compressed(kTools[1], iris_test, dir / "test.csv.zst");
        const auto size = std::filesystem::file_size(zst);
        const auto cut = dir / "cut.csv.zst";
        REQUIRE(run_tool("head -c " + std::to_string(size / 2) + " " + q(zst) + " > " + q(cut)).exit_code == 0);
        const auto out = dir / "out.csv";
        const ToolResult r = run_tool("kestrel-predict " + q(model) + " " + q(cut) + " -o " + q(out));
        CHECK(r.exit_code == 2);
        CHECK(r.err == "kestrel-predict: " + cut + ": truncated zstd data: it ends at compressed byte " +
                           std::to_string(size / 2) + " inside a compressed stream\n");
        CHECK(!std::filesystem::exists(out));
        const auto model_out = dir / "cut.json";
        const ToolResult t = run_tool("kestrel-train -q -m logistic " + q(cut) + " -o " + q(model_out));
        CHECK(t.exit_code == 2);
        CHECK(!std::filesystem::exists(model_out));
        // Corrupt: the zstd checksum of the text (its last four bytes) damaged.
        const auto bad = dir / "bad.csv.zst";
        REQUIRE(run_tool("head -c " + std::to_string(size - 1) + " " + q(zst) + " > " + q(bad) +
                         " && printf '\\377' >> " + q(bad))
                    .exit_code == 0);
        const ToolResult c = run_tool("kestrel-predict " + q(model) + " " + q(bad) + " -o " + q(out));
        CHECK(c.exit_code == 2);
        CHECK(c.err.rfind("kestrel-predict: " + bad + ": corrupt zstd data at compressed byte ", 0) == 0);
        CHECK(std::count(c.err.begin(), c.err.end(), '\n') == 1);
        CHECK(!std::filesystem::exists(out));
    }
}

}  // namespace cli_compressed_input_cli_test
}  // namespace
