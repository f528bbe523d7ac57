#pragma once
// The cells the text readers read as missing (docs/tables.md); the ONNX export maps the same
// texts to missing, so it takes them from here.
#include <array>
#include <string_view>

namespace kestrel {

inline constexpr std::array<std::string_view, 7> kMissingTokens{"", "NA", "N/A", "NaN", "nan", "NAN", "?"};

inline bool is_missing_token(std::string_view s) {
    for (std::string_view t : kMissingTokens)
        if (s == t) return true;
    return false;
}

}  // namespace kestrel
