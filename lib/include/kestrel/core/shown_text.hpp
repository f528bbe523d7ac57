#pragma once
// Text kestrel did not write (a file's field or header, a model name, a parameter value,
// a flag's argument) as it is shown in a message: an error stays one short line that
// never drives the terminal, however long or binary the text (docs/reliability.md).
#include <cstddef>
#include <string>
#include <string_view>

namespace kestrel {

// `text` with control bytes (C0, DEL and C1 written in UTF-8) shown as \xNN, cut after
// `max_bytes` bytes (at a UTF-8 character boundary) with "...(N bytes)" giving its
// whole length. Quote it yourself: "unknown model '" + shown_text(name) + "'".
std::string shown_text(std::string_view text, std::size_t max_bytes = 40);

// The last guard of the executables over a whole message: control bytes escaped as
// above, and a message longer than `max_bytes` cut the same way.
std::string safe_message(std::string_view message, std::size_t max_bytes = 2000);

}  // namespace kestrel
