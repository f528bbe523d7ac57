// Flag errors read alike across commands: one short line, the documented exit code.
#include <doctest/doctest.h>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "common/commands.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_flag_errors_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::run;

TEST_SUITE("cli.flags") {
    TEST_CASE("--threads -1 is a one-line usage error, not CLI11's 300-digit range") {
        const auto data = test::repo_path("data/iris/train.csv");
        for (const char* bad : {"-1", "two", "1.5"}) {
            CAPTURE(bad);
            auto r = run(run_cv, "kestrel-cv", {"-m", "logistic", "--threads", bad, data});
            CHECK(r.code == 1);
            CHECK(r.err.find(std::string(bad) + " is not 0 (all cores) or a number of threads from 1 to 1024") !=
                  std::string::npos);
            CHECK(r.err.size() < 160);
            CHECK(r.err.find('\n') == r.err.size() - 1);
        }
        auto ok = run(run_cv, "kestrel-cv", {"-m", "logistic", "--threads", "0", data, "--json"});
        CHECK(ok.code == 0);
    }

    TEST_CASE("--missing with a value of no list is refused by every command that reads data, scoring included") {
        const test::ScratchDir dir("missing_flag");
        const auto train = test::repo_path("data/iris/train.csv"), rows = test::repo_path("data/iris/test.csv");
        const std::string model = dir / "m.json";
        REQUIRE(run(run_train, "kestrel-train", {"-q", "-m", "logistic", train, "-o", model}).code == 0);
        const std::string message =
            ": --missing: 'bogus' is not one of auto, keep, error, drop, mean, median, most_frequent, constant:VALUE\n";
        const auto train_run = run(run_train, "kestrel-train", {"-m", "logistic", "--missing", "bogus", train, "-o", model});
        CHECK(train_run.code == 1);
        CHECK(train_run.err == "kestrel-train" + message);
        const auto predict_run = run(run_predict, "kestrel-predict", {"--missing", "bogus", model, rows});
        CHECK(predict_run.code == 1);
        CHECK(predict_run.err == "kestrel-predict" + message);
        CHECK(predict_run.out.empty());
    }
}

}  // namespace cli_flag_errors_test
}  // namespace
