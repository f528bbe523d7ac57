// gzip (zlib's inflate), member after member: pigz and `cat a.gz b.gz` write several.
#include <zlib.h>

#include <algorithm>
#include <limits>

#include "compression.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel::detail {
namespace {

class GzipDecoder final : public Decoder {
public:
    GzipDecoder() {
        // 15 + 16: the largest window, gzip's header and trailer only (a zlib or raw
        // deflate stream is not a .gz file).
        if (inflateInit2(&z_, 15 + 16) != Z_OK) throw InternalError("gzip: inflateInit2 failed");
    }
    ~GzipDecoder() override { inflateEnd(&z_); }
    GzipDecoder(const GzipDecoder&) = delete;
    GzipDecoder& operator=(const GzipDecoder&) = delete;

    Step run(std::string_view in, char* out, std::size_t out_size, bool /*last*/) override {
        constexpr std::size_t kMaxStep = std::numeric_limits<uInt>::max();
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
        z_.avail_in = static_cast<uInt>(std::min(in.size(), kMaxStep));
        z_.next_out = reinterpret_cast<Bytef*>(out);
        z_.avail_out = static_cast<uInt>(std::min(out_size, kMaxStep));
        const uInt in_before = z_.avail_in, out_before = z_.avail_out;
        Step s;
        // Until the output is full or inflate can make no progress (Z_BUF_ERROR: it wants
        // more input). Called with no input it still hands out text it holds back.
        while (z_.avail_out > 0) {
            const int r = inflate(&z_, Z_NO_FLUSH);
            if (r == Z_STREAM_END) {
                complete_ = true;
                inflateReset(&z_);  // a next member may follow
                continue;
            }
            if (r == Z_BUF_ERROR) break;
            if (r != Z_OK) {
                s.error = z_.msg ? z_.msg : "invalid data";
                break;
            }
            complete_ = false;  // inside a member
        }
        s.consumed = in_before - z_.avail_in;
        s.produced = out_before - z_.avail_out;
        return s;
    }
    bool complete() const override { return complete_; }

private:
    z_stream z_{};
    bool complete_ = true;  // nothing read yet: an empty input is not truncated
};

}  // namespace

std::unique_ptr<Decoder> make_gzip_decoder() { return std::make_unique<GzipDecoder>(); }

}  // namespace kestrel::detail
