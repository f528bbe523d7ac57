#pragma once
// Runs an executable as a user would and captures its exit code, stdout and stderr.
#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "test_data.hpp"

namespace kestrel::test {

struct ToolResult {
    int exit_code = -1;
    std::string out, err;
};

inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// `command` is a shell command line; tool names like kestrel-train are resolved
// against the build's apps/ directory by putting it first on PATH.
inline ToolResult run_tool(const std::string& command) {
    static int counter = 0;
    const auto dir = std::filesystem::temp_directory_path();
    const std::string err_path = (dir / ("kestrel_cli_err_" + std::to_string(::getpid()) + "_" + std::to_string(counter++))).string();
    const std::string full = "PATH='" + std::string(KESTREL_BIN_DIR) + "':\"$PATH\" " + command + " 2>'" + err_path + "'";
    ToolResult r;
    FILE* pipe = ::popen(full.c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buf{};
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
    const int status = ::pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = slurp(err_path);
    std::filesystem::remove(err_path);
    return r;
}

// A tool started in the background, to be signalled while it runs. `command` is
// run by `sh -c 'exec ...'` so the pid is the tool's own; stdout and stderr go to
// the files given (or /dev/null).
struct RunningTool {
    pid_t pid = -1;
    RunningTool() = default;
    RunningTool(const RunningTool&) = delete;
    RunningTool& operator=(const RunningTool&) = delete;
    RunningTool(RunningTool&& o) noexcept : pid(o.pid) { o.pid = -1; }
    // A test that stops early never leaves the tool running.
    ~RunningTool() {
        if (pid > 0) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
    }
    // Waits for the end: the exit code, or 128 + the signal that ended it (as a shell
    // reports it, so SIGPIPE reads 141).
    int wait() {
        int status = 0;
        if (pid <= 0 || ::waitpid(pid, &status, 0) != pid) return -1;
        pid = -1;
        if (WIFEXITED(status)) return WEXITSTATUS(status);
        if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
        return -1;
    }
};

inline RunningTool start_tool(const std::string& command, const std::string& out_path = "/dev/null",
                              const std::string& err_path = "/dev/null") {
    const std::string full = "PATH='" + std::string(KESTREL_BIN_DIR) + "':\"$PATH\" exec " + command + " >'" +
                             out_path + "' 2>'" + err_path + "'";
    RunningTool t;
    t.pid = ::fork();
    if (t.pid == 0) {
        // The test runner may catch or ignore signals; the tool starts with the defaults.
        for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) ::signal(sig, SIG_DFL);
        ::execl("/bin/sh", "sh", "-c", full.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    return t;
}

// A scratch directory for one test, removed at the end of scope.
// Pins the date a saved model records (SOURCE_DATE_EPOCH=0) while in scope, for tests that
// compare the bytes of models saved at different moments in process; restores it after.
struct PinnedDate {
    std::optional<std::string> before;
    PinnedDate() {
        if (const char* v = std::getenv("SOURCE_DATE_EPOCH")) before = v;
        ::setenv("SOURCE_DATE_EPOCH", "0", 1);
    }
    ~PinnedDate() {
        if (before) ::setenv("SOURCE_DATE_EPOCH", before->c_str(), 1);
        else ::unsetenv("SOURCE_DATE_EPOCH");
    }
    PinnedDate(const PinnedDate&) = delete;
    PinnedDate& operator=(const PinnedDate&) = delete;
};

struct ScratchDir {
    std::filesystem::path path;
    explicit ScratchDir(const std::string& name)
        : path(std::filesystem::temp_directory_path() / ("kestrel_" + name + "_" + std::to_string(::getpid()))) {
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~ScratchDir() { std::filesystem::remove_all(path); }
    std::string file(const std::string& name, const std::string& content = "") const {
        const auto p = (path / name).string();
        if (!content.empty()) std::ofstream(p, std::ios::binary) << content;
        return p;
    }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

}  // namespace kestrel::test
