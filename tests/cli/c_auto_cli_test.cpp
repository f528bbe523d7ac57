// kestrel-train -p C=auto: the chosen C and its path in the output, as gridsearch reports.
#include <doctest/doctest.h>

#include <sstream>

#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "kestrel/core/params.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_c_auto_cli_test {

using namespace kestrel;
using namespace kestrel::cli;

TEST_SUITE("cli.c_auto") {
    TEST_CASE("kestrel-train -p C=auto reports the C path on stderr and in --json") {
        test::ScratchDir dir("c_auto");
        const auto model = dir / "m.json";
        const std::string data = test::repo_path("data/heart_scale/train.libsvm");
        std::ostringstream out, err;
        Io io{out, err, false};
        REQUIRE(run_command("kestrel-train", run_train, {"-m", "logistic", "-p", "C=auto", data, "-o", model, "--json"},
                            io) == 0);
        const Json j = Json::parse(out.str());
        REQUIRE(j.contains("c_search"));
        CHECK(j["c_search"]["metric"] == "accuracy");
        CHECK(j["c_search"]["path"].size() >= 2);
        const double best = j["c_search"]["best_C"].get<double>();
        bool listed = false;
        for (const auto& step : j["c_search"]["path"]) listed = listed || step["C"].get<double>() == best;
        CHECK(listed);

        std::ostringstream out2, err2;
        Io io2{out2, err2, false};
        REQUIRE(run_command("kestrel-train", run_train,
                            {"-m", "linear_svm", "-p", "C=auto", "-p", "solver=primal", data, "-o", model}, io2) == 0);
        CHECK(err2.str().find("C=auto: 5-fold CV accuracy") != std::string::npos);
        CHECK(err2.str().find("<- chosen") != std::string::npos);
        // Without C=auto: no search in the output.
        std::ostringstream out3, err3;
        Io io3{out3, err3, false};
        REQUIRE(run_command("kestrel-train", run_train, {"-m", "logistic", data, "-o", model, "--json"}, io3) == 0);
        CHECK_FALSE(Json::parse(out3.str()).contains("c_search"));
    }
}

}  // namespace cli_c_auto_cli_test
}  // namespace
