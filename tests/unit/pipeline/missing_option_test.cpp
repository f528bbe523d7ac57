// The "missing" option split into the reader's policy and the model's
// (kestrel/pipeline/missing_option.hpp), each value of the documented list.
#include "kestrel/pipeline/missing_option.hpp"

#include <doctest/doctest.h>

#include "command_error.hpp"
#include "kestrel/core/error.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_pipeline_missing_option_test {

using namespace kestrel;

TEST_SUITE("pipeline") {
    TEST_CASE("split_missing_option: read-time and model-time shares") {
        const auto check = [](const std::string& given, MissingPolicy read, const std::string& model) {
            CAPTURE(given);
            const MissingOption o = split_missing_option(given);
            CHECK(o.read == read);
            CHECK(o.model == model);
        };
        check("auto", MissingPolicy::keep, "auto");
        check("keep", MissingPolicy::keep, "keep");
        check("error", MissingPolicy::error, "auto");
        check("drop", MissingPolicy::drop, "auto");
        check("mean", MissingPolicy::keep, "mean");
        check("median", MissingPolicy::keep, "median");
        check("most_frequent", MissingPolicy::keep, "most_frequent");
        check("constant:-1.5", MissingPolicy::keep, "constant=-1.5");
    }

    TEST_CASE("split_missing_option: refusals name the option, as the library and a command say it") {
        const std::string tail = ": 'zero' is not one of auto, keep, error, drop, mean, median, most_frequent, "
                                 "constant:VALUE";
        CHECK_THROWS_WITH_AS(split_missing_option("zero"), ("missing" + tail).c_str(), UsageError);
        CHECK_COMMAND_THROWS_WITH_AS(split_missing_option("zero"), "--missing" + tail, UsageError);
        CHECK_THROWS_AS(split_missing_option("constant:abc"), UsageError);
        CHECK_THROWS_AS(split_missing_option("constant:1,2"), UsageError);
    }
}

}  // namespace unit_pipeline_missing_option_test
}  // namespace
