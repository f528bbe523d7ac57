#pragma once
// Library errors name options by the library's names; the commands print their flags in
// those places (apps/common/flag_spelling.cpp). Unit tests that assert a message as the
// user reads it from a command check command_message(e) instead of e.what():
//
//     CHECK_COMMAND_THROWS_WITH_AS(kfold(10, 1, 1), doctest::Contains("-k 1"), UsageError);
#include <doctest/doctest.h>

#include <string>

#include "common/flag_spelling.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel::test {

// The message a command would print for what `body` throws; "" when it throws no Error.
template <class Body>
std::string command_error_of(Body&& body) {
    try {
        body();
    } catch (const Error& e) {
        return cli::command_message(e);
    }
    return {};
}

inline bool command_error_matches(const std::string& message, const char* exact) { return message == exact; }
inline bool command_error_matches(const std::string& message, const std::string& exact) { return message == exact; }
inline bool command_error_matches(const std::string& message, const doctest::Contains& part) {
    return part.checkWith(message.c_str());
}

}  // namespace kestrel::test

// CHECK_THROWS_WITH_AS on the command's message: `expr` throws `type`, and its message,
// with the commands' flags in place of option names, matches `match`.
#define CHECK_COMMAND_THROWS_WITH_AS(expr, match, ...)                                                  \
    do {                                                                                                \
        CHECK_THROWS_AS(expr, __VA_ARGS__);                                                             \
        const std::string kestrel_command_error = ::kestrel::test::command_error_of([&] { (void)(expr); }); \
        CAPTURE(kestrel_command_error);                                                                 \
        CHECK(::kestrel::test::command_error_matches(kestrel_command_error, match));                    \
    } while (false)
