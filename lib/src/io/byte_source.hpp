#pragma once
// The bytes of an input as its readers see them: the file's own bytes, or, when it starts
// with the magic bytes of gzip, zstd, xz or bzip2, the text they decompress to. The
// decompression runs on its own thread, a few blocks ahead of the reader, so that
// decompressing and parsing keep two cores busy while memory holds a bounded number of
// blocks whatever the size of the input.
#include <cstddef>
#include <memory>
#include <string>

#include "compression.hpp"

namespace kestrel::detail {

class ByteSource {
public:
    virtual ~ByteSource() = default;
    // Up to `size` bytes into `buffer`; 0 at the end of the input. Throws DataError when
    // the input cannot be read, or is corrupt or truncated (where the text read so far ends).
    virtual std::size_t read(char* buffer, std::size_t size) = 0;
    // What the input is compressed with (Compression::none for plain text).
    virtual Compression compression() const = 0;

protected:
    ByteSource() = default;
    ByteSource(const ByteSource&) = default;
    ByteSource& operator=(const ByteSource&) = default;
};

// The bytes of the open file descriptor `fd` (a file, a pipe or standard input), closed
// at the end when `own_fd`. `source` names the input in errors. Looks at the input's
// first bytes at once (a read that may wait on a pipe).
std::unique_ptr<ByteSource> open_byte_source(int fd, bool own_fd, const std::string& source);

// Opens `path` ("-": standard input) as above. Throws DataError when it cannot be opened
// or is a directory ("<source>: is a directory, not " + `directory_is_not`).
std::unique_ptr<ByteSource> open_byte_source(const std::string& path, const std::string& source,
                                             const std::string& directory_is_not = "a file");

}  // namespace kestrel::detail
