#include "kestrel/core/shown_text.hpp"

namespace kestrel {

std::string shown_text(std::string_view text, std::size_t max_bytes) {
    static const char hex[] = "0123456789abcdef";
    std::size_t cut = text.size();
    if (cut > max_bytes) {
        cut = max_bytes;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    }
    std::string out;
    out.reserve(cut + 16);
    for (std::size_t i = 0; i < cut; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        // C1 controls (U+0080..U+009F, CSI among them) are 0xC2 0x80..0x9F in UTF-8.
        const bool c1 = c == 0xC2 && i + 1 < cut && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                        static_cast<unsigned char>(text[i + 1]) <= 0x9F;
        if (c < 0x20 || c == 0x7f || c1) {
            const std::size_t n = c1 ? 2 : 1;
            for (std::size_t k = 0; k < n; ++k) {
                const auto b = static_cast<unsigned char>(text[i + k]);
                out += "\\x";
                out += hex[b >> 4];
                out += hex[b & 15];
            }
            i += n - 1;
        } else {
            out += static_cast<char>(c);
        }
    }
    if (cut < text.size()) out += "...(" + std::to_string(text.size()) + " bytes)";
    return out;
}

std::string safe_message(std::string_view message, std::size_t max_bytes) { return shown_text(message, max_bytes); }

}  // namespace kestrel
