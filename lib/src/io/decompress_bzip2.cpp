// bzip2 (libbz2), stream after stream: pbzip2 and lbzip2 write one per block.
#include <bzlib.h>

#include <algorithm>
#include <limits>

#include "compression.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel::detail {
namespace {

const char* bzip2_error_text(int r) {
    switch (r) {
        case BZ_DATA_ERROR: return "data integrity error";
        case BZ_DATA_ERROR_MAGIC: return "not bzip2 data";
        case BZ_MEM_ERROR: return "out of memory";
        default: return "invalid data";
    }
}

class Bzip2Decoder final : public Decoder {
public:
    Bzip2Decoder() { start(); }
    ~Bzip2Decoder() override { BZ2_bzDecompressEnd(&z_); }
    Bzip2Decoder(const Bzip2Decoder&) = delete;
    Bzip2Decoder& operator=(const Bzip2Decoder&) = delete;

    Step run(std::string_view in, char* out, std::size_t out_size, bool /*last*/) override {
        constexpr std::size_t kMaxStep = std::numeric_limits<unsigned>::max();
        z_.next_in = const_cast<char*>(in.data());
        z_.avail_in = static_cast<unsigned>(std::min(in.size(), kMaxStep));
        z_.next_out = out;
        z_.avail_out = static_cast<unsigned>(std::min(out_size, kMaxStep));
        const unsigned in_before = z_.avail_in, out_before = z_.avail_out;
        Step s;
        while (z_.avail_out > 0) {
            const unsigned in_now = z_.avail_in, out_now = z_.avail_out;
            const int r = BZ2_bzDecompress(&z_);
            if (r == BZ_STREAM_END) {
                complete_ = true;
                restart();  // a next stream may follow
                if (z_.avail_in == 0) break;
                continue;
            }
            if (r != BZ_OK) {
                s.error = bzip2_error_text(r);
                break;
            }
            if (z_.avail_in == in_now && z_.avail_out == out_now) break;  // wants more input
            complete_ = false;
        }
        s.consumed = in_before - z_.avail_in;
        s.produced = out_before - z_.avail_out;
        return s;
    }
    bool complete() const override { return complete_; }

private:
    void start() {
        if (BZ2_bzDecompressInit(&z_, 0, 0) != BZ_OK) throw InternalError("bzip2: BZ2_bzDecompressInit failed");
    }
    // libbz2 has no reset: a new decoder, handed the rest of the buffers.
    void restart() {
        char* next_in = z_.next_in;
        const unsigned avail_in = z_.avail_in;
        char* next_out = z_.next_out;
        const unsigned avail_out = z_.avail_out;
        BZ2_bzDecompressEnd(&z_);
        z_ = bz_stream{};
        start();
        z_.next_in = next_in;
        z_.avail_in = avail_in;
        z_.next_out = next_out;
        z_.avail_out = avail_out;
    }
    bz_stream z_{};
    bool complete_ = true;
};

}  // namespace

std::unique_ptr<Decoder> make_bzip2_decoder() { return std::make_unique<Bzip2Decoder>(); }

}  // namespace kestrel::detail
