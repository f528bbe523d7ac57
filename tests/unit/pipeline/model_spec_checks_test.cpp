// The rules among a ModelSpec's preparation options (kestrel/pipeline/model_spec_checks.hpp):
// the library names its options, the commands their flags.
#include "kestrel/pipeline/model_spec_checks.hpp"

#include <doctest/doctest.h>

#include "command_error.hpp"
#include "kestrel/core/error.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_pipeline_model_spec_checks_test {

using namespace kestrel;

TEST_CASE("check_model_spec: options that go with another") {
    ModelSpec spec;
    spec.model = "logistic";
    CHECK_NOTHROW(check_model_spec(spec));
    SUBCASE("a missing indicator needs an imputer") {
        spec.missing_indicator = true;
        CHECK_THROWS_WITH_AS(check_model_spec(spec),
                             "missing_indicator goes with an imputer: missing mean, median, most_frequent or "
                             "constant:VALUE",
                             UsageError);
        CHECK_COMMAND_THROWS_WITH_AS(check_model_spec(spec),
                                     "--missing-indicator goes with an imputer: --missing mean, median, most_frequent "
                                     "or constant:VALUE",
                                     UsageError);
        spec.missing = "median";
        CHECK_NOTHROW(check_model_spec(spec));
    }
    SUBCASE("at least two categories kept") {
        spec.max_categories = 1;
        CHECK_COMMAND_THROWS_WITH_AS(check_model_spec(spec), "--max-categories must be 0 (no limit) or at least 2",
                                     UsageError);
        spec.max_categories = 2;
        CHECK_NOTHROW(check_model_spec(spec));
    }
    SUBCASE("calibration folds without calibration") {
        spec.calibrate_folds = 3;
        CHECK_THROWS_WITH_AS(check_model_spec(spec), "calibrate_folds goes with calibrate", UsageError);
        CHECK_COMMAND_THROWS_WITH_AS(check_model_spec(spec), "--calibrate-folds goes with --calibrate", UsageError);
        spec.calibrate = "sigmoid";
        CHECK_NOTHROW(check_model_spec(spec));
    }
}

}  // namespace unit_pipeline_model_spec_checks_test
}  // namespace
