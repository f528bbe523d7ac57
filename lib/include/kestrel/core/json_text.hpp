#pragma once
// A model's JSON as text: objects indented one space per level, as dump(1) writes them,
// but an array of numbers (or of such arrays) on one line. A forest's node arrays would
// otherwise take one line per number: several times the bytes to write, read and parse.
#include <string>

#include "kestrel/core/params.hpp"

namespace kestrel {

std::string model_json_text(const Json& j);

}  // namespace kestrel
