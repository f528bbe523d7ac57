// Cutting and joining short texts (kestrel/core/text_pieces.hpp).
#include "kestrel/core/text_pieces.hpp"

#include <doctest/doctest.h>

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_core_text_pieces_test {

using namespace kestrel;

TEST_SUITE("core") {
    TEST_CASE("split_text keeps empty pieces; join_text puts them back") {
        using V = std::vector<std::string>;
        CHECK(split_text("a,,b", ',') == V{"a", "", "b"});
        CHECK(split_text("", ',') == V{""});
        CHECK(split_text(",", ',') == V{"", ""});
        CHECK(split_text("0.1:1:10", ':') == V{"0.1", "1", "10"});
        CHECK(join_text(V{"a", "", "b"}, ",") == "a,,b");
        CHECK(join_text(V{}, ", ") == "");
        CHECK(join_text(V{"x"}, ", ") == "x");
    }

    TEST_CASE("trim_blanks drops spaces and tabs at the ends only") {
        CHECK(trim_blanks(" \ta b\t ") == "a b");
        CHECK(trim_blanks(" \t ") == "");
        CHECK(trim_blanks("x\n") == "x\n");
    }
}

}  // namespace unit_core_text_pieces_test
}  // namespace
