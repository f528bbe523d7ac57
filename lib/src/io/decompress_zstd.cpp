// zstd, frame after frame (zstd -T and `cat a.zst b.zst` write several; skippable frames
// are passed over by the library).
#include <zstd.h>

#include "compression.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel::detail {
namespace {

class ZstdDecoder final : public Decoder {
public:
    ZstdDecoder() : z_(ZSTD_createDCtx()) {
        if (!z_) throw InternalError("zstd: ZSTD_createDCtx failed");
    }
    ~ZstdDecoder() override { ZSTD_freeDCtx(z_); }
    ZstdDecoder(const ZstdDecoder&) = delete;
    ZstdDecoder& operator=(const ZstdDecoder&) = delete;

    Step run(std::string_view in, char* out, std::size_t out_size, bool /*last*/) override {
        ZSTD_inBuffer src{in.data(), in.size(), 0};
        ZSTD_outBuffer dst{out, out_size, 0};
        Step s;
        // A call stops at a frame's end, a full output or the input's end: go on until the
        // output is full or a call makes no progress (it wants more input).
        for (;;) {
            const std::size_t in_before = src.pos, out_before = dst.pos;
            const std::size_t r = ZSTD_decompressStream(z_, &dst, &src);
            if (ZSTD_isError(r)) {
                s.error = ZSTD_getErrorName(r);
                break;
            }
            // Without progress the call only says what it wants next (after a frame's end, the
            // next frame's header): that is no news of the frame read.
            if (src.pos == in_before && dst.pos == out_before) break;
            complete_ = r == 0;  // 0: a frame ended and was flushed whole
            if (dst.pos == dst.size) break;
        }
        s.consumed = src.pos;
        s.produced = dst.pos;
        return s;
    }
    bool complete() const override { return complete_; }

private:
    ZSTD_DCtx* z_;
    bool complete_ = true;
};

}  // namespace

std::unique_ptr<Decoder> make_zstd_decoder() { return std::make_unique<ZstdDecoder>(); }

}  // namespace kestrel::detail
