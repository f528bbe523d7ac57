#include "kestrel/common/code_pages.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"

namespace kestrel {
namespace {

// The temporary file's descriptor, closed on every way out (the mapping keeps the file).
struct CodeFileDescriptor {
    int fd = -1;
    explicit CodeFileDescriptor(int descriptor) : fd(descriptor) {}
    CodeFileDescriptor(const CodeFileDescriptor&) = delete;
    CodeFileDescriptor& operator=(const CodeFileDescriptor&) = delete;
    ~CodeFileDescriptor() {
        if (fd >= 0) ::close(fd);
    }
};

[[noreturn]] void refuse_code_file(const std::string& directory, std::size_t bytes, const std::string& why, int err) {
    throw DataError(directory + ": cannot hold the quantized store's codes on disk (" + format_bytes(bytes) + "): " +
                    why + ": " + std::strerror(err));
}

}  // namespace

CodePages CodePages::in_memory(std::size_t bytes) {
    CodePages p;
    p.heap_.assign((bytes + 1) / 2, 0);
    p.data_ = reinterpret_cast<std::byte*>(p.heap_.data());
    p.bytes_ = bytes;
    return p;
}

std::string CodePages::default_directory() {
    const char* tmp = std::getenv("TMPDIR");
    return tmp != nullptr && *tmp != '\0' ? std::string(tmp) : std::string("/tmp");
}

CodePages CodePages::in_file(std::size_t bytes, const std::string& directory) {
    CodePages p;
    p.directory_ = directory.empty() ? default_directory() : directory;
    p.mapped_ = true;
    if (bytes == 0) return p;  // nothing to map (mmap refuses a length of 0)
    std::string name = p.directory_ + "/kestrel-codes-XXXXXX";
    CodeFileDescriptor file{::mkostemp(name.data(), O_CLOEXEC)};
    if (file.fd < 0) refuse_code_file(p.directory_, bytes, "cannot make a temporary file", errno);
    // Unlinked at once: the mapping keeps the blocks until munmap, nothing is left behind.
    ::unlink(name.c_str());
    // The blocks allocated now, so that a full disk is this error and not a SIGBUS when the
    // kernel writes a page back. posix_fallocate returns the error (it does not set errno).
    const auto length = static_cast<off_t>(bytes);
    if (const int err = ::posix_fallocate(file.fd, 0, length); err != 0) {
        // A file system without fallocate: the size only (its blocks allocated as written).
        if (err != EOPNOTSUPP && err != EINVAL) refuse_code_file(p.directory_, bytes, "no room for its blocks", err);
        if (::ftruncate(file.fd, length) != 0) refuse_code_file(p.directory_, bytes, "cannot size the file", errno);
    }
    void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, file.fd, 0);
    if (m == MAP_FAILED) refuse_code_file(p.directory_, bytes, "cannot map the file", errno);
    p.data_ = static_cast<std::byte*>(m);
    p.bytes_ = bytes;
    return p;
}

CodePages::CodePages(CodePages&& other) noexcept
    : heap_(std::move(other.heap_)),
      data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      mapped_(std::exchange(other.mapped_, false)),
      directory_(std::move(other.directory_)) {}

CodePages& CodePages::operator=(CodePages&& other) noexcept {
    if (this != &other) {
        release();
        heap_ = std::move(other.heap_);  // the buffer moves with its address: data_ stays valid
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
        mapped_ = std::exchange(other.mapped_, false);
        directory_ = std::move(other.directory_);
    }
    return *this;
}

CodePages::~CodePages() { release(); }

void CodePages::release() noexcept {
    if (mapped_ && data_ != nullptr) ::munmap(data_, bytes_);
    heap_.clear();
    heap_.shrink_to_fit();
    data_ = nullptr;
    bytes_ = 0;
    mapped_ = false;
}

void CodePages::advise(Access access) const {
    if (!mapped_ || data_ == nullptr) return;
    const int advice = access == Access::sequential ? MADV_SEQUENTIAL
                       : access == Access::random   ? MADV_RANDOM
                                                    : MADV_NORMAL;
    (void)::madvise(data_, bytes_, advice);
}

}  // namespace kestrel
