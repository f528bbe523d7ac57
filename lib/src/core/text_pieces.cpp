#include "kestrel/core/text_pieces.hpp"

namespace kestrel {

std::vector<std::string> split_text(std::string_view text, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t at = text.find(sep, start);
        parts.emplace_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos) return parts;
        start = at + 1;
    }
}

std::string trim_blanks(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    return std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
}

std::string join_text(const std::vector<std::string>& pieces, std::string_view sep) {
    std::string joined;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (i > 0) joined += sep;
        joined += pieces[i];
    }
    return joined;
}

std::string plural(long long n, const std::string& word) {
    const bool sibilant = !word.empty() && (word.back() == 's' || word.back() == 'x');
    return std::to_string(n) + " " + word + (n == 1 ? "" : sibilant ? "es" : "s");
}

}  // namespace kestrel
