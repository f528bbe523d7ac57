#pragma once
// The commands' spelling of the library's options. Library errors name an option by its
// library name ("calibrate_folds", kestrel/core/error.hpp); the commands print the flag
// that sets it ("--calibrate-folds") in its place.
#include <string>

#include "kestrel/core/error.hpp"

namespace kestrel::cli {

// The flag the commands set the library option `key` with ("repeats" -> "--repeat"), or
// "" for an option no flag sets (the message then keeps the library's word).
std::string flag_spelling(const std::string& key);

// The message a command prints for a library error: what() with each option it names
// spelled as its flag.
std::string command_message(const Error& e);

}  // namespace kestrel::cli
