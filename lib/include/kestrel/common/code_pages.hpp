#pragma once
// Where a BinnedMatrix's codes live (docs/large-data.md, "Pages on disk"; implemented in
// common/bin_cuts.cpp): heap memory, or the pages of a temporary file mapped into memory
// when the quantized store does not fit the memory budget. The file is made in a directory
// ($TMPDIR, else /tmp, unless one is given) and unlinked at once, so nothing is left behind
// even when the process is killed; it is mapped shared, so the kernel writes its pages back
// and evicts them under memory pressure instead of holding them as anonymous memory. Its
// blocks are allocated up front (posix_fallocate): a full disk is a DataError naming the
// directory, not a SIGBUS at the first page the fit touches. Both are zero-filled and read
// through the same pointers; a file's bytes can also be read into buffers of the caller's,
// past the page cache (read: what gbdt's learner does, common/column_reads.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kestrel {

class CodePages {
public:
    // How the codes are about to be read (madvise on a mapping; nothing in memory).
    enum class Access { normal, sequential, random };

    CodePages() = default;
    // `bytes` zero bytes of heap memory.
    static CodePages in_memory(std::size_t bytes);
    // `bytes` zero bytes in the pages of a new temporary file in `directory` (empty: $TMPDIR,
    // else /tmp), unlinked as soon as it is made, its blocks allocated before it is mapped.
    // DataError naming the directory when the file cannot be made, allocated or mapped.
    // `read_budget`: the bytes a reader may hold in buffers of codes read from the file.
    static CodePages in_file(std::size_t bytes, const std::string& directory = {}, std::size_t read_budget = 0);
    // $TMPDIR when set and not empty, else /tmp.
    static std::string default_directory();

    CodePages(CodePages&& other) noexcept;
    CodePages& operator=(CodePages&& other) noexcept;
    CodePages(const CodePages&) = delete;
    CodePages& operator=(const CodePages&) = delete;
    ~CodePages();

    std::byte* data() { return data_; }
    const std::byte* data() const { return data_; }
    std::size_t size() const { return bytes_; }
    // Whether the bytes are a mapped file, and the directory it was made in.
    bool in_file() const { return mapped_; }
    const std::string& directory() const { return directory_; }
    // Tells the kernel how the pages are about to be read; advice only (errors ignored).
    void advise(Access access) const;
    // Starts reading bytes [offset, offset + bytes) from disk in the background, in large
    // requests (MADV_WILLNEED), so that the reads which follow find them in the page cache
    // instead of faulting page by page; advice only, nothing on the heap.
    void will_need(std::size_t offset, std::size_t bytes) const;

    // read()'s unit: its offset, size and buffer are multiples of it (O_DIRECT's alignment;
    // the file is as long as the codes rounded up to it, so a column's aligned read fits).
    static constexpr std::size_t kReadAlignment = 4096;
    // The file's bytes [offset, offset + bytes) into `into`, read past the page cache
    // (O_DIRECT; where the file system refuses it, a buffered read whose pages are dropped
    // after it), so that the reads do not fill the memory a limit counts with cache.
    // Mapped pages written and not yet written back are written first (the kernel's rule
    // for a direct read). Thread-safe. DataError naming the file on an error or a short read.
    void read(std::size_t offset, std::size_t bytes, std::byte* into) const;
    // The bytes a reader may hold in buffers of codes read from the file (in_file's).
    std::size_t read_budget() const { return read_budget_; }
    // Drops the file's pages from the page cache, written back first: the writes are done
    // and the reads (read) go past the cache, which would otherwise hold the memory a limit
    // counts until the kernel reclaimed it in whichever thread next asked for a page.
    void drop_cached() const;

private:
    void release() noexcept;

    std::vector<std::uint16_t> heap_;  // in memory: two-byte units, aligned for uint16 codes
    std::byte* data_ = nullptr;
    std::size_t bytes_ = 0;
    bool mapped_ = false;
    std::string directory_;
    std::string name_;        // the file's name (unlinked) for errors
    int fd_ = -1;             // the file, kept open for read()
    bool direct_ = false;     // read() bypasses the page cache (O_DIRECT)
    std::size_t read_budget_ = 0;
};

}  // namespace kestrel
