#pragma once
// The group of processes one command runs as when it is launched under MPI (mpirun,
// srun): docs/distributed.md. The library never links MPI: the executables open it at
// start-up when they find themselves launched by it and install a ProcessGroup here;
// a plain run has none, and every caller then takes its one-process path.
//
// One group per process, as MPI_COMM_WORLD is: the slot is process-wide, not carried in
// Context, because every Context of the run (folds, members, grid points) belongs to it.
#include <omp.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace kestrel {

class ProcessGroup {
public:
    virtual ~ProcessGroup() = default;

    virtual int rank() const = 0;  // 0 .. size() − 1; rank 0 writes every output
    virtual int size() const = 0;

    static constexpr int kAnySource = -1;
    // Point-to-point messages of bytes, matched by (source, tag) in the order sent.
    virtual void send(int destination, int tag, std::span<const std::byte> bytes) = 0;
    // Blocks for the next message with `tag` from `source` (kAnySource: anyone); *from
    // receives the sender's rank.
    virtual std::vector<std::byte> receive(int source, int tag, int* from) = 0;
    // Whether a message with `tag` is waiting (from anyone); never blocks.
    virtual bool message_waiting(int tag) = 0;
    // Rank `root`'s bytes end up in `bytes` on every rank.
    virtual void broadcast(std::vector<std::byte>& bytes, int root) = 0;
};

namespace detail {
inline ProcessGroup*& process_group_slot() {
    static ProcessGroup* group = nullptr;
    return group;
}
inline bool& on_one_rank_flag() {
    thread_local bool on_one_rank = false;
    return on_one_rank;
}
}  // namespace detail

// The run's group, or nullptr for a plain one-process run.
inline ProcessGroup* process_group() { return detail::process_group_slot(); }
// Installed by the executables for the life of the run (nullptr removes it).
inline void set_process_group(ProcessGroup* group) { detail::process_group_slot() = group; }

// Whether this process is one of several.
inline bool in_process_group() {
    const ProcessGroup* g = process_group();
    return g != nullptr && g->size() > 1;
}

// Marks the work of this thread as one rank's own while it lives: a job the group has
// shared out (a fold's fit) runs on one rank, and nothing inside it may use the group.
class OneRankScope {
public:
    OneRankScope() : saved_(detail::on_one_rank_flag()) { detail::on_one_rank_flag() = true; }
    ~OneRankScope() { detail::on_one_rank_flag() = saved_; }
    OneRankScope(const OneRankScope&) = delete;
    OneRankScope& operator=(const OneRankScope&) = delete;

private:
    bool saved_;
};

// Whether the code running here may share its work over the group: the process is one of
// several, every rank is at this same point of the same command (not inside a job that
// runs on one rank), and no parallel region of this rank runs it (the ranks' collective
// steps must come in one order).
inline bool group_shares_here() { return in_process_group() && !detail::on_one_rank_flag() && !omp_in_parallel(); }

namespace detail {
inline std::vector<std::vector<std::byte>> split_shared(const std::vector<std::byte>& all) {
    std::vector<std::vector<std::byte>> parts;
    for (std::size_t at = 0; at < all.size();) {
        std::uint64_t n = 0;
        std::memcpy(&n, all.data() + at, sizeof n);
        at += sizeof n;
        parts.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(at),
                           all.begin() + static_cast<std::ptrdiff_t>(at + n));
        at += n;
    }
    return parts;
}
}  // namespace detail

// Every rank's bytes, in rank order, on every rank: gathered at rank 0, then broadcast.
// A collective step: every rank calls it, in the same order.
inline std::vector<std::vector<std::byte>> share_with_all(ProcessGroup& group, const std::vector<std::byte>& mine) {
    constexpr int kTagShare = 7201;
    std::vector<std::byte> all;
    const auto append = [&all](const std::vector<std::byte>& part) {
        const std::uint64_t n = part.size();
        const auto* p = reinterpret_cast<const std::byte*>(&n);
        all.insert(all.end(), p, p + sizeof n);
        all.insert(all.end(), part.begin(), part.end());
    };
    if (group.rank() == 0) {
        append(mine);
        for (int r = 1; r < group.size(); ++r) append(group.receive(r, kTagShare, nullptr));
    } else {
        group.send(0, kTagShare, mine);
    }
    group.broadcast(all, 0);
    return detail::split_shared(all);
}

// Every rank's doubles, in rank order, on every rank (share_with_all on their bytes).
inline std::vector<std::vector<double>> share_numbers_with_all(ProcessGroup& group, std::span<const double> mine) {
    const auto bytes = std::as_bytes(mine);
    std::vector<std::vector<double>> all;
    for (const auto& part : share_with_all(group, std::vector<std::byte>(bytes.begin(), bytes.end()))) {
        all.emplace_back(part.size() / sizeof(double));
        if (!part.empty()) std::memcpy(all.back().data(), part.data(), all.back().size() * sizeof(double));
    }
    return all;
}

namespace detail {
// Combines every rank's `values` element-wise with `op` in a fixed binary tree over the
// ranks (rank r takes r + 1, then r + 2, r + 4, ...) and broadcasts rank 0's result, so
// every rank holds the same bits, the same at every run with the same number of ranks.
template <class Op>
void allreduce_tree(ProcessGroup& group, std::span<double> values, int tag, const char* name, Op op) {
    if (values.empty()) return;  // every rank has the same length: nothing to send anywhere
    const int rank = group.rank(), size = group.size();
    const auto bytes = std::as_writable_bytes(values);
    for (int step = 1; step < size; step *= 2) {
        if (rank % (2 * step) == step) {
            group.send(rank - step, tag, bytes);
            break;
        }
        if (rank % (2 * step) == 0 && rank + step < size) {
            const std::vector<std::byte> theirs = group.receive(rank + step, tag, nullptr);
            if (theirs.size() != bytes.size())
                throw std::logic_error(std::string(name) + ": ranks disagree on the length");
            std::vector<double> t(values.size());
            std::memcpy(t.data(), theirs.data(), theirs.size());
            for (std::size_t i = 0; i < values.size(); ++i) values[i] = op(values[i], t[i]);
        }
    }
    std::vector<std::byte> total(bytes.begin(), bytes.end());
    group.broadcast(total, 0);
    std::memcpy(values.data(), total.data(), total.size());
}
}  // namespace detail

// Element-wise sums of every rank's `values`, left in `values` on every rank: a collective
// step, every rank calling it with the same length in the same order. The sums are added
// in a fixed binary tree over the ranks and rank 0's result is broadcast, so every rank
// holds the same bits and a run with the same number of ranks gives the same bits every
// time, which MPI_Allreduce does not promise. An empty vector returns at once.
inline void allreduce_sum(ProcessGroup& group, std::span<double> values) {
    detail::allreduce_tree(group, values, 7202, "allreduce_sum", [](double a, double b) { return a + b; });
}

// Element-wise maxima of every rank's `values`, as allreduce_sum (the same tree and
// broadcast; a maximum is exact, so any rank count gives the same result). A rank with
// nothing to offer passes −inf; a NaN is never taken over a number that came first in
// the tree, so callers pass no NaN. Minima: the maxima of the negated values.
inline void allreduce_max(ProcessGroup& group, std::span<double> values) {
    detail::allreduce_tree(group, values, 7203, "allreduce_max", [](double a, double b) { return b > a ? b : a; });
}

}  // namespace kestrel
