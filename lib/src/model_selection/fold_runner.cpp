#include "fold_runner.hpp"

#include <omp.h>

#include "kestrel/core/interrupt.hpp"

namespace kestrel::detail {

namespace {

// Restores the caller's nesting limit however the loop ends.
class MaxActiveLevelsGuard {
public:
    explicit MaxActiveLevelsGuard(int levels) : saved_(omp_get_max_active_levels()) {
        omp_set_max_active_levels(levels);
    }
    ~MaxActiveLevelsGuard() { omp_set_max_active_levels(saved_); }
    MaxActiveLevelsGuard(const MaxActiveLevelsGuard&) = delete;
    MaxActiveLevelsGuard& operator=(const MaxActiveLevelsGuard&) = delete;

private:
    int saved_;
};

}  // namespace

Context fold_context(const Context& ctx, std::uint64_t stream, const std::string& label,
                     const std::shared_ptr<std::mutex>& warn_mutex) {
    Context child = ctx.child(stream, 1);
    if (ctx.warn) {
        child.warn = [warn = ctx.warn, warn_mutex, label](const std::string& message) {
            std::lock_guard<std::mutex> lock(*warn_mutex);
            warn(label + ": " + message);
        };
    }
    return child;
}

void run_parallel(std::size_t n, const Context& ctx, const std::string& label,
                  const std::function<void(std::size_t)>& task) {
    std::vector<std::exception_ptr> errors(n);
    std::uint64_t done = 0;
    ctx.report(label, 0, n);
    {
        // Each fit gets one thread: the folds are the parallelism, and an inner
        // parallel region per fit would oversubscribe the cores.
        MaxActiveLevelsGuard guard(1);
        const long long count = static_cast<long long>(n);
#pragma omp parallel for schedule(dynamic) num_threads(ctx.resolved_threads())
        for (long long i = 0; i < count; ++i) {
            const auto t = static_cast<std::size_t>(i);
            try {
                interruption_point();  // the folds not yet started are skipped
                task(t);
            } catch (...) {
                errors[t] = std::current_exception();
            }
#pragma omp critical(kestrel_fold_progress)
            {
                ++done;
                try {
                    ctx.report(label, done, n);
                } catch (...) {
                    if (!errors[t]) errors[t] = std::current_exception();
                }
            }
        }
    }
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace kestrel::detail
