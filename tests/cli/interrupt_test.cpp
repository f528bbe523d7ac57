// Signals, end to end on the real executables: Ctrl-C (SIGINT) or SIGTERM during
// training ends the run with 128 + the signal, one line on stderr, and neither a
// model nor a temporary file left; a reader that goes away (`| head -1`) ends
// kestrel-predict quietly, even when the parent ignored SIGPIPE.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "cli/run_tool.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_interrupt_test {

using namespace kestrel::test;
namespace fs = std::filesystem;

namespace {

// A training run long enough to be interrupted at any speed (ASan builds included).
const std::string slow_train = "kestrel-train -m forest -p n_estimators=200000 --threads 2 '" +
                               repo_path("data/iris/train.csv") + "' -o ";

// Whether process `pid` has a handler installed for `sig` (SigCgt in /proc): until it
// has, a signal would meet the default action, not kestrel's handler.
bool catches(pid_t pid, int sig) {
    std::error_code ec;  // the shell that execs the tool must not be mistaken for it
    if (fs::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec).filename() != "kestrel-train") return false;
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("SigCgt:", 0) == 0) return (std::stoull(line.substr(7), nullptr, 16) >> (sig - 1)) & 1;
    return false;
}

int entries(const fs::path& dir) {
    return static_cast<int>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

void expect_interrupted_by(int sig, int expected_code) {
    ScratchDir dir("signal_" + std::to_string(sig));
    const auto out_dir = dir.path / "out";
    fs::create_directories(out_dir);
    const auto err = dir / "stderr.txt";
    RunningTool t = start_tool(slow_train + "'" + (out_dir / "model.json").string() + "'", "/dev/null", err);
    REQUIRE(t.pid > 0);
    // Started (however loaded the machine), then well into reading or training.
    for (int i = 0; i < 2000 && !catches(t.pid, sig); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    REQUIRE(catches(t.pid, sig));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(t.pid, sig);
    const auto start = std::chrono::steady_clock::now();
    CHECK(t.wait() == expected_code);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    CHECK(slurp(err) == "kestrel-train: interrupted\n");
    CHECK(entries(out_dir) == 0);  // no model, no .model.json.tmp.*
}

}  // namespace

TEST_SUITE("cli.signals") {
    TEST_CASE("SIGINT during training: exit 130, nothing written") { expect_interrupted_by(SIGINT, 130); }

    TEST_CASE("SIGTERM during training: exit 143, nothing written") { expect_interrupted_by(SIGTERM, 143); }

    TEST_CASE("a closed pipe on -o - ends predict quietly") {
        ScratchDir dir("sigpipe");
        const auto model = dir / "m.json";
        REQUIRE(run_tool("kestrel-train -q -m tree '" + repo_path("data/iris/train.csv") + "' -o '" + model + "'").exit_code == 0);
        // Predictions far larger than a pipe's buffer, so the writer must meet the closed pipe.
        std::string big = slurp(repo_path("data/iris/train.csv"));
        const std::string body = big.substr(big.find('\n') + 1);
        for (int i = 0; i < 200; ++i) big += body;
        const auto data = dir.file("big.csv", big);
        for (const std::string& parent : {std::string(), std::string("trap '' PIPE; ")}) {
            CAPTURE(parent);
            const auto rc_file = dir / "rc.txt";
            auto r = run_tool("sh -c \"" + parent + "{ kestrel-predict '" + model + "' '" + data + "' -o -; echo \\$? >'" +
                              rc_file + "'; } | head -1\"");
            CHECK(r.exit_code == 0);
            CHECK(r.out == "prediction\n");
            CHECK(r.err.empty());  // quiet: no "Broken pipe", no "cannot write"
            CHECK(slurp(rc_file) == "141\n");  // ended by SIGPIPE, as cat or grep would be
        }
    }
}

}  // namespace cli_interrupt_test
}  // namespace
