// The table cache's key and its writer: the header, the meta block of the key and the
// table's strings, then the arrays as they lie in memory (table_cache_layout.hpp).
#include "kestrel/io/table_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/io/table_format.hpp"
#include "table_cache_layout.hpp"

namespace kestrel {
namespace {

constexpr std::size_t kHashedBytes = std::size_t{64} << 10;

std::uint64_t fnv1a(std::string_view bytes) {
    std::uint64_t h = 1469598103934665603ULL;
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    return h;
}

std::string read_at(int fd, std::uint64_t offset, std::size_t n, const std::string& path) {
    std::string out(n, '\0');
    std::size_t have = 0;
    while (have < n) {
        const ssize_t r = ::pread(fd, out.data() + have, n - have, static_cast<off_t>(offset + have));
        if (r < 0) throw DataError(path + ": cannot be read (" + std::strerror(errno) + ")");
        if (r == 0) break;
        have += static_cast<std::size_t>(r);
    }
    out.resize(have);
    return out;
}

void add_list(std::string& text, const char* name, const std::vector<std::string>& list) {
    text += name;
    text += '=';
    text += std::to_string(list.size());
    for (const std::string& s : list) {
        text += '\x1f';
        text += s;
    }
    text += '\n';
}

// The options that change what a parse gives, one per line; the limits (max_rows,
// max_memory) and threads do not, and are checked or used anew on every read. `densify`
// shapes LIBSVM reads only: a CSV table's cache serves models with and without sparse rows.
std::string shaping_options(const ReadOptions& o, FileFormat format) {
    std::string t = "format=" + std::to_string(static_cast<int>(o.format)) + "\nheader=" + std::to_string(o.header) +
                    "\nlabel_col=" + o.label_col + "\ndelimiter=" + std::to_string(static_cast<int>(o.delimiter)) +
                    "\nmissing=" + std::to_string(static_cast<int>(o.missing)) + "\ndensify=" +
                    std::to_string(format != FileFormat::csv && o.densify) + "\nexpected_features=" + std::to_string(o.expected_features) +
                    "\nlabels_optional=" + std::to_string(o.labels_optional) + "\ncsv_fields=" +
                    std::to_string(o.csv_fields) + "\nunknown_category_error=" +
                    std::to_string(o.unknown_category_error) + "\nmax_categories=" + std::to_string(o.max_categories) +
                    "\n";
    add_list(t, "keep_columns", o.keep_columns);
    add_list(t, "categorical_columns", o.categorical_columns);
    add_list(t, "numeric_columns", o.numeric_columns);
    add_list(t, "ignore_columns", o.ignore_columns);
    std::vector<std::string> features;
    for (const Index f : o.categorical_features) features.push_back(std::to_string(f));
    add_list(t, "categorical_features", features);
    if (o.feature_columns) add_list(t, "feature_columns", *o.feature_columns);
    if (o.feature_categories) {
        t += "feature_categories=" + std::to_string(o.feature_categories->size()) + "\n";
        for (const auto& list : *o.feature_categories) add_list(t, "", list);
    }
    return t;
}

// The meta block: little pieces appended as the layout lists them.
class MetaWriter {
public:
    template <class T>
    void put(T v) {
        text_.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    void put_string(std::string_view s) {
        put(static_cast<std::uint32_t>(s.size()));
        text_.append(s);
    }
    void put_strings(const std::vector<std::string>& list) {
        put(static_cast<std::uint64_t>(list.size()));
        for (const std::string& s : list) put_string(s);
    }
    std::string& text() { return text_; }

private:
    std::string text_;
};

std::string meta_of(const TableCacheKey& key, const Table& t) {
    MetaWriter m;
    m.put_string(KESTREL_VERSION);
    m.put(key.source_size);
    m.put(key.source_mtime_ns);
    m.put(key.head_hash);
    m.put(key.tail_hash);
    m.put_string(key.options);
    const bool sparse = t.X.is_sparse();
    m.put(static_cast<std::int64_t>(t.X.rows()));
    m.put(static_cast<std::int64_t>(t.X.cols()));
    m.put(static_cast<std::uint8_t>(sparse));
    m.put(static_cast<std::uint64_t>(sparse ? t.X.sparse_ref().nonZeros() : 0));
    m.put(static_cast<std::uint8_t>(t.labels.has_value()));
    m.put(static_cast<std::int64_t>(t.dropped_rows));
    m.put(t.bytes);
    m.put(static_cast<std::uint64_t>(t.fields));
    m.put_string(t.source);
    m.put_string(t.label_name);
    m.put_strings(t.feature_names);
    m.put(static_cast<std::uint64_t>(t.categories.size()));
    for (const auto& list : t.categories) m.put_strings(list);
    m.put_strings(t.kept_names);
    m.put(static_cast<std::uint64_t>(t.kept.size()));
    for (const auto& column : t.kept) m.put_strings(column);
    if (t.labels) {
        m.put_string(t.labels->source);
        m.put_strings(t.labels->text);
        m.put(static_cast<std::uint64_t>(t.labels->numeric.size()));
        m.put(static_cast<std::uint64_t>(t.labels->line.size()));
        m.put(static_cast<std::uint64_t>(t.labels->qid.size()));
    }
    return std::move(m.text());
}

template <class T>
std::string_view bytes_of(const T* data, std::size_t n) {
    return {reinterpret_cast<const char*>(data), n * sizeof(T)};
}

// The arrays in the order of the layout, as they lie in memory.
std::vector<std::string_view> arrays_of(const Table& t, const SparseMatrix*& compressed, SparseMatrix& scratch) {
    std::vector<std::string_view> arrays;
    if (t.X.is_sparse()) {
        compressed = &t.X.sparse_ref();
        if (!compressed->isCompressed()) {
            scratch = *compressed;
            scratch.makeCompressed();
            compressed = &scratch;
        }
        const auto rows = static_cast<std::size_t>(compressed->rows());
        const auto nnz = static_cast<std::size_t>(compressed->nonZeros());
        arrays.push_back(bytes_of(compressed->outerIndexPtr(), rows + 1));
        arrays.push_back(bytes_of(compressed->innerIndexPtr(), nnz));
        arrays.push_back(bytes_of(compressed->valuePtr(), nnz));
    } else {
        const DenseView X = t.X.dense_ref();
        arrays.push_back(bytes_of(X.data(), static_cast<std::size_t>(X.size())));
    }
    if (t.labels) {
        arrays.push_back(bytes_of(t.labels->numeric.data(), t.labels->numeric.size()));
        arrays.push_back(bytes_of(t.labels->line.data(), t.labels->line.size()));
        arrays.push_back(bytes_of(t.labels->qid.data(), t.labels->qid.size()));
    }
    return arrays;
}

std::string header_of(std::uint64_t meta_bytes, std::uint64_t data_bytes) {
    std::string h(detail::kTableCacheHeaderBytes, '\0');
    const std::uint64_t data_offset = detail::aligned_up(detail::kTableCacheHeaderBytes + meta_bytes);
    const std::uint64_t fields[] = {meta_bytes, data_offset, data_bytes, data_offset + data_bytes};
    std::memcpy(h.data(), detail::kTableCacheMagic.data(), detail::kTableCacheMagic.size());
    std::memcpy(h.data() + 8, &detail::kTableCacheByteOrder, 4);
    std::memcpy(h.data() + 12, &kTableCacheVersion, 4);
    std::memcpy(h.data() + 16, fields, sizeof fields);
    return h;
}

// Writes the cache through `sink`: header, meta, then each array padded to the alignment.
void produce_cache(const TableCacheKey& key, const Table& t, const TextSink& sink) {
    const std::string meta = meta_of(key, t);
    const SparseMatrix* compressed = nullptr;
    SparseMatrix scratch;
    const std::vector<std::string_view> arrays = arrays_of(t, compressed, scratch);
    std::uint64_t data_bytes = 0;
    for (const auto a : arrays) data_bytes += detail::aligned_up(a.size());
    static const std::string zeros(detail::kTableCacheAlign, '\0');
    sink(header_of(meta.size(), data_bytes));
    sink(meta);
    const std::uint64_t meta_end = detail::kTableCacheHeaderBytes + meta.size();
    sink(std::string_view(zeros).substr(0, detail::aligned_up(meta_end) - meta_end));
    for (const auto a : arrays) {
        // Large arrays in pieces of 64 MB: a write() of more is cut by the kernel anyway.
        constexpr std::size_t kPiece = std::size_t{64} << 20;
        for (std::size_t at = 0; at < a.size(); at += kPiece) sink(a.substr(at, kPiece));
        sink(std::string_view(zeros).substr(0, detail::aligned_up(a.size()) - a.size()));
    }
}

}  // namespace

TableCacheKey table_cache_key(const std::string& source_path, const ReadOptions& opts) {
    const int fd = ::open(source_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw DataError(source_path + ": cannot be opened (" + std::strerror(errno) + ")");
    struct stat st {};
    TableCacheKey key;
    try {
        if (::fstat(fd, &st) != 0) throw DataError(source_path + ": cannot be read (" + std::strerror(errno) + ")");
        key.source_size = static_cast<std::uint64_t>(st.st_size);
        key.source_mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
        key.head_hash = fnv1a(read_at(fd, 0, kHashedBytes, source_path));
        const std::uint64_t tail_at = key.source_size > kHashedBytes ? key.source_size - kHashedBytes : 0;
        key.tail_hash = fnv1a(read_at(fd, tail_at, kHashedBytes, source_path));
    } catch (...) {
        ::close(fd);
        throw;
    }
    ::close(fd);
    key.options = shaping_options(opts, peek_file_format(source_path, opts));
    return key;
}

std::string encode_table_cache(const TableCacheKey& key, const Table& t) {
    std::string out;
    produce_cache(key, t, [&out](std::string_view piece) { out.append(piece); });
    return out;
}

void write_table_cache(const std::string& cache_path, const TableCacheKey& key, const Table& t) {
    write_file_atomically_in_pieces(cache_path, [&](const TextSink& sink) { produce_cache(key, t, sink); });
}

}  // namespace kestrel
