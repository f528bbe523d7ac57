#pragma once
// Cutting a short text (an option's value, a list of names) into pieces and putting
// pieces together: the one copy of what parameter lists, grids, encoders and the
// documentation generator each did by hand.
#include <string>
#include <string_view>
#include <vector>

namespace kestrel {

// The pieces of `text` between each `sep`, empty ones kept: "a,,b" -> {"a", "", "b"};
// "" -> {""}.
std::vector<std::string> split_text(std::string_view text, char sep);

// `text` without the spaces and tabs at its two ends.
std::string trim_blanks(std::string_view text);

// The pieces with `sep` between each two.
std::string join_text(const std::vector<std::string>& pieces, std::string_view sep);

// "1 row", "3 rows", "2 classes": the count and the word, in the plural unless n is 1
// (an -s or -x word takes -es).
std::string plural(long long n, const std::string& word);

}  // namespace kestrel
