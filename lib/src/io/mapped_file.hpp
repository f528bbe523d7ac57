#pragma once
// Data text held in memory by maps: a read-only map of a whole data file, whose parsed
// ranges are handed back with release() so the resident set holds only the text still
// being parsed; and the growing text of a stream.
#include <cstddef>
#include <string>
#include <string_view>

namespace kestrel::detail {

class MappedFile {
public:
    // Throws DataError naming the path when it is missing, unreadable or a directory.
    explicit MappedFile(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    std::string_view text() const { return {data_, size_}; }
    // Drops the pages wholly or partly inside [begin, end) from this process; a later
    // read of them faults them back in from the page cache, so this is always safe.
    void release(std::size_t begin, std::size_t end) const;

private:
    const char* data_ = nullptr;
    std::size_t size_ = 0;
};

// The text of a stream (a pipe, standard input, a decompressed file) held whole, in an
// anonymous map that mremap grows by moving its pages, not copying them: each byte is
// written once, where a std::string's doublings copy the text about twice more and fault
// in each new buffer's pages.
class GrowingText {
public:
    GrowingText() = default;
    ~GrowingText();
    GrowingText(GrowingText&& other) noexcept;
    GrowingText& operator=(GrowingText&&) = delete;
    GrowingText(const GrowingText&) = delete;
    GrowingText& operator=(const GrowingText&) = delete;

    // Where at least `bytes` more can be written (then committed by grow()); throws
    // std::bad_alloc when the map cannot grow.
    char* room(std::size_t bytes);
    void grow(std::size_t bytes) { size_ += bytes; }
    std::size_t size() const { return size_; }
    std::string_view text() const { return {data_, size_}; }

private:
    char* data_ = nullptr;
    std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace kestrel::detail
