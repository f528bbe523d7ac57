#include "kestrel/core/mpi_session.hpp"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <filesystem>
#include <mutex>
#include <span>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/process_group.hpp"
#include "kestrel/core/shared_library.hpp"
#include "mpi_module_path.hpp"

namespace kestrel {

bool launched_by_mpi() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
        if (std::getenv(name) != nullptr) return true;
    return false;
}

namespace {

// The file of the object holding this code: the executable when kestrel is linked into
// it, the shared library when it is one (whose link map names it; the main program's
// name there is empty).
std::filesystem::path this_object() {
    Dl_info info{};
    link_map* object = nullptr;
    if (dladdr1(reinterpret_cast<const void*>(&launched_by_mpi), &info, reinterpret_cast<void**>(&object),
                RTLD_DL_LINKMAP) != 0 &&
        object != nullptr && object->l_name != nullptr && object->l_name[0] == '/')
        return object->l_name;
    std::error_code ec;
    return std::filesystem::read_symlink("/proc/self/exe", ec);
}

// Where the module is: KESTREL_MPI_MODULE, else beside the object holding this code (the
// build tree, where the module sits beside the executables), else the installed layout
// relative to it: <libdir>/kestrel/ from an executable in <bindir>, or from a shared
// library in <libdir>.
std::string module_path() {
    if (const char* given = std::getenv("KESTREL_MPI_MODULE"); given != nullptr && *given != '\0') return given;
    const std::filesystem::path object = this_object();
    if (object.empty()) return "kestrel_mpi.so";
    const std::filesystem::path dir = object.parent_path();
    std::error_code ec;
    for (const auto& candidate : {dir / "kestrel_mpi.so", dir / "kestrel" / "kestrel_mpi.so"})
        if (std::filesystem::exists(candidate, ec)) return candidate.string();
    return (dir / KESTREL_MPI_MODULE_RELATIVE).lexically_normal().string();
}

}  // namespace

// The module's functions, and the ProcessGroup made of them.
struct MpiSession::Impl final : ProcessGroup {
    explicit Impl(const std::string& program)
        : library(module_path().c_str(), program + " under MPI", "libopenmpi3", SymbolScope::global) {
        library.bind(init, "kestrel_mpi_init");
        library.bind(finalize, "kestrel_mpi_finalize");
        library.bind(error_text, "kestrel_mpi_error");
        library.bind(send_bytes, "kestrel_mpi_send");
        library.bind(receive_size, "kestrel_mpi_receive_size");
        library.bind(receive_body, "kestrel_mpi_receive_body");
        library.bind(waiting, "kestrel_mpi_message_waiting");
        library.bind(broadcast_size, "kestrel_mpi_broadcast_size");
        library.bind(broadcast_body, "kestrel_mpi_broadcast_body");
        check(init(&rank_, &size_));
    }

    int rank() const override { return rank_; }
    int size() const override { return size_; }

    void send(int destination, int tag, std::span<const std::byte> bytes) override {
        check(send_bytes(bytes.data(), bytes.size(), destination, tag));
        ++sent_messages;
        sent_bytes += bytes.size();
    }
    std::vector<std::byte> receive(int source, int tag, int* from) override {
        std::uint64_t n = 0;
        int sender = 0;
        check(receive_size(source, tag, &sender, &n));
        std::vector<std::byte> bytes(n);
        check(receive_body(bytes.data(), n, sender, tag));
        if (from != nullptr) *from = sender;
        return bytes;
    }
    bool message_waiting(int tag) override {
        int flag = 0;
        check(waiting(tag, &flag));
        return flag != 0;
    }
    void broadcast(std::vector<std::byte>& bytes, int root) override {
        std::uint64_t n = bytes.size();
        check(broadcast_size(&n, root));
        bytes.resize(n);
        check(broadcast_body(bytes.data(), n, root));
        ++broadcasts;
        broadcast_bytes += n;
    }

    void check(int rc) const {
        if (rc != 0) throw Error(ExitCode::internal, std::string("MPI: ") + error_text());
    }

    SharedLibrary library;
    int (*init)(int*, int*) = nullptr;
    int (*finalize)() = nullptr;
    const char* (*error_text)() = nullptr;
    int (*send_bytes)(const void*, std::uint64_t, int, int) = nullptr;
    int (*receive_size)(int, int, int*, std::uint64_t*) = nullptr;
    int (*receive_body)(void*, std::uint64_t, int, int) = nullptr;
    int (*waiting)(int, int*) = nullptr;
    int (*broadcast_size)(std::uint64_t*, int) = nullptr;
    int (*broadcast_body)(void*, std::uint64_t, int) = nullptr;
    int rank_ = 0, size_ = 1;
    // What this rank sent, for KESTREL_MPI_TRAFFIC (docs/distributed.md).
    std::uint64_t sent_messages = 0, sent_bytes = 0, broadcasts = 0, broadcast_bytes = 0;
};

MpiSession::MpiSession(const std::string& program) {
    if (!launched_by_mpi()) return;
    if (!KESTREL_HAVE_MPI)
        throw Error(ExitCode::internal, "launched by mpirun, but this kestrel was built without MPI (Open MPI's "
                                        "libopenmpi-dev was not found at build time; docs/distributed.md)");
    impl_ = std::make_unique<Impl>(program);
    set_process_group(impl_.get());
}

MpiSession::~MpiSession() {
    if (impl_) set_process_group(nullptr);
}

int MpiSession::rank() const { return impl_ ? impl_->rank() : 0; }
int MpiSession::size() const { return impl_ ? impl_->size() : 1; }

int MpiSession::finish(int exit_code) {
    if (!impl_) return exit_code;
    if (exit_code != 0) {
        // Leaving without MPI_Finalize makes mpirun end every other rank and return this
        // code. (MPI_Abort would too, but Open MPI 4.1 sometimes garbles its notice.)
        std::cout.flush();
        std::cerr.flush();
        std::_Exit(exit_code);
    }
    set_process_group(nullptr);
    if (const char* traffic = std::getenv("KESTREL_MPI_TRAFFIC"); traffic != nullptr && *traffic != '\0')
        std::cerr << "kestrel: rank " << impl_->rank() << " sent " << impl_->sent_bytes << " bytes in "
                  << impl_->sent_messages << " messages; " << impl_->broadcasts << " broadcasts of "
                  << impl_->broadcast_bytes << " bytes\n";
    impl_->check(impl_->finalize());
    return 0;
}

}  // namespace kestrel
