// xz (liblzma), stream after stream (`cat a.xz b.xz`, pixz): LZMA_CONCATENATED, so the
// decoder learns the input's end from `last` (LZMA_FINISH).
#include <lzma.h>

#include "compression.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel::detail {
namespace {

const char* lzma_error_text(lzma_ret r) {
    switch (r) {
        case LZMA_FORMAT_ERROR: return "not xz data";
        case LZMA_OPTIONS_ERROR: return "unsupported compression options";
        case LZMA_DATA_ERROR: return "compressed data is corrupt";
        case LZMA_MEM_ERROR: return "out of memory";
        case LZMA_MEMLIMIT_ERROR: return "needs more memory than allowed";
        default: return "invalid data";
    }
}

class XzDecoder final : public Decoder {
public:
    XzDecoder() {
        if (lzma_stream_decoder(&z_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
            throw InternalError("xz: lzma_stream_decoder failed");
    }
    ~XzDecoder() override { lzma_end(&z_); }
    XzDecoder(const XzDecoder&) = delete;
    XzDecoder& operator=(const XzDecoder&) = delete;

    Step run(std::string_view in, char* out, std::size_t out_size, bool last) override {
        z_.next_in = reinterpret_cast<const std::uint8_t*>(in.data());
        z_.avail_in = in.size();
        z_.next_out = reinterpret_cast<std::uint8_t*>(out);
        z_.avail_out = out_size;
        Step s;
        if (!ended_) {
            const lzma_ret r = lzma_code(&z_, last ? LZMA_FINISH : LZMA_RUN);
            if (r == LZMA_STREAM_END) ended_ = true;
            // LZMA_BUF_ERROR: no progress possible; under LZMA_FINISH, the input is truncated
            // (complete() stays false).
            else if (r != LZMA_OK && r != LZMA_BUF_ERROR) s.error = lzma_error_text(r);
        }
        s.consumed = in.size() - z_.avail_in;
        s.produced = out_size - z_.avail_out;
        return s;
    }
    bool complete() const override { return ended_; }

private:
    lzma_stream z_{};  // LZMA_STREAM_INIT: every field zero
    bool ended_ = false;  // LZMA_STREAM_END: the last stream and its padding were whole
};

}  // namespace

std::unique_ptr<Decoder> make_xz_decoder() { return std::make_unique<XzDecoder>(); }

}  // namespace kestrel::detail
