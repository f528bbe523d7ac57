#pragma once
// kestrel-auto's printing of a run (kestrel/tasks/auto_task.hpp): the leaderboard and the
// choice as text, and the --report file (Markdown, with the best score against time
// plotted beside it as SVG). The JSON is the library's (kestrel/tasks/auto_json.hpp).
#include <cstdint>
#include <string>

#include "common/cli.hpp"
#include "kestrel/tasks/auto_task.hpp"

namespace kestrel::cli {

// The leaderboard and the choice, as kestrel-auto prints them without --json.
std::string auto_leaderboard_text(const AutoRun& run, std::uint64_t seed);

// Writes the report to `path` and its plot beside it (report.md -> report.svg). `input`,
// `data` and `encode` spell the kestrel-train line that refits the choice.
void write_auto_report(const std::string& path, const AutoRun& run, const std::string& input, std::uint64_t seed,
                       const DataFlags& data, const std::string& encode);

}  // namespace kestrel::cli
