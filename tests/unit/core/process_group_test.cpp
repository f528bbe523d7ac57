// The collectives of core/process_group.hpp (allreduce_sum, allreduce_max) over groups of
// 1 to 6 ranks run as threads of this process, with mailboxes in place of MPI: every rank
// must end with the same result, and an empty vector must send nothing. The runs under
// mpirun are in tests/cli/mpi_shard_test.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <condition_variable>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "kestrel/core/process_group.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_core_process_group_test {

using namespace kestrel;

namespace {

// Messages between the threads of one test: a queue per (destination, source, tag).
struct Mailboxes {
    std::mutex mutex;
    std::condition_variable arrived;
    std::map<std::tuple<int, int, int>, std::deque<std::vector<std::byte>>> queues;
    int messages = 0;  // sends and broadcasts' deliveries, for "an empty vector sends nothing"
};

class ThreadRank final : public ProcessGroup {
public:
    ThreadRank(Mailboxes& box, int rank, int size) : box_(box), rank_(rank), size_(size) {}
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    void send(int destination, int tag, std::span<const std::byte> bytes) override {
        const std::lock_guard lock(box_.mutex);
        box_.queues[{destination, rank_, tag}].emplace_back(bytes.begin(), bytes.end());
        ++box_.messages;
        box_.arrived.notify_all();
    }
    std::vector<std::byte> receive(int source, int tag, int* from) override {
        std::unique_lock lock(box_.mutex);
        auto& q = box_.queues[{rank_, source, tag}];
        box_.arrived.wait(lock, [&] { return !q.empty(); });
        std::vector<std::byte> out = std::move(q.front());
        q.pop_front();
        if (from != nullptr) *from = source;
        return out;
    }
    bool message_waiting(int) override { return false; }
    void broadcast(std::vector<std::byte>& bytes, int root) override {
        constexpr int kTagBroadcast = -77;
        if (rank_ == root) {
            for (int r = 0; r < size_; ++r)
                if (r != root) send(r, kTagBroadcast, bytes);
        } else {
            bytes = receive(root, kTagBroadcast, nullptr);
        }
    }

private:
    Mailboxes& box_;
    int rank_, size_;
};

// Runs body(group) on `size` threads, one rank each; returns each rank's result.
std::vector<std::vector<double>> on_ranks(int size, Mailboxes& box,
                                          const std::function<std::vector<double>(ProcessGroup&)>& body) {
    std::vector<std::vector<double>> out(static_cast<std::size_t>(size));
    std::vector<std::thread> threads;
    for (int r = 0; r < size; ++r)
        threads.emplace_back([&, r] {
            ThreadRank group(box, r, size);
            out[static_cast<std::size_t>(r)] = body(group);
        });
    for (auto& t : threads) t.join();
    return out;
}

}  // namespace

TEST_SUITE("unit") {
    TEST_CASE("allreduce_max and allreduce_sum: every rank gets the maxima and sums of all ranks, 1 to 6 ranks") {
        for (int size = 1; size <= 6; ++size) {
            CAPTURE(size);
            Mailboxes box;
            // Rank r holds {r, −r, 10 − r², −inf except on the last rank}.
            const auto mine = [size](int r) {
                return std::vector<double>{static_cast<double>(r), -static_cast<double>(r), 10.0 - r * r,
                                           r == size - 1 ? 2.5 : -std::numeric_limits<double>::infinity()};
            };
            const auto maxima = on_ranks(size, box, [&](ProcessGroup& g) {
                std::vector<double> v = mine(g.rank());
                allreduce_max(g, v);
                return v;
            });
            const auto sums = on_ranks(size, box, [&](ProcessGroup& g) {
                std::vector<double> v = mine(g.rank());
                v.pop_back();
                allreduce_sum(g, v);
                return v;
            });
            const double n = size;
            for (int r = 0; r < size; ++r) {
                CAPTURE(r);
                CHECK(maxima[static_cast<std::size_t>(r)] == std::vector<double>{n - 1, 0.0, 10.0, 2.5});
                // 0 + 1 + ... + (n − 1), and Σ (10 − r²) = 10n − (n − 1)n(2n − 1)/6: small integers, exact.
                CHECK(sums[static_cast<std::size_t>(r)] ==
                      std::vector<double>{n * (n - 1) / 2, -n * (n - 1) / 2, 10 * n - (n - 1) * n * (2 * n - 1) / 6});
            }
        }
    }

    TEST_CASE("allreduce_max and allreduce_sum: an empty vector returns at once on every rank, sending nothing") {
        Mailboxes box;
        on_ranks(4, box, [](ProcessGroup& g) {
            std::vector<double> none;
            allreduce_max(g, none);
            allreduce_sum(g, none);
            return none;
        });
        CHECK(box.messages == 0);
        // One value over 4 ranks: 3 sends up the tree, then 3 deliveries of the broadcast.
        on_ranks(4, box, [](ProcessGroup& g) {
            std::vector<double> one{static_cast<double>(g.rank())};
            allreduce_max(g, one);
            return one;
        });
        CHECK(box.messages == 6);
    }
}

}  // namespace unit_core_process_group_test
}  // namespace
