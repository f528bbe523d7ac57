#pragma once
// Independent jobs spread over the ranks of a process group (docs/distributed.md).
// Every rank calls run_across_ranks with the same job count, in the same order of calls:
// each command runs the same deterministic driver on every rank, and only its loops of
// independent fits are shared out. Jobs are handed out one at a time on demand (a slow
// grid point does not idle the rest), and every rank gets every job's result back, so
// the driver goes on identically everywhere.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"

namespace kestrel::detail {

// A job's result as bytes (the caller encodes and decodes it).
using JobBytes = std::vector<std::byte>;

// Whether run_across_ranks applies here: the process is one of several, and this thread
// is not already running one of the shared-out jobs (a nested search runs locally).
bool share_jobs_across_ranks();

// Runs job(0..n-1) over the group, each rank on ctx.resolved_threads() threads, rank 0
// reporting progress as `label`. Returns every job's bytes on every rank; when jobs fail,
// every rank throws the error of the first failed job by index, as the one-process loop.
std::vector<JobBytes> run_across_ranks(std::size_t n, const Context& ctx, const std::string& label,
                                       const std::function<JobBytes(std::size_t)>& job);

}  // namespace kestrel::detail
