// kestrel-train --kernel-info, in process.
#include <doctest/doctest.h>

#include <sstream>

#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "kestrel/core/params.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_kernel_info_test {

using namespace kestrel;
using namespace kestrel::cli;

namespace {

struct Captured {
    int code;
    std::string out, err;
};

Captured train(std::vector<std::string> args) {
    std::ostringstream out, err;
    Io io{out, err, false};
    const int code = run_command("kestrel-train", run_train, args, io);
    return {code, out.str(), err.str()};
}

}  // namespace

TEST_SUITE("cli.in_process") {
    TEST_CASE("train --kernel-info prints the kernel diagnostics instead of training") {
        const std::string data = test::repo_path("data/diabetes/train.csv");
        auto t = train({"-m", "kernel_ridge", "-p", "gamma=median", "--scale", "standard", "--kernel-info", data, "--json"});
        REQUIRE(t.code == 0);
        const Json j = Json::parse(t.out);
        CHECK(j["rows"] == 353);
        CHECK(j["sample_rows"] == 353);
        CHECK(j["leading_eigenvalues"].size() == 10);
        CHECK(j["warnings"].empty());
        // gamma=median resolves to the heuristic's gamma, which the report also prints.
        CHECK(j["resolved"].get<std::string>().find("rbf(gamma=") == 0);
        const double g = std::stod(j["resolved"].get<std::string>().substr(10));
        CHECK(g == doctest::Approx(j["median_gamma"].get<double>()).epsilon(1e-12));

        auto narrow = train({"-m", "svc", "-p", "gamma=1e6", "--kernel-info", data});
        REQUIRE(narrow.code == 0);
        CHECK(narrow.out.find("warning: K is close to the identity") != std::string::npos);
        auto wide = train({"-m", "kernel_logistic", "-p", "gamma=1e-9", "--kernel-info",
                           test::repo_path("data/iris/train.csv")});
        REQUIRE(wide.code == 0);
        CHECK(wide.out.find("warning: K is close to a constant matrix") != std::string::npos);

        auto no_kernel = train({"-m", "ridge", "--kernel-info", data});
        CHECK(no_kernel.code == 1);
    }
}

}  // namespace cli_kernel_info_test
}  // namespace
