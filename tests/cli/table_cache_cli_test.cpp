// --cache FILE from the command line: kestrel-train writes the parsed table, a second run
// reads it (the same model bytes), kestrel-cv and kestrel-predict read theirs; a changed data
// file rebuilds it with one warning line (none under -q); standard input is refused (exit 1).
#include <doctest/doctest.h>

#include <filesystem>

#include "cli/run_tool.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_table_cache_cli_test {

using namespace kestrel::test;

namespace {
const std::string iris_train = repo_path("data/iris/train.csv");
const std::string iris_test = repo_path("data/iris/test.csv");
std::string q(const std::string& s) { return "'" + s + "'"; }
}  // namespace

TEST_SUITE("cli.table_cache") {
    TEST_CASE("kestrel-train writes the cache, then reads it: the same model") {
        ScratchDir dir("table_cache_cli");
        const PinnedDate pinned;  // three runs compared byte for byte may straddle a second
        const auto data = dir.file("train.csv", slurp(iris_train));
        const auto cache = dir / "train.cache";
        const auto plain = run_tool("kestrel-train -q -m logistic " + q(data) + " -o " + q(dir / "plain.json"));
        REQUIRE(plain.exit_code == 0);
        const auto first = run_tool("kestrel-train -m logistic --cache " + q(cache) + " " + q(data) + " -o " +
                                    q(dir / "a.json"));
        REQUIRE_MESSAGE(first.exit_code == 0, first.err);
        CHECK(first.err.find("warning") == std::string::npos);
        CHECK(slurp(cache).substr(0, 8) == "KSTRLTAB");
        const auto second = run_tool("kestrel-train -m logistic --cache " + q(cache) + " " + q(data) + " -o " +
                                     q(dir / "b.json"));
        REQUIRE_MESSAGE(second.exit_code == 0, second.err);
        CHECK(second.err.find("warning") == std::string::npos);
        // Models are byte-identical run to run: the cached table trains the plain read's model.
        CHECK(slurp(dir / "a.json") == slurp(dir / "plain.json"));
        CHECK(slurp(dir / "b.json") == slurp(dir / "plain.json"));
        const auto cv1 = run_tool("kestrel-cv -q -m logistic -k 3 --cache " + q(dir / "cv.cache") + " " + q(data));
        const auto cv2 = run_tool("kestrel-cv -q -m logistic -k 3 --cache " + q(dir / "cv.cache") + " " + q(data));
        REQUIRE(cv1.exit_code == 0);
        CHECK(cv2.out == cv1.out);
        const auto test = dir.file("test.csv", slurp(iris_test));
        const auto p0 = run_tool("kestrel-predict --proba " + q(dir / "plain.json") + " " + q(test));
        const auto p1 = run_tool("kestrel-predict --proba --cache " + q(dir / "t.cache") + " " + q(dir / "plain.json") +
                                 " " + q(test));
        const auto p2 = run_tool("kestrel-predict --proba --cache " + q(dir / "t.cache") + " " + q(dir / "plain.json") +
                                 " " + q(test));
        REQUIRE(p0.exit_code == 0);
        CHECK(p1.out == p0.out);
        CHECK(p2.out == p0.out);
        CHECK(std::filesystem::exists(dir / "t.cache"));
    }

    TEST_CASE("a changed data file rebuilds the cache with one warning; -q prints none; stdin is refused") {
        ScratchDir dir("table_cache_cli_stale");
        const auto data = dir.file("train.csv", slurp(iris_train));
        const auto cache = dir / "c.bin";
        REQUIRE(run_tool("kestrel-train -q -m logistic --cache " + q(cache) + " " + q(data) + " -o " + q(dir / "m.json"))
                    .exit_code == 0);
        {
            std::string text = slurp(iris_train);
            text += text.substr(text.find('\n') + 1, text.find('\n', text.find('\n') + 1) - text.find('\n'));
            dir.file("train.csv", text);
        }
        const auto t = run_tool("kestrel-train -m logistic --cache " + q(cache) + " " + q(data) + " -o " + q(dir / "m.json"));
        REQUIRE_MESSAGE(t.exit_code == 0, t.err);
        CHECK(t.err.find("warning: " + cache + ": rebuilt from " + data + ": its input changed since it was written\n") !=
              std::string::npos);
        std::filesystem::last_write_time(data, std::filesystem::last_write_time(data) + std::chrono::seconds(3));
        const auto quiet =
            run_tool("kestrel-train -q -m logistic --cache " + q(cache) + " " + q(data) + " -o " + q(dir / "m.json"));
        CHECK(quiet.exit_code == 0);
        CHECK(quiet.err.empty());
        const auto in =
            run_tool("kestrel-train -q -m logistic --cache " + q(cache) + " -o " + q(dir / "s.json") + " - < " + q(data));
        CHECK(in.exit_code == 1);
        CHECK(in.err == "kestrel-train: <stdin>: --cache keeps the table of a file; standard input and pipes are read "
                        "once\n");
    }
}

}  // namespace cli_table_cache_cli_test
}  // namespace
