#pragma once
// Compressed input (gzip, zstd, xz, bzip2): recognised by its first bytes, never by its
// name, and decompressed below format detection, so the readers only ever see text.
// One Decoder per format (decompress_<format>.cpp) and one driver (Decompressor) that
// counts the compressed bytes, so that a corrupt or truncated stream is reported with
// the compressed byte offset where it was found.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kestrel::detail {

enum class Compression { none, gzip, zstd, xz, bzip2 };

// Enough of an input's start to recognise any format here.
inline constexpr std::size_t kCompressionMagicBytes = 6;

// The format whose magic bytes `head` starts with (Compression::none for text, or for a
// head shorter than the magic).
Compression compression_of(std::string_view head);
// "gzip", "zstd", "xz", "bzip2".
const char* compression_name(Compression c);

// One format's decompression, a step at a time. run() decompresses from `in` into `out`
// and says how much of each it used; `last` says that no input follows `in`. A stream of
// several members or frames (pigz, pbzip2, `cat a.gz b.gz`) is decoded as their
// concatenation.
class Decoder {
public:
    struct Step {
        std::size_t consumed = 0;
        std::size_t produced = 0;
        const char* error = nullptr;  // the data is corrupt: what the library says of it
    };
    virtual ~Decoder() = default;
    virtual Step run(std::string_view in, char* out, std::size_t out_size, bool last) = 0;
    // Whether the input consumed so far ends where a member or frame ends (else the input
    // stopped inside one: it is truncated).
    virtual bool complete() const = 0;

protected:
    Decoder() = default;
    Decoder(const Decoder&) = default;
    Decoder& operator=(const Decoder&) = default;
};

std::unique_ptr<Decoder> make_gzip_decoder();
std::unique_ptr<Decoder> make_zstd_decoder();
std::unique_ptr<Decoder> make_xz_decoder();
std::unique_ptr<Decoder> make_bzip2_decoder();

// Decompresses an input handed over in any slices, passing the text on in slices.
// Throws DataError "<source>: corrupt gzip data at compressed byte N (why)" and
// "<source>: truncated gzip data: it ends at compressed byte N inside a compressed stream".
class Decompressor {
public:
    using Emit = std::function<void(std::string_view text)>;
    Decompressor(Compression c, std::string source);
    // Decompresses all of `in`; `emit` may be called several times, or not at all.
    void feed(std::string_view in, const Emit& emit);
    // After the last slice: the rest of the text, or the error of a truncated stream.
    void finish(const Emit& emit);

private:
    [[noreturn]] void corrupt(std::uint64_t at, const char* why) const;
    Compression format_;
    std::string source_;
    std::unique_ptr<Decoder> decoder_;
    std::uint64_t consumed_ = 0;  // compressed bytes decoded so far
    std::vector<char> out_;
};

}  // namespace kestrel::detail
