// The table cache's reader: the header and meta block checked field by field against the
// file's size (a count is believed only when the bytes it needs are there), then each array
// read in one go straight into the matrix or label vector it belongs to. The same decoding
// serves a file (pread) and bytes in memory (the fuzz target, tests).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/io/table_cache.hpp"
#include "table_cache_layout.hpp"

namespace kestrel {
namespace {

// Where the cache's bytes come from.
class CacheBytes {
public:
    virtual ~CacheBytes() = default;
    virtual std::uint64_t size() const = 0;
    // Exactly n bytes from `offset` into dst (the caller checked they are there).
    virtual void read(std::uint64_t offset, void* dst, std::size_t n) const = 0;

protected:
    CacheBytes() = default;
    CacheBytes(const CacheBytes&) = default;
    CacheBytes& operator=(const CacheBytes&) = default;
};

class MemoryBytes final : public CacheBytes {
public:
    explicit MemoryBytes(std::string_view bytes) : bytes_(bytes) {}
    std::uint64_t size() const override { return bytes_.size(); }
    void read(std::uint64_t offset, void* dst, std::size_t n) const override {
        if (n > 0) std::memcpy(dst, bytes_.data() + offset, n);
    }

private:
    std::string_view bytes_;
};

class FileBytes final : public CacheBytes {
public:
    FileBytes(int fd, std::uint64_t size, std::string name) : fd_(fd), size_(size), name_(std::move(name)) {}
    std::uint64_t size() const override { return size_; }
    // One pread after another on this thread: with the array's pages 2 MB each (advise_huge_pages)
    // a second core no longer pays. Reading in 8 MB pieces on both cores, as before the advice,
    // was the slower under other work: median of 15 interleaved reads at load 9, 24.9 ms serial
    // against 38.5 ms in pieces for the dense table's cache, 15.8 against 23.0 ms for the mixed
    // one's (the idle core's spin, and the pool's start, cost more than the second core gives).
    void read(std::uint64_t offset, void* dst, std::size_t n) const override {
        char* out = static_cast<char*>(dst);
        while (n > 0) {
            const ssize_t r = ::pread(fd_, out, n, static_cast<off_t>(offset));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) throw DataError(name_ + ": byte " + std::to_string(offset) + ": cannot be read");
            out += r;
            offset += static_cast<std::uint64_t>(r);
            n -= static_cast<std::size_t>(r);
        }
    }

private:
    int fd_;
    std::uint64_t size_;
    std::string name_;
};

// Memory about to be filled whole, asked to be backed by 2 MB pages where the kernel offers
// them on request (transparent huge pages "madvise", the common default): filling a fresh
// array costs mostly its page faults, and a 2 MB page is one fault instead of 512. Measured
// on the 2-core machine: 32 MB read into a fresh array in 13 ms instead of 35 ms. Only the
// whole 2 MB pages inside the array are advised, so no memory is added to it.
void advise_huge_pages(void* p, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t begin = (at + kHuge - 1) / kHuge * kHuge, end = (at + bytes) / kHuge * kHuge;
    if (end > begin) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

[[noreturn]] void corrupt(const std::string& name, std::uint64_t at, const std::string& what) {
    throw DataError(name + ": byte " + std::to_string(at) + ": " + what);
}

// Reads the meta block's fields in order, each checked against the bytes left.
class MetaReader {
public:
    MetaReader(std::string_view meta, const std::string& name) : meta_(meta), name_(name) {}
    template <class T>
    T get() {
        if (sizeof(T) > left()) past_end("a number");
        T v;
        std::memcpy(&v, meta_.data() + at_, sizeof v);
        at_ += sizeof v;
        return v;
    }
    std::string get_string() { return std::string(take_string()); }
    std::vector<std::string> get_strings() {
        const std::uint64_t n = count(sizeof(std::uint32_t), "strings");
        std::vector<std::string> list;
        list.reserve(n);
        // A label text per row: 32 bytes of fresh vector each, as many faults as the matrix's.
        advise_huge_pages(list.data(), n * sizeof(std::string));
        for (std::uint64_t i = 0; i < n; ++i) list.emplace_back(take_string());
        return list;
    }
    // A count of items that take at least `each` bytes of what is left.
    std::uint64_t count(std::size_t each, const char* what) {
        const auto n = get<std::uint64_t>();
        if (n > left() / each)
            corrupt(name_, offset(), std::to_string(n) + " " + what + " in a meta block of " +
                                         std::to_string(meta_.size()) + " bytes");
        return n;
    }
    std::uint64_t offset() const { return detail::kTableCacheHeaderBytes + at_; }
    bool done() const { return at_ == meta_.size(); }

private:
    std::size_t left() const { return meta_.size() - at_; }
    // The message is made only on failure: a label text per row passes here, and building
    // it for each cost 85 % of the mixed table's read (callgrind: 630 instructions a string).
    [[noreturn]] void past_end(const std::string& what) const {
        corrupt(name_, offset(), what + " past the end of the meta block");
    }
    std::string_view take_string() {
        const auto n = get<std::uint32_t>();
        if (n > left()) past_end("a string of " + std::to_string(n) + " bytes");
        const std::string_view s = meta_.substr(at_, n);
        at_ += n;
        return s;
    }
    std::string_view meta_;
    const std::string& name_;
    std::size_t at_ = 0;
};

struct CacheHeader {
    std::uint32_t version = 0;
    std::uint64_t meta_bytes = 0, data_offset = 0, data_bytes = 0, file_bytes = 0;
};

CacheHeader read_header(const CacheBytes& in, const std::string& name) {
    if (in.size() < detail::kTableCacheHeaderBytes)
        corrupt(name, in.size(), "it ends inside the 64-byte header: not a table cache, or truncated");
    char h[detail::kTableCacheHeaderBytes];
    in.read(0, h, sizeof h);
    if (std::string_view(h, 8) != detail::kTableCacheMagic) corrupt(name, 0, "not a kestrel table cache");
    std::uint32_t order = 0;
    CacheHeader c;
    std::memcpy(&order, h + 8, 4);
    std::memcpy(&c.version, h + 12, 4);
    std::memcpy(&c.meta_bytes, h + 16, 8);
    std::memcpy(&c.data_offset, h + 24, 8);
    std::memcpy(&c.data_bytes, h + 32, 8);
    std::memcpy(&c.file_bytes, h + 40, 8);
    if (order != detail::kTableCacheByteOrder) corrupt(name, 8, "written on a machine of another byte order");
    if (c.file_bytes != in.size())
        corrupt(name, in.size(), "the file has " + std::to_string(in.size()) + " bytes, its header says " +
                                     std::to_string(c.file_bytes) + ": truncated or grown");
    if (c.meta_bytes > c.file_bytes - detail::kTableCacheHeaderBytes ||
        c.data_offset != detail::aligned_up(detail::kTableCacheHeaderBytes + c.meta_bytes) ||
        c.data_offset > c.file_bytes || c.data_bytes != c.file_bytes - c.data_offset)
        corrupt(name, 16, "the header's sizes do not add up to the file's");
    return c;
}

// The table's shape and strings, and the key it was written with.
struct CacheMeta {
    std::string kestrel_version;
    TableCacheKey key;
    Index rows = 0, cols = 0;
    bool sparse = false, has_labels = false;
    std::uint64_t nnz = 0, numeric = 0, lines = 0, qids = 0;
    Table table;  // everything but the arrays
};

CacheMeta read_meta(const CacheBytes& in, const CacheHeader& h, const std::string& name) {
    std::string block(h.meta_bytes, '\0');
    in.read(detail::kTableCacheHeaderBytes, block.data(), block.size());
    MetaReader m(block, name);
    CacheMeta c;
    c.kestrel_version = m.get_string();
    c.key.source_size = m.get<std::uint64_t>();
    c.key.source_mtime_ns = m.get<std::int64_t>();
    c.key.head_hash = m.get<std::uint64_t>();
    c.key.tail_hash = m.get<std::uint64_t>();
    c.key.options = m.get_string();
    c.rows = m.get<std::int64_t>();
    c.cols = m.get<std::int64_t>();
    c.sparse = m.get<std::uint8_t>() != 0;
    c.nnz = m.get<std::uint64_t>();
    c.has_labels = m.get<std::uint8_t>() != 0;
    Table& t = c.table;
    t.dropped_rows = m.get<std::int64_t>();
    t.bytes = m.get<std::uint64_t>();
    t.fields = m.get<std::uint64_t>();
    t.source = m.get_string();
    t.label_name = m.get_string();
    t.feature_names = m.get_strings();
    t.categories.resize(m.count(8, "category lists"));
    for (auto& list : t.categories) list = m.get_strings();
    t.kept_names = m.get_strings();
    t.kept.resize(m.count(8, "kept columns"));
    for (auto& column : t.kept) column = m.get_strings();
    if (c.has_labels) {
        RawLabels& L = t.labels.emplace();
        L.source = m.get_string();
        L.text = m.get_strings();
        c.numeric = m.get<std::uint64_t>();
        c.lines = m.get<std::uint64_t>();
        c.qids = m.get<std::uint64_t>();
    }
    if (!m.done()) corrupt(name, m.offset(), "bytes after the end of the meta block's fields");
    return c;
}

// The arrays' sizes from the meta block, checked against the data block's.
void check_shape(const CacheMeta& c, const CacheHeader& h, const std::string& name) {
    constexpr std::uint64_t kMaxDim = std::uint64_t{1} << 40;
    const auto rows = static_cast<std::uint64_t>(c.rows), cols = static_cast<std::uint64_t>(c.cols);
    if (c.rows < 0 || c.cols < 0 || rows > kMaxDim || cols > std::numeric_limits<int>::max() ||
        c.nnz > std::numeric_limits<int>::max() || (!c.sparse && cols > 0 && rows > h.data_bytes / 8 / cols))
        corrupt(name, detail::kTableCacheHeaderBytes, "a table shape the data block cannot hold");
    const Table& t = c.table;
    const auto fits = [&](std::size_t n, std::uint64_t want) { return n == 0 || n == want; };
    if (rows > h.file_bytes || !fits(t.feature_names.size(), cols) || !fits(t.categories.size(), cols) ||
        t.kept.size() != t.kept_names.size())
        corrupt(name, detail::kTableCacheHeaderBytes, "names or category lists that do not fit the table's shape");
    for (const auto& column : t.kept)
        if (column.size() != rows) corrupt(name, detail::kTableCacheHeaderBytes, "a kept column of another length");
    const auto array = [](std::uint64_t n, std::uint64_t each) { return detail::aligned_up(n * each); };
    std::uint64_t need = c.sparse ? array(rows + 1, 4) + array(c.nnz, 4) + array(c.nnz, 8) : array(rows * cols, 8);
    if (c.has_labels) {
        if (c.numeric > rows || c.lines > rows || c.qids > rows || c.table.labels->text.size() != rows)
            corrupt(name, detail::kTableCacheHeaderBytes, "label columns longer than the table");
        need += array(c.numeric, 8) + array(c.lines, 8) + array(c.qids, 8);
    }
    if (need != h.data_bytes)
        corrupt(name, h.data_offset, "a data block of " + std::to_string(h.data_bytes) + " bytes where the table needs " +
                                         std::to_string(need));
}

// CSR row starts from 0 to nnz without a step back, columns within the width and
// increasing in each row: what every sparse loop of the library relies on.
void check_csr(const SparseMatrix& X, const std::string& name, std::uint64_t at) {
    const int* outer = X.outerIndexPtr();
    const int* inner = X.innerIndexPtr();
    // The entries stored, not X.nonZeros(): that one is computed from the row starts read.
    const auto stored = static_cast<Index>(X.data().size());
    if (outer[0] != 0 || outer[X.rows()] != stored) corrupt(name, at, "row starts that do not span the entries");
    for (Index r = 0; r < X.rows(); ++r) {
        // Before the row's entries are read: a start past the last entry would read beyond them.
        if (outer[r + 1] < outer[r] || outer[r + 1] > stored)
            corrupt(name, at, "row starts that step back or pass the entries");
        for (int k = outer[r]; k < outer[r + 1]; ++k)
            if (inner[k] < 0 || inner[k] >= X.cols() || (k > outer[r] && inner[k] <= inner[k - 1]))
                corrupt(name, at, "a column index out of order or beyond the width in row " + std::to_string(r));
    }
}

Table read_arrays(const CacheBytes& in, const CacheHeader& h, CacheMeta& c, const std::string& name) {
    std::uint64_t at = h.data_offset;
    const auto take = [&](void* dst, std::uint64_t n, std::size_t each) {
        advise_huge_pages(dst, n * each);
        in.read(at, dst, n * each);
        at += detail::aligned_up(n * each);
    };
    Table t = std::move(c.table);
    if (c.sparse) {
        SparseMatrix X(c.rows, c.cols);
        X.resizeNonZeros(static_cast<Index>(c.nnz));
        const std::uint64_t csr_at = at;
        take(X.outerIndexPtr(), static_cast<std::uint64_t>(c.rows) + 1, 4);
        take(X.innerIndexPtr(), c.nnz, 4);
        take(X.valuePtr(), c.nnz, 8);
        check_csr(X, name, csr_at);
        t.X = Features(std::move(X));
    } else {
        DenseMatrix X(c.rows, c.cols);
        take(X.data(), static_cast<std::uint64_t>(X.size()), 8);
        t.X = Features(std::move(X));
    }
    if (c.has_labels) {
        RawLabels& L = *t.labels;
        L.numeric.resize(c.numeric);
        L.line.resize(c.lines);
        L.qid.resize(c.qids);
        take(L.numeric.data(), c.numeric, 8);
        take(L.line.data(), c.lines, 8);
        take(L.qid.data(), c.qids, 8);
    }
    return t;
}

Table decode(const CacheBytes& in, const std::string& name, const TableCacheKey* key, std::string* why_not) {
    const CacheHeader h = read_header(in, name);
    if (key && h.version != kTableCacheVersion) {
        *why_not = "it is in layout version " + std::to_string(h.version) + ", this kestrel's is " +
                   std::to_string(kTableCacheVersion);
        return {};
    }
    CacheMeta c = read_meta(in, h, name);
    if (key) {
        if (c.kestrel_version != KESTREL_VERSION) *why_not = "it was written by kestrel " + c.kestrel_version;
        else if (c.key.source_size != key->source_size || c.key.source_mtime_ns != key->source_mtime_ns ||
                 c.key.head_hash != key->head_hash || c.key.tail_hash != key->tail_hash)
            *why_not = "its input changed since it was written";
        else if (c.key.options != key->options) *why_not = "it was written with other read options";
        if (!why_not->empty()) return {};
    }
    check_shape(c, h, name);
    return read_arrays(in, h, c, name);
}

}  // namespace

Table decode_table_cache(std::string_view bytes, const std::string& name) {
    return decode(MemoryBytes(bytes), name, nullptr, nullptr);
}

std::optional<Table> read_table_cache(const std::string& cache_path, const TableCacheKey& key, std::string& why_not) {
    why_not.clear();
    const int fd = ::open(cache_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        why_not = errno == ENOENT ? "it does not exist" : std::string("it cannot be opened (") + std::strerror(errno) + ")";
        return std::nullopt;
    }
    struct stat st {};
    std::optional<Table> t;
    try {
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            why_not = "it is not a regular file";
        } else {
            Table read = decode(FileBytes(fd, static_cast<std::uint64_t>(st.st_size), cache_path), cache_path, &key,
                                &why_not);
            if (why_not.empty()) t = std::move(read);
        }
    } catch (const DataError& e) {
        why_not = std::string("it is corrupt (") + e.what() + ")";
    } catch (...) {
        ::close(fd);
        throw;
    }
    ::close(fd);
    return t;
}

}  // namespace kestrel
