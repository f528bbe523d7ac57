// request_interrupt, interruption_point and InterruptibleWork: a request reaches only the
// work running when it is made, and is forgotten when that work has ended.
#include "kestrel/core/interrupt.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <thread>

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_core_interrupt_test {

using namespace kestrel;

TEST_SUITE("core.interrupt") {
    TEST_CASE("a request while no interruptible work runs is ignored") {
        request_interrupt();
        CHECK_FALSE(interrupt_requested());
        const InterruptibleWork work;
        CHECK_NOTHROW(interruption_point());  // the earlier request does not stop later work
    }

    TEST_CASE("a request stops the running work with exit class 130, until the last of it ends") {
        {
            const InterruptibleWork outer;
            CHECK_NOTHROW(interruption_point());
            {
                const InterruptibleWork inner;
                request_interrupt();
                CHECK(interrupt_requested());
                try {
                    interruption_point();
                    FAIL("no Interrupted");
                } catch (const Interrupted& e) {
                    CHECK(e.code() == ExitCode::interrupted);
                    CHECK(static_cast<int>(e.code()) == 130);
                    CHECK(std::string(e.what()) == "interrupted");
                }
            }
            // One work still runs: the request still holds for it (and for work starting now).
            CHECK(interrupt_requested());
            const InterruptibleWork late;
            CHECK_THROWS_AS(interruption_point(), Interrupted);
        }
        CHECK_FALSE(interrupt_requested());
        const InterruptibleWork next;
        CHECK_NOTHROW(interruption_point());
    }

    TEST_CASE("a request from another thread reaches a loop polling in this one") {
        std::atomic<bool> polling{false};
        std::thread requester([&] {
            while (!polling.load()) std::this_thread::yield();
            request_interrupt();
        });
        long long rounds = 0;
        {
            const InterruptibleWork work;
            CHECK_THROWS_AS(
                [&] {
                    for (;;) {
                        interruption_point();
                        ++rounds;
                        polling.store(true);
                    }
                }(),
                Interrupted);
        }
        requester.join();
        CHECK(rounds >= 1);
        CHECK_FALSE(interrupt_requested());
    }
}  // TEST_SUITE

}  // namespace unit_core_interrupt_test
}  // namespace
