#pragma once
// A read-only memory map of a whole data file. Parsed ranges are handed back with
// release(), so the resident set holds only the text still being parsed.
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

}  // namespace kestrel::detail
