#pragma once
// LIBSVM / SVMlight sparse format: "label idx:val idx:val ... # comment", 1-based
// strictly increasing indices, stored as a sparse row-major matrix.
#include <string_view>

#include "kestrel/io/read_options.hpp"

namespace kestrel {

Table read_libsvm(std::string_view text, const std::string& source, const ReadOptions& opts);

}  // namespace kestrel
