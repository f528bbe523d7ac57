#pragma once
// Everything a fit needs besides data and hyperparameters: the master seed, the
// thread budget and where to report warnings and progress. The library never
// prints: it hands messages to these callbacks and the executables decide.
#include <cstdint>
#include <functional>
#include <string>

namespace kestrel {

struct Context {
    std::uint64_t seed = 1;
    int threads = 0;  // 0 = all cores (omp_get_num_procs)

    // Warnings (non-convergence, numerical guards). Default: discarded.
    std::function<void(const std::string&)> warn;
    // Progress of long work: done out of total units, and a short label.
    // Only set by the executables when stderr is a terminal and not --quiet/--json.
    std::function<void(const std::string& label, std::uint64_t done, std::uint64_t total)> progress;

    void warning(const std::string& message) const {
        if (warn) warn(message);
    }
    void report(const std::string& label, std::uint64_t done, std::uint64_t total) const {
        if (progress) progress(label, done, total);
    }
    int resolved_threads() const;  // threads, or the number of cores when 0

    // A context for a sub-task (a fold, a grid point, a one-vs-rest member): the same
    // callbacks (progress dropped), a seed derived from this one and `stream`, and the
    // given thread budget. Derived seeds make results independent of scheduling.
    Context child(std::uint64_t stream, int child_threads = 1) const;
};

}  // namespace kestrel
