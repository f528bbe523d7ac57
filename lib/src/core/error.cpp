#include "kestrel/core/error.hpp"

namespace kestrel {

std::string SourceLocation::to_string() const {
    std::string s = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
        s += ':' + std::to_string(line);
        if (column > 0) s += ':' + std::to_string(column);
    }
    return s;
}

}  // namespace kestrel
