// Library errors name options by the library's name and mark where (ErrorText), so that a
// command can put its flag there; the text itself never depends on a command.
#include "kestrel/core/error.hpp"

#include <doctest/doctest.h>

#include <string>

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_core_error_test {

using namespace kestrel;

namespace {

std::string upper_spelling(const std::string& key) {
    return key == "no_flag" ? std::string() : "<" + key + ">";
}

}  // namespace

TEST_CASE("error text: option_named marks the option, concatenation keeps the marks in place") {
    const ErrorText t = "a " + option_named("repeats") + " and " + option_named("permutation_importance.repeats") + "!";
    CHECK(t.text() == "a repeats and repeats!");
    REQUIRE(t.mentions().size() == 2);
    CHECK(t.mentions()[0].at == 2);
    CHECK(t.mentions()[0].key == "repeats");
    CHECK(t.mentions()[1].at == 14);
    CHECK(t.mentions()[1].length == 7);
    CHECK(t.mentions()[1].key == "permutation_importance.repeats");
    CHECK(t.respelled(upper_spelling) == "a <repeats> and <permutation_importance.repeats>!");
}

TEST_CASE("error text: an option without a spelling keeps the library's word") {
    const ErrorText t = option_named("no_flag") + " 3: " + option_named("k");
    CHECK(t.respelled(upper_spelling) == "no_flag 3: <k>");
    CHECK(ErrorText("plain").respelled(upper_spelling) == "plain");
}

TEST_CASE("errors: what() is the library's text; text() gives the marks back, across copies and prefixes") {
    try {
        throw UsageError(option_named("test_fraction") + " 1.5: must be strictly between 0 and 1");
    } catch (const Error& e) {
        CHECK(std::string(e.what()) == "test_fraction 1.5: must be strictly between 0 and 1");
        CHECK(e.code() == ExitCode::usage);
        const Error copy = e;
        CHECK(copy.text().respelled(upper_spelling) == "<test_fraction> 1.5: must be strictly between 0 and 1");
        const DataError wrapped(SourceLocation{"f.csv", 3, 0}, "in " + copy.text());
        CHECK(std::string(wrapped.what()) == "f.csv:3: in test_fraction 1.5: must be strictly between 0 and 1");
        CHECK(wrapped.text().respelled(upper_spelling) ==
              "f.csv:3: in <test_fraction> 1.5: must be strictly between 0 and 1");
    }
    const ParamError plain("C: must be > 0");
    CHECK(plain.text().text() == "C: must be > 0");
    CHECK(plain.text().mentions().empty());
}

TEST_CASE("errors: a saved state that cannot be read is bad input, not a model file error") {
    const ModelStateError e("gbdt tree 3: node 7 has no children");
    CHECK(e.code() == ExitCode::bad_input);
    CHECK(dynamic_cast<const ModelFileError*>(static_cast<const Error*>(&e)) == nullptr);
}

}  // namespace unit_core_error_test
}  // namespace
