#include "common/progress.hpp"

#include <chrono>
#include <memory>
#include <mutex>
#include <ostream>

namespace kestrel::cli {

std::function<void(const std::string&, std::uint64_t, std::uint64_t)> make_progress_reporter(std::ostream& err) {
    struct State {
        std::mutex mu;
        std::chrono::steady_clock::time_point last{};
    };
    auto state = std::make_shared<State>();
    return [&err, state](const std::string& label, std::uint64_t done, std::uint64_t total) {
        std::lock_guard<std::mutex> lock(state->mu);  // folds report from several threads
        const auto now = std::chrono::steady_clock::now();
        const bool finished = done >= total;
        if (!finished && now - state->last < std::chrono::milliseconds(100)) return;
        state->last = now;
        err << "\r" << label << ": " << done << "/" << total;
        if (total > 0) err << " (" << (100 * done / total) << "%)";
        err << (finished ? "\n" : "") << std::flush;
    };
}

}  // namespace kestrel::cli
