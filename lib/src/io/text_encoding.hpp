#pragma once
// kestrel reads text as UTF-8. Feature names and class labels end up in model files
// and JSON reports, which must be valid UTF-8; a Latin-1 file would otherwise train
// and then fail when the model is saved, so the readers refuse it up front.
#include <string>
#include <string_view>

#include "kestrel/io/read_options.hpp"

namespace kestrel::detail {

// Whether `text` is well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF).
bool is_utf8(std::string_view text);

// Throws DataError naming the first feature name, category or label (file:line) that is not UTF-8.
void require_utf8_text(const Table& table, const std::string& source);

}  // namespace kestrel::detail
