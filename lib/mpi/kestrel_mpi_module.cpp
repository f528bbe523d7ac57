/* The one piece of kestrel that links Open MPI (docs/distributed.md). MpiSession
 * dlopen()s this module only when it finds the process launched by mpirun or srun, so a
 * plain run never loads libmpi and starts as fast as before. Its C interface moves bytes
 * between ranks; lib/src/core/mpi_session.cpp builds kestrel's ProcessGroup on it.
 *
 * Every function returns 0 on success, or an MPI error code after writing a one-line
 * description into the module's error text (kestrel_mpi_error). Messages longer than
 * one MPI count (int) go as a size word followed by chunks of at most kChunk bytes. */
#include <mpi.h>

#include <cstdint>
#include <cstdio>

#define KESTREL_MPI_API extern "C" __attribute__((visibility("default")))

namespace {

char error_text[512];
constexpr std::uint64_t kChunk = std::uint64_t{1} << 30;

int failed(int code, const char* what) {
    char mpi_text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(code, mpi_text, &length) != MPI_SUCCESS)
        std::snprintf(mpi_text, sizeof mpi_text, "code %d", code);
    std::snprintf(error_text, sizeof error_text, "%s: %s", what, mpi_text);
    return code == 0 ? -1 : code;
}

}  // namespace

KESTREL_MPI_API const char* kestrel_mpi_error(void) { return error_text; }

/* Errors come back as codes (MPI_ERRORS_RETURN), so kestrel reports them its own way
 * and a failing rank ends the run by leaving without MPI_Finalize
 * (lib/src/core/mpi_session.cpp says why not MPI_Abort). Serialized threading: a rank's threads
 * take turns at MPI under a lock, and rank 0 talks to the others from one thread. */
KESTREL_MPI_API int kestrel_mpi_init(int* rank, int* size) {
    int provided = 0;
    int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
    if (rc != MPI_SUCCESS) return failed(rc, "MPI_Init_thread");
    if (provided < MPI_THREAD_SERIALIZED) {
        std::snprintf(error_text, sizeof error_text,
                 "this MPI library gives thread level %d, kestrel needs MPI_THREAD_SERIALIZED (%d)", provided,
                 MPI_THREAD_SERIALIZED);
        return -1;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if ((rc = MPI_Comm_rank(MPI_COMM_WORLD, rank)) != MPI_SUCCESS) return failed(rc, "MPI_Comm_rank");
    if ((rc = MPI_Comm_size(MPI_COMM_WORLD, size)) != MPI_SUCCESS) return failed(rc, "MPI_Comm_size");
    return 0;
}

KESTREL_MPI_API int kestrel_mpi_finalize(void) {
    int rc = MPI_Finalize();
    return rc == MPI_SUCCESS ? 0 : failed(rc, "MPI_Finalize");
}

KESTREL_MPI_API int kestrel_mpi_send(const void* data, std::uint64_t bytes, int destination, int tag) {
    int rc = MPI_Send(&bytes, 1, MPI_UINT64_T, destination, tag, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) return failed(rc, "MPI_Send");
    const char* p = static_cast<const char*>(data);
    for (std::uint64_t done = 0; done < bytes;) {
        const std::uint64_t n = bytes - done < kChunk ? bytes - done : kChunk;
        rc = MPI_Send(p + done, static_cast<int>(n), MPI_BYTE, destination, tag, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) return failed(rc, "MPI_Send");
        done += n;
    }
    return 0;
}

/* Blocks for the size word of the next message with `tag` from `source` (-1: any). */
KESTREL_MPI_API int kestrel_mpi_receive_size(int source, int tag, int* from, std::uint64_t* bytes) {
    MPI_Status status;
    int rc = MPI_Recv(bytes, 1, MPI_UINT64_T, source < 0 ? MPI_ANY_SOURCE : source, tag, MPI_COMM_WORLD, &status);
    if (rc != MPI_SUCCESS) return failed(rc, "MPI_Recv");
    *from = status.MPI_SOURCE;
    return 0;
}

/* The body of the message whose size word kestrel_mpi_receive_size returned. */
KESTREL_MPI_API int kestrel_mpi_receive_body(void* data, std::uint64_t bytes, int from, int tag) {
    char* p = static_cast<char*>(data);
    for (std::uint64_t done = 0; done < bytes;) {
        const std::uint64_t n = bytes - done < kChunk ? bytes - done : kChunk;
        int rc = MPI_Recv(p + done, static_cast<int>(n), MPI_BYTE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return failed(rc, "MPI_Recv");
        done += n;
    }
    return 0;
}

KESTREL_MPI_API int kestrel_mpi_message_waiting(int tag, int* waiting) {
    int rc = MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, waiting, MPI_STATUS_IGNORE);
    return rc == MPI_SUCCESS ? 0 : failed(rc, "MPI_Iprobe");
}

/* Two steps, as a receiver cannot size its buffer before it knows the root's length. */
KESTREL_MPI_API int kestrel_mpi_broadcast_size(std::uint64_t* bytes, int root) {
    int rc = MPI_Bcast(bytes, 1, MPI_UINT64_T, root, MPI_COMM_WORLD);
    return rc == MPI_SUCCESS ? 0 : failed(rc, "MPI_Bcast");
}

KESTREL_MPI_API int kestrel_mpi_broadcast_body(void* data, std::uint64_t bytes, int root) {
    char* p = static_cast<char*>(data);
    for (std::uint64_t done = 0; done < bytes;) {
        const std::uint64_t n = bytes - done < kChunk ? bytes - done : kChunk;
        int rc = MPI_Bcast(p + done, static_cast<int>(n), MPI_BYTE, root, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) return failed(rc, "MPI_Bcast");
        done += n;
    }
    return 0;
}
