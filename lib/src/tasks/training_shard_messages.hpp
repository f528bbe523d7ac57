#pragma once
// The small messages the ranks of a sharded training read exchange (kestrel-train --shard) while they agree on what
// the data is as a whole (docs/distributed.md): every rank's numbers or words, in rank
// order, on every rank. Without a group (one process) each returns this rank's alone.
#include <string>
#include <vector>

#include "kestrel/core/process_group.hpp"

namespace kestrel::detail {

std::vector<std::vector<double>> gather_numbers(ProcessGroup* group, const std::vector<double>& mine);
// Words travel NUL-terminated: a word holds no NUL byte.
std::vector<std::vector<std::string>> gather_words(ProcessGroup* group, const std::vector<std::string>& mine);

}  // namespace kestrel::detail
