#pragma once
// Runs a command body (apps/common) in process, as a library function (no fork, no
// PATH), and captures its exit code, stdout and stderr.
#include <sstream>
#include <string>
#include <vector>

#include "common/commands.hpp"

namespace kestrel::test {

struct Captured {
    int code;
    std::string out, err;
};

inline Captured run(cli::Command body, const std::string& program, std::vector<std::string> args) {
    std::ostringstream out, err;
    cli::Io io{out, err, false};
    const int code = cli::run_command(program, body, args, io);
    return {code, out.str(), err.str()};
}

}  // namespace kestrel::test
