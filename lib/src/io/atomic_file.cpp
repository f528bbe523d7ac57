// Atomic output: write a temporary file beside the target (flushed to disk for a
// synced write), then rename it over the target, so readers see the old file or the
// whole new one.
#include "kestrel/io/atomic_file.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "kestrel/core/error.hpp"
#include "kestrel/core/process_group.hpp"

namespace kestrel {
namespace {

[[noreturn]] void output_error(const std::string& path, int err) {
    throw OutputError("cannot write " + path + ": " + std::strerror(err));
}

// Writes everything or returns the errno of the failure (0 on success).
int write_all(int fd, std::string_view content) {
    const char* p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    return 0;
}

void write_stdout(std::string_view content) {
    // Through stdio, so the output stays ordered with anything printed by std::cout.
    std::fflush(stdout);
    if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size() || std::fflush(stdout) != 0) {
        const int err = errno;
        std::clearerr(stdout);
        // Every failure is an error, EPIPE included: with SIGPIPE at its default (the
        // executables reset it) a reader that went away ends the process before write()
        // returns; EPIPE only comes back when SIGPIPE is ignored or blocked, and then
        // the lost output must not end in exit 0.
        output_error("standard output", err);
    }
}

// Where an output goes. A regular file (or none yet) is replaced: a temporary file
// beside it is renamed over it. Anything else is written in place, never renamed over:
// a character device (/dev/full, /dev/null), a FIFO or a socket (as root, a rename over
// /dev/full would replace the device node). A symbolic link is followed, link by link:
// - a link in /proc (/proc/self/fd/N, where /dev/stdout and /dev/fd/N lead) names an
//   open file of a process, whatever its type: written in place, through this process's
//   own descriptor N when that is the file (so `-o /dev/stdout > f` or `>> f` writes
//   where stdout's offset is, after what the command printed before); renaming over
//   /dev/stdout would replace the system's link and leave stdout empty;
// - a link to a regular file (or to a name not yet taken) replaces the file it leads
//   to, atomically (the temporary file beside that file): the link itself is kept.
struct OutputTarget {
    enum Kind { replace, in_place } kind = replace;
    std::string path;  // the file to replace, or to open for writing in place
    int fd = -1;       // in place through this descriptor of ours (a /proc/self/fd/N link)
};

bool is_proc_dir(const std::string& dir) {
    struct statfs fs {};
    return ::statfs(dir.c_str(), &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
}

// Our descriptor N when `link` is /proc/.../fd/N leading to the file N has open, else -1.
int own_descriptor(const std::filesystem::path& link) {
    const std::string name = link.filename().string();
    int n = -1;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), n);
    if (ec != std::errc() || end != name.data() + name.size() || n < 0) return -1;
    struct stat mine {}, theirs {};
    if (::fstat(n, &mine) != 0 || ::stat(link.c_str(), &theirs) != 0) return -1;
    return mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino ? n : -1;
}

OutputTarget output_target(const std::string& path) {
    std::filesystem::path p(path);
    for (int links = 0; links < 40; ++links) {
        struct stat st {};
        if (::lstat(p.c_str(), &st) != 0) return {OutputTarget::replace, p.string()};  // absent: created
        if (S_ISREG(st.st_mode)) return {OutputTarget::replace, p.string()};
        if (S_ISDIR(st.st_mode)) output_error(path, EISDIR);
        if (!S_ISLNK(st.st_mode)) return {OutputTarget::in_place, p.string()};  // device, FIFO, socket
        const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
        if (is_proc_dir(dir.string())) return {OutputTarget::in_place, p.string(), own_descriptor(p)};
        char buf[4096];
        const ssize_t n = ::readlink(p.c_str(), buf, sizeof buf);
        if (n < 0) output_error(path, errno);
        const std::filesystem::path to(std::string(buf, static_cast<std::size_t>(n)));
        p = to.is_absolute() ? to : dir / to;
    }
    output_error(path, ELOOP);
}

void write_in_place(const std::string& shown_path, const OutputTarget& target,
                    const std::function<void(const TextSink&)>& produce) {
    const int fd = target.fd >= 0 ? ::fcntl(target.fd, F_DUPFD_CLOEXEC, 0) : ::open(target.path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) output_error(shown_path, errno);
    // What this process printed to the same descriptor through stdio comes first.
    if (target.fd == STDOUT_FILENO) std::fflush(stdout);
    try {
        // The first failed write ends the production: a stream is not read on to its end
        // for output that can no longer be written.
        produce([&](std::string_view piece) {
            if (const int e = write_all(fd, piece)) output_error(shown_path, e);
        });
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0) output_error(shown_path, errno);
}

// Temporary files being written, where a signal handler can find them: a fixed table
// (no allocation, no locks) of paths published with an atomic state.
struct PendingSlot {
    std::atomic<int> state{0};  // 0 free, 1 being filled in, 2 holds a path to unlink
    char path[4096]{};
};
constexpr int kPendingSlots = 16;
// constinit: zeros in .bss, untouched until a write needs a slot. Without it GCC built the
// table at start-up, one page fault for each of its 16 pages in every process (~25 us here).
constinit PendingSlot pending[kPendingSlots];

// Publishes `path`; returns its slot, or -1 when the path is too long or every slot
// is taken (the write then simply is not cleaned up on a signal).
int register_pending(const std::string& path) {
    if (path.size() >= sizeof(PendingSlot::path)) return -1;
    for (int i = 0; i < kPendingSlots; ++i) {
        int expected = 0;
        if (!pending[i].state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(pending[i].path, path.c_str(), path.size() + 1);
        pending[i].state.store(2);
        return i;
    }
    return -1;
}

void unregister_pending(int slot) {
    if (slot >= 0) pending[slot].state.store(0);
}

std::string temp_name(const std::filesystem::path& target) {
    static std::atomic<unsigned> counter{0};
    std::string name(1, '.');
    name += target.filename().string();
    name += ".tmp.";
    name += std::to_string(::getpid());
    name += '.';
    name += std::to_string(counter.fetch_add(1));
    return (target.parent_path() / name).string();
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view content, Durability durability) {
    write_file_atomically_in_pieces(
        path, [content](const TextSink& sink) { sink(content); }, durability);
}

void write_file_atomically_in_pieces(const std::string& path, const std::function<void(const TextSink&)>& produce,
                                     Durability durability) {
    // A command run as several MPI ranks writes each output once, from rank 0.
    if (const ProcessGroup* group = process_group(); group != nullptr && group->rank() != 0) return;
    if (path == "-") return produce([](std::string_view piece) { write_stdout(piece); });
    const OutputTarget where = output_target(path);
    if (where.kind == OutputTarget::in_place) return write_in_place(path, where, produce);
    const std::filesystem::path target(where.path);
    if (target.filename().empty()) output_error(path, EISDIR);
    const std::string tmp = temp_name(target);
    // Registered before the file exists and released after the rename: a signal at
    // any point in between finds the temporary file (or an already-renamed one,
    // which unlink then misses harmlessly).
    const int slot = register_pending(tmp);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        const int err = errno;
        unregister_pending(slot);
        output_error(path, err);
    }
    try {
        // The first failed write ends the production: a stream is not read on to its end
        // for output that can no longer be written.
        produce([&](std::string_view piece) {
            if (const int e = write_all(fd, piece)) output_error(path, e);
        });
    } catch (...) {
        ::close(fd);
        ::unlink(tmp.c_str());
        unregister_pending(slot);
        throw;
    }
    int err = 0;
    if (durability == Durability::synced && ::fsync(fd) != 0) err = errno;
    if (::close(fd) != 0 && err == 0) err = errno;
    if (err == 0 && ::rename(tmp.c_str(), where.path.c_str()) != 0) err = errno;
    if (err != 0) ::unlink(tmp.c_str());
    unregister_pending(slot);
    if (err != 0) output_error(path, err);
}

void remove_unfinished_outputs() noexcept {
    for (auto& slot : pending)
        if (slot.state.load() == 2) ::unlink(slot.path);
}

std::string read_whole_file(const std::string& path) {
    const bool is_stdin = path == "-";
    const std::string name = is_stdin ? "<stdin>" : path;
    const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw DataError(name + ": cannot read: " + std::strerror(errno));
    std::string out;
    struct stat st {};
    if (::fstat(fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            if (!is_stdin) ::close(fd);
            throw DataError(name + ": is a directory, not a file");
        }
        if (S_ISREG(st.st_mode)) out.reserve(static_cast<std::size_t>(st.st_size));
    }
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            const int err = errno;
            if (!is_stdin) ::close(fd);
            throw DataError(name + ": cannot read: " + std::strerror(err));
        }
        out.append(buf, static_cast<std::size_t>(n));
    }
    if (!is_stdin) ::close(fd);
    return out;
}

}  // namespace kestrel
