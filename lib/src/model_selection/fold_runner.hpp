#pragma once
// The parallel loop shared by cross_validate and grid_search: independent fits run
// under one OpenMP dynamic schedule, exceptions are kept per task (an exception must
// not leave an OpenMP region) and the first by task order is rethrown, so which
// error the user sees does not depend on scheduling either.
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"

namespace kestrel::detail {

// A fold's context: seed derived from the master seed and `stream`, one thread, and
// warnings serialized (the callback belongs to the caller and need not be thread-safe)
// and prefixed with `label` so the user can tell which fit they came from.
Context fold_context(const Context& ctx, std::uint64_t stream, const std::string& label,
                     const std::shared_ptr<std::mutex>& warn_mutex);

// Runs task(0..n-1) on ctx.resolved_threads() threads with nested parallelism off,
// reporting progress as `label`; rethrows the first failed task's exception.
void run_parallel(std::size_t n, const Context& ctx, const std::string& label,
                  const std::function<void(std::size_t)>& task);

}  // namespace kestrel::detail
