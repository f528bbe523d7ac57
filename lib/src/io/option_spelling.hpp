#pragma once
// How a reader's message names an option of ReadOptions: by the caller's spelling when it
// gave ReadOptions::spellings (a command line's flags), else by the parameter's name, so
// that the library's own text names no flag.
#include <string>

#include "kestrel/io/read_options.hpp"

namespace kestrel::detail {

// The option `field` of `spellings`, or `parameter` ("ignore_columns") without spellings.
inline std::string option_called(const ReadOptionSpellings* spellings, std::string ReadOptionSpellings::*field,
                                 const char* parameter) {
    return spellings ? spellings->*field : std::string(parameter);
}

// "(use missing = drop to skip such rows)", or "(use --missing=drop ...)" spelled.
inline std::string missing_drop_hint(const ReadOptionSpellings* spellings) {
    return spellings ? "use " + spellings->missing + "=drop" : std::string("use missing = drop");
}

// The words telling that an unknown category reads as unknown unless it is an error.
inline std::string unknown_category_hint(const ReadOptionSpellings* spellings) {
    return spellings ? "(" + spellings->unknown + " ignore treats it as unknown)"
                     : std::string("(without unknown_category_error it reads as unknown)");
}

}  // namespace kestrel::detail
