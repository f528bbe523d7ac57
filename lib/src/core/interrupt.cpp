#include "kestrel/core/interrupt.hpp"

#include <atomic>
#include <cstdint>

namespace kestrel {
namespace {
// One word, so that "is any work running" and "set the request" change together: the low
// bits count the running InterruptibleWork, the top bit is the pending request. A single
// lock-free word is what a signal handler may touch.
constexpr std::uint64_t kRequestBit = std::uint64_t{1} << 63;
constexpr std::uint64_t kWorkMask = kRequestBit - 1;
std::atomic<std::uint64_t> interrupt_state{0};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "a signal handler needs a lock-free flag");
}  // namespace

void request_interrupt() noexcept {
    std::uint64_t s = interrupt_state.load(std::memory_order_relaxed);
    while ((s & kWorkMask) != 0 &&
           !interrupt_state.compare_exchange_weak(s, s | kRequestBit, std::memory_order_acq_rel)) {
    }
}

bool interrupt_requested() noexcept { return (interrupt_state.load(std::memory_order_relaxed) & kRequestBit) != 0; }

void interruption_point() {
    if (interrupt_requested()) throw Interrupted();
}

InterruptibleWork::InterruptibleWork() noexcept { interrupt_state.fetch_add(1, std::memory_order_acq_rel); }

InterruptibleWork::~InterruptibleWork() {
    std::uint64_t s = interrupt_state.load(std::memory_order_relaxed);
    for (;;) {
        std::uint64_t next = s - 1;
        if ((next & kWorkMask) == 0) next = 0;  // the last one ends: forget the request
        if (interrupt_state.compare_exchange_weak(s, next, std::memory_order_acq_rel)) return;
    }
}

}  // namespace kestrel
