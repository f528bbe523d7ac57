// The command bodies run in process, as library functions (no fork, no PATH): the
// same code paths as the binaries, with captured streams.
#include <doctest/doctest.h>

#include <omp.h>

#include <sstream>

#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "cli/run_in_process.hpp"
#include "kestrel/core/params.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_in_process_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::Captured;
using kestrel::test::run;

TEST_SUITE("cli.in_process") {
    TEST_CASE("train writes a model and predict reads it back") {
        test::ScratchDir dir("inproc");
        const auto model = dir / "m.json";
        auto t = run(run_train, "kestrel-train",
                     {"-m", "ridge", "-p", "alpha=2", test::repo_path("data/diabetes/train.csv"), "-o", model, "--json"});
        REQUIRE(t.code == 0);
        const auto summary = Json::parse(t.out);
        CHECK(summary["rows"] == 353);
        CHECK(summary["features"] == 10);
        auto p = run(run_predict, "kestrel-predict", {model, test::repo_path("data/diabetes/test.csv"), "--metrics", "--json"});
        REQUIRE(p.code == 0);
        CHECK(Json::parse(p.out).contains("rmse"));
    }

    TEST_CASE("--threads sizes OpenMP's default team in every command") {
        // The library's loops that take no thread count (a forest's prediction blocks,
        // trees written as text) use OpenMP's default team: --threads must hold there.
        const int before = omp_get_max_threads();
        test::ScratchDir dir("inproc_threads");
        const auto model = dir / "f.json";
        const std::string train = test::repo_path("data/iris/train.csv");
        for (const char* threads : {"1", "2"}) {
            CAPTURE(threads);
            omp_set_num_threads(7);
            REQUIRE(run(run_cv, "kestrel-cv", {"-m", "forest", "-p", "n_estimators=5", train, "--threads", threads, "-q"})
                        .code == 0);
            CHECK(omp_get_max_threads() == std::stoi(threads));
            omp_set_num_threads(7);
            REQUIRE(run(run_train, "kestrel-train",
                        {"-m", "forest", "-p", "n_estimators=5", train, "-o", model, "--threads", threads, "-q"})
                        .code == 0);
            CHECK(omp_get_max_threads() == std::stoi(threads));
            omp_set_num_threads(7);
            REQUIRE(run(run_predict, "kestrel-predict", {model, train, "-o", dir / "p.csv", "--threads", threads, "-q"})
                        .code == 0);
            CHECK(omp_get_max_threads() == std::stoi(threads));
        }
        omp_set_num_threads(before);
    }

    TEST_CASE("errors become one line and an exit code") {
        auto unknown = run(run_train, "kestrel-train", {"-m", "nope", "x.csv", "-o", "m.json"});
        CHECK(unknown.code == 1);
        CHECK(unknown.err.rfind("kestrel-train: unknown model 'nope' (valid: ", 0) == 0);
        CHECK(std::count(unknown.err.begin(), unknown.err.end(), '\n') == 1);
        auto no_output = run(run_train, "kestrel-train", {"-m", "ridge", "x.csv"});
        CHECK(no_output.code == 1);
        CHECK(no_output.err.find("-o MODEL.json is required") != std::string::npos);
        auto missing_file = run(run_cv, "kestrel-cv", {"-m", "ridge", "/nonexistent.csv"});
        CHECK(missing_file.code == 2);
        auto no_path = run(run_train, "kestrel-train", {"-m", "ridge", "x.csv", "-o", "m.json", "--path", "p.csv"});
        CHECK(no_path.code == 1);
        CHECK(no_path.err.find("--path: model ridge has no path output") != std::string::npos);
        auto help = run(run_cv, "kestrel-cv", {"--help"});
        CHECK(help.code == 0);
        CHECK(help.out.find("--repeat") != std::string::npos);
        using Body = int (*)(const std::vector<std::string>&, Io&);
        const std::pair<Body, std::string> tools[] = {{run_train, "kestrel-train"},
                                                      {run_predict, "kestrel-predict"},
                                                      {run_cv, "kestrel-cv"},
                                                      {run_gridsearch, "kestrel-gridsearch"},
                                                      {run_select, "kestrel-select"},
                                                      {run_explain, "kestrel-explain"},
                                                      {run_auto, "kestrel-auto"}};
        for (const auto& [body, name] : tools) {
            auto version = run(body, name, {"--version"});
            CHECK(version.code == 0);
            CHECK(version.out == name + " " + kestrel_version() + "\n");
        }
    }

    TEST_CASE("a task the model cannot do is a usage error") {
        auto r = run(run_train, "kestrel-train",
                     {"-m", "ridge", test::repo_path("data/iris/train.csv"), "-o", "/tmp/kestrel_never.json"});
        CHECK(r.code == 2);  // species names are not numbers: no regression target
        CHECK(r.err.find("regression target 'setosa' is not a finite number") != std::string::npos);
    }
}

}  // namespace cli_in_process_test
}  // namespace
