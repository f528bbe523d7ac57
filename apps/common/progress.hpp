#pragma once
// A one-line progress indicator on stderr, redrawn in place with '\r'. Only used
// when stderr is a terminal and neither --quiet nor --json is given.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

namespace kestrel::cli {

std::function<void(const std::string&, std::uint64_t, std::uint64_t)> make_progress_reporter(std::ostream& err);

}  // namespace kestrel::cli
