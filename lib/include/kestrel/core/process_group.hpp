#pragma once
// The group of processes one command runs as when it is launched under MPI (mpirun,
// srun): docs/distributed.md. The library never links MPI: the executables open it at
// start-up when they find themselves launched by it and install a ProcessGroup here;
// a plain run has none, and every caller then takes its one-process path.
//
// One group per process, as MPI_COMM_WORLD is: the slot is process-wide, not carried in
// Context, because every Context of the run (folds, members, grid points) belongs to it.
#include <cstddef>
#include <span>
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
}  // namespace detail

// The run's group, or nullptr for a plain one-process run.
inline ProcessGroup* process_group() { return detail::process_group_slot(); }
// Installed by the executables for the life of the run (nullptr removes it).
inline void set_process_group(ProcessGroup* group) { detail::process_group_slot() = group; }

// Whether this process is one of several: the distributed paths run only then.
inline bool in_process_group() {
    const ProcessGroup* g = process_group();
    return g != nullptr && g->size() > 1;
}

}  // namespace kestrel
