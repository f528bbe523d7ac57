// Compressed input: gzip, zstd, xz and bzip2 files (and standard input) read as the same
// Table as their plain text, whole and in TableStream's pieces; several members or frames
// read as their concatenation; a truncated or corrupt stream is one DataError naming the
// file and the compressed byte offset. The fixtures are compressed here, by the libraries.
#include <bzlib.h>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <lzma.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/file_shard.hpp"
#include "kestrel/io/table_stream.hpp"
#include "kestrel/tasks/predict_stream.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_compressed_input_test {

using namespace kestrel;

namespace {

std::string gzip_of(const std::string& text) {
    z_stream z{};
    REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string out(deflateBound(&z, text.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::string zstd_of(const std::string& text) {
    std::string out(ZSTD_compressBound(text.size()), '\0');
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);  // as the zstd command writes
    const std::size_t n = ZSTD_compress2(c, out.data(), out.size(), text.data(), text.size());
    ZSTD_freeCCtx(c);
    REQUIRE(!ZSTD_isError(n));
    out.resize(n);
    return out;
}

std::string xz_of(const std::string& text) {
    std::string out(lzma_stream_buffer_bound(text.size()), '\0');
    std::size_t n = 0;
    REQUIRE(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()),
                                    text.size(), reinterpret_cast<std::uint8_t*>(out.data()), &n, out.size()) == LZMA_OK);
    out.resize(n);
    return out;
}

std::string bzip2_of(const std::string& text) {
    auto n = static_cast<unsigned>(text.size() + text.size() / 100 + 600);
    std::string out(n, '\0');
    REQUIRE(BZ2_bzBuffToBuffCompress(out.data(), &n, const_cast<char*>(text.data()),
                                     static_cast<unsigned>(text.size()), 9, 0, 0) == BZ_OK);
    out.resize(n);
    return out;
}

struct Format {
    const char* name;
    const char* suffix;
    std::string (*compress)(const std::string&);
};
const Format kFormats[] = {{"gzip", ".gz", gzip_of}, {"zstd", ".zst", zstd_of}, {"xz", ".xz", xz_of},
                           {"bzip2", ".bz2", bzip2_of}};

// A CSV of a few thousand rows: larger than the decompressing reader's blocks and the
// decoders' output buffers, so their edges are crossed.
std::string sample_csv() {
    std::string text = "a,b,name,label\n";
    for (int i = 0; i < 40000; ++i)
        text += std::to_string(i) + "," + std::to_string(i % 97) + ".25," + (i % 3 ? "x" : "y") + "," +
                std::to_string(i % 2) + "\n";
    return text;
}

struct TempFile {
    std::filesystem::path path;
    TempFile(const std::string& name, const std::string& bytes)
        : path(std::filesystem::temp_directory_path() / ("kestrel_compressed_" + std::to_string(::getpid()) + "_" + name)) {
        std::ofstream(path, std::ios::binary) << bytes;
    }
    ~TempFile() { std::filesystem::remove(path); }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    std::string str() const { return path.string(); }
};

void check_same_table(const Table& a, const Table& b) {
    REQUIRE(a.X.rows() == b.X.rows());
    REQUIRE(a.X.cols() == b.X.cols());
    CHECK(a.X.to_dense() == b.X.to_dense());
    CHECK(a.feature_names == b.feature_names);
    REQUIRE(a.labels);
    REQUIRE(b.labels);
    CHECK(a.labels->text == b.labels->text);
    CHECK(a.labels->line == b.labels->line);
}

std::string error_reading(const std::string& path) {
    try {
        (void)read_table(path, ReadOptions{});
    } catch (const DataError& e) {
        return e.what();
    }
    return "<no error>";
}

// The text of a TableStream's pieces, header included once, read `block` bytes at a time.
std::string streamed_text(const std::string& path, std::size_t block) {
    TableStream stream(path, ReadOptions{}, block);
    TableStream::Piece piece;
    std::string text;
    Index rows = 0;
    while (stream.next(piece)) {
        rows += stream.parse(piece, 1).X.rows();
        text += piece.index == 0 ? piece.text : piece.text.substr(piece.text.find('\n') + 1);
    }
    CHECK(rows == 40000);
    return text;
}

// Reads `path` as standard input.
Table read_as_stdin(const std::string& path) {
    const int saved = ::dup(STDIN_FILENO);
    const int fd = ::open(path.c_str(), O_RDONLY);
    ::dup2(fd, STDIN_FILENO);
    ::close(fd);
    struct Restore {
        int saved;
        ~Restore() {
            ::dup2(saved, STDIN_FILENO);
            ::close(saved);
        }
    } restore{saved};
    return read_table("-", ReadOptions{});
}

}  // namespace

TEST_SUITE("io") {

TEST_CASE("compressed input: each format reads as its text, whole, from standard input and in pieces") {
    const std::string text = sample_csv();
    const TempFile plain("plain.csv", text);
    const Table expected = read_table(plain.str(), ReadOptions{});
    for (const Format& f : kFormats) {
        CAPTURE(f.name);
        // Recognised by its bytes: the name says nothing of the compression.
        const TempFile file(std::string("data_") + f.name + ".txt", f.compress(text));
        check_same_table(read_table(file.str(), ReadOptions{}), expected);
        check_same_table(read_as_stdin(file.str()), expected);
        CHECK(peek_file_format(file.str(), ReadOptions{}) == FileFormat::csv);
        CHECK(read_text_head(file.str(), 8) == "a,b,name");
        CHECK(streamed_text(file.str(), 4096) == text);
    }
}

TEST_CASE("compressed input: several members, frames or streams read as their concatenation") {
    const std::string text = sample_csv();
    const auto half = text.find('\n', text.size() / 2) + 1;
    const TempFile plain("plain.csv", text);
    const Table expected = read_table(plain.str(), ReadOptions{});
    for (const Format& f : kFormats) {
        CAPTURE(f.name);
        const TempFile file(std::string("two_members") + f.suffix,
                            f.compress(text.substr(0, half)) + f.compress(text.substr(half)));
        check_same_table(read_table(file.str(), ReadOptions{}), expected);
        CHECK(streamed_text(file.str(), 1000) == text);
    }
}

TEST_CASE("compressed input: the pieces are cut where the plain file's are, though reads come shorter") {
    // The decompressing source hands out at most 256 KB a read: the pieces must not depend on it.
    const std::string text = sample_csv();
    const TempFile plain("pieces.csv", text);
    const auto pieces = [](const std::string& path, std::size_t block) {
        TableStream stream(path, ReadOptions{}, block);
        TableStream::Piece piece;
        std::vector<std::pair<std::uint64_t, std::size_t>> at;  // first line, bytes
        while (stream.next(piece)) at.emplace_back(piece.first_line, piece.text.size());
        return at;
    };
    for (const std::size_t block : {std::size_t{1000}, std::size_t{100000}, std::size_t{200000}}) {
        CAPTURE(block);
        const auto expected = pieces(plain.str(), block);
        CHECK(expected.size() > 2);  // several pieces, so cuts are compared
        for (const Format& f : kFormats) {
            CAPTURE(f.name);
            const TempFile file(std::string("pieces") + f.suffix, f.compress(text));
            CHECK(pieces(file.str(), block) == expected);
        }
    }
}

TEST_CASE("compressed input: a truncated stream names the file and where the input ends") {
    const std::string text = sample_csv();
    for (const Format& f : kFormats) {
        CAPTURE(f.name);
        const std::string whole = f.compress(text);
        const std::string cut = whole.substr(0, whole.size() / 2);
        const TempFile file(std::string("truncated") + f.suffix, cut);
        const std::string expected = file.str() + ": truncated " + f.name + " data: it ends at compressed byte " +
                                     std::to_string(cut.size()) + " inside a compressed stream";
        CHECK(error_reading(file.str()) == expected);
        CHECK_THROWS_WITH_AS(streamed_text(file.str(), 4096), expected.c_str(), DataError);
    }
}

TEST_CASE("compressed input: a corrupt stream names the file and the compressed byte where it was found") {
    const std::string text = sample_csv();
    // The trailer's check of the text (gzip's CRC-32, zstd's and xz's checksums, bzip2's
    // stream CRC) is damaged: the decoder finds it where the trailer is read.
    struct Case {
        const Format& format;
        std::size_t from_end;  // the damaged byte, counted from the end
        const char* message;   // the library's words
    };
    const Case cases[] = {{kFormats[0], 8, "incorrect data check"},
                          {kFormats[1], 1, "Restored data doesn't match checksum"},
                          {kFormats[2], 13, "compressed data is corrupt"},
                          {kFormats[3], 2, "data integrity error"}};
    for (const Case& c : cases) {
        CAPTURE(c.format.name);
        std::string bytes = c.format.compress(text);
        bytes[bytes.size() - c.from_end] = static_cast<char>(bytes[bytes.size() - c.from_end] ^ 0x55);
        const TempFile file(std::string("corrupt") + c.format.suffix, bytes);
        const std::string error = error_reading(file.str());
        const std::string prefix = file.str() + ": corrupt " + c.format.name + " data at compressed byte ";
        REQUIRE(error.rfind(prefix, 0) == 0);
        const std::uint64_t at = std::stoull(error.substr(prefix.size()));
        CHECK(at <= bytes.size());
        CHECK(at + 16 >= bytes.size() - c.from_end);  // at or just after the damage
        CHECK(error == prefix + std::to_string(at) + " (" + c.message + ")");
    }
}

TEST_CASE("compressed input: kestrel-predict streams a small compressed file, whose text may be any size") {
    const std::string text = sample_csv();
    const TempFile plain("small.csv", text);
    const TempFile zst("small.csv.zst", zstd_of(text));
    CHECK(!is_compressed_file(plain.str()));
    CHECK(is_compressed_file(zst.str()));
    CHECK(chosen_predict_chunk_bytes(plain.str()) == 0);  // under 4 MB: read whole
    CHECK(chosen_predict_chunk_bytes(zst.str()) > 0);
}

TEST_CASE("compressed input: --shard refuses a compressed file, and a file compressed twice is named") {
    const std::string text = sample_csv();
    const TempFile file("shard.csv.gz", gzip_of(text));
    CHECK_THROWS_AS(read_file_shard(file.str(), ReadOptions{}, 0, 2), UsageError);
    const TempFile twice("twice.csv.gz.gz", gzip_of(gzip_of(text)));
    CHECK(error_reading(twice.str()) ==
          twice.str() + ": holds gzip-compressed data inside its compression; kestrel decompresses once: decompress it first");
}

}

}  // namespace unit_io_compressed_input_test
}  // namespace
