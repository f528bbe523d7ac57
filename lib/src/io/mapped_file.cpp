#include "mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <utility>

#include "kestrel/core/error.hpp"

namespace kestrel::detail {
namespace {

[[noreturn]] void cannot_read(const std::string& path, int err) {
    throw DataError(path + ": cannot read: " + std::strerror(err));
}

}  // namespace

MappedFile::MappedFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) cannot_read(path, errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        cannot_read(path, err);
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        throw DataError(path + ": is a directory, not a data file");
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw DataError(path + ": not a regular file");
    }
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ > 0) {
        void* m = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            const int err = errno;
            ::close(fd);
            cannot_read(path, err);
        }
        data_ = static_cast<const char*>(m);
        ::madvise(m, size_, MADV_SEQUENTIAL);
    }
    ::close(fd);
}

MappedFile::~MappedFile() {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
}

void MappedFile::release(std::size_t begin, std::size_t end) const {
    static const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    if (!data_ || begin >= end) return;
    const std::size_t b = begin / page * page;
    const std::size_t e = std::min((end + page - 1) / page * page, (size_ + page - 1) / page * page);
    if (e > b) ::madvise(const_cast<char*>(data_) + b, e - b, MADV_DONTNEED);
}

GrowingText::~GrowingText() {
    if (data_) ::munmap(data_, capacity_);
}

GrowingText::GrowingText(GrowingText&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

char* GrowingText::room(std::size_t bytes) {
    if (capacity_ - size_ >= bytes) return data_ + size_;
    constexpr std::size_t kFirst = std::size_t{1} << 20;
    std::size_t want = std::max(capacity_ ? capacity_ : kFirst, kFirst);
    while (want - size_ < bytes) want *= 2;
    void* m = data_ ? ::mremap(data_, capacity_, want, MREMAP_MAYMOVE)
                    : ::mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<char*>(m);
    capacity_ = want;
    return data_ + size_;
}

}  // namespace kestrel::detail
