#pragma once
// A process group of one rank, installed for the life of a scope: the code paths that run
// on rows spread over MPI ranks (sum_over_ranks, max_over_ranks) can then be unit-tested
// in one process, where their collectives change nothing. The multi-rank runs are in
// tests/cli/mpi_shard_test.cpp.
#include <stdexcept>

#include "kestrel/core/process_group.hpp"

namespace kestrel::test {

class OneRank final : public ProcessGroup {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    void send(int, int, std::span<const std::byte>) override { throw std::logic_error("one rank sends nothing"); }
    std::vector<std::byte> receive(int, int, int*) override { throw std::logic_error("one rank receives nothing"); }
    bool message_waiting(int) override { return false; }
    void broadcast(std::vector<std::byte>&, int) override {}
};

struct GroupScope {
    explicit GroupScope(ProcessGroup* g) { set_process_group(g); }
    ~GroupScope() { set_process_group(nullptr); }
    GroupScope(const GroupScope&) = delete;
    GroupScope& operator=(const GroupScope&) = delete;
};

}  // namespace kestrel::test
