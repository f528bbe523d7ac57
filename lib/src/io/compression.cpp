// Recognising compressed input and the driver shared by its four decoders.
#include "compression.hpp"

#include "kestrel/core/error.hpp"

namespace kestrel::detail {

namespace {

struct CompressionMagic {
    std::string_view magic;
    Compression format;
};
constexpr CompressionMagic kCompressionMagic[] = {{"\x1f\x8b", Compression::gzip},
                                                  {"\x28\xb5\x2f\xfd", Compression::zstd},
                                                  {"\xfd" "7zXZ", Compression::xz},
                                                  {"BZh", Compression::bzip2}};

}  // namespace

Compression compression_of(std::string_view head) {
    for (const auto& m : kCompressionMagic)
        if (head.substr(0, m.magic.size()) == m.magic) return m.format;
    return Compression::none;
}

const char* compression_name(Compression c) {
    switch (c) {
        case Compression::gzip: return "gzip";
        case Compression::zstd: return "zstd";
        case Compression::xz: return "xz";
        case Compression::bzip2: return "bzip2";
        case Compression::none: break;
    }
    return "uncompressed";
}

namespace {

std::unique_ptr<Decoder> make_decoder(Compression c) {
    switch (c) {
        case Compression::gzip: return make_gzip_decoder();
        case Compression::zstd: return make_zstd_decoder();
        case Compression::xz: return make_xz_decoder();
        case Compression::bzip2: return make_bzip2_decoder();
        case Compression::none: break;
    }
    throw InternalError("make_decoder: no decoder for uncompressed input");
}

}  // namespace

Decompressor::Decompressor(Compression c, std::string source)
    : format_(c), source_(std::move(source)), decoder_(make_decoder(c)), out_(std::size_t{256} << 10) {}

void Decompressor::corrupt(std::uint64_t at, const char* why) const {
    throw DataError(source_ + ": corrupt " + compression_name(format_) + " data at compressed byte " +
                    std::to_string(at) + " (" + (why ? why : "invalid data") + ")");
}

void Decompressor::feed(std::string_view in, const Emit& emit) {
    // Until the input is used up and the decoder holds no more text for it (a full output
    // buffer means it may).
    for (;;) {
        const Decoder::Step s = decoder_->run(in, out_.data(), out_.size(), false);
        if (s.error) corrupt(consumed_ + s.consumed, s.error);
        in.remove_prefix(s.consumed);
        consumed_ += s.consumed;
        if (s.produced > 0) emit(std::string_view(out_.data(), s.produced));
        if (s.produced == out_.size()) continue;
        if (in.empty()) return;
        // A decoder that neither takes input nor gives text would loop for ever.
        if (s.consumed == 0 && s.produced == 0) corrupt(consumed_, "the decoder stopped");
    }
}

void Decompressor::finish(const Emit& emit) {
    for (;;) {
        const Decoder::Step s = decoder_->run({}, out_.data(), out_.size(), true);
        if (s.error) corrupt(consumed_, s.error);
        if (s.produced > 0) emit(std::string_view(out_.data(), s.produced));
        if (s.produced < out_.size()) break;
    }
    if (!decoder_->complete())
        throw DataError(source_ + ": truncated " + compression_name(format_) + " data: it ends at compressed byte " +
                        std::to_string(consumed_) + " inside a compressed stream");
}

}  // namespace kestrel::detail
