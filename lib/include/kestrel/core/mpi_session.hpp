#pragma once
// A process launched by mpirun or srun runs as one rank of a group (docs/distributed.md):
// a command, or any program linking kestrel that wants its fits shared over the ranks.
// MpiSession finds out from the launcher's environment, opens kestrel's MPI module
// (lib/mpi/kestrel_mpi_module.cpp, the only code linked to Open MPI) and installs the run's
// ProcessGroup; a plain run opens nothing and costs one getenv per launcher variable.
#include <memory>
#include <string>

namespace kestrel {

class MpiSession {
public:
    // `program` names the program in messages ("kestrel-cv under MPI needs ..."). Throws
    // kestrel::Error (ExitCode::internal) when the environment says MPI launched us but the
    // module cannot be opened or initialised. One session per process, for its whole run.
    explicit MpiSession(const std::string& program);
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;

    bool active() const { return impl_ != nullptr; }
    int rank() const;
    int size() const;

    // The end of the run: exit code 0 finalizes MPI; any other ends every rank at once
    // (MPI_Abort with that code, which mpirun returns), so no rank waits for a dead one.
    // Returns only after a successful finalize.
    int finish(int exit_code);

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

// Whether the environment says an MPI launcher started this process (Open MPI's mpirun,
// PMIx or PMI-2 launchers such as Slurm's srun).
bool launched_by_mpi();

}  // namespace kestrel
