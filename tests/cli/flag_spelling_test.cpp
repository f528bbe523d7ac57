// Library errors name options as the library does; the commands print their flags there
// (apps/common/flag_spelling.cpp): the same bytes as when the library named the flag.
#include "common/flag_spelling.hpp"

#include <doctest/doctest.h>

#include <sstream>

#include "common/cli.hpp"
#include "kestrel/common/splits.hpp"
#include "kestrel/core/error.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_flag_spelling_test {

using namespace kestrel;
using namespace kestrel::cli;

TEST_SUITE("cli.flag_spelling") {
    TEST_CASE("an error naming an option is printed with the command's flag for it") {
        std::ostringstream out, err;
        Io io{out, err};
        const Command body = [](const std::vector<std::string>&, Io&) -> int {
            throw UsageError(option_named("repeats") + " 0: must be at least 1; or " + option_named("k") + " 2");
        };
        CHECK(run_command("kestrel-cv", body, {}, io) == 1);
        CHECK(err.str() == "kestrel-cv: --repeat 0: must be at least 1; or -k 2\n");
    }

    TEST_CASE("the library's own message names no flag; the command's is today's") {
        try {
            (void)leave_one_out(1);
            FAIL("leave_one_out(1) did not throw");
        } catch (const UsageError& e) {
            CHECK(std::string(e.what()) == "leave_one_out: leave-one-out needs at least 2 rows, got 1");
            CHECK(command_message(e) == "--loo: leave-one-out needs at least 2 rows, got 1");
        }
    }

    TEST_CASE("an option no flag sets keeps its name; a message without options is unchanged") {
        CHECK(flag_spelling("no_such_option").empty());
        CHECK(command_message(UsageError(option_named("no_such_option") + ": bad")) == "no_such_option: bad");
        CHECK(command_message(DataError("t.csv:2: ragged row")) == "t.csv:2: ragged row");
    }
}

}  // namespace cli_flag_spelling_test
}  // namespace
