// Options given as "name=value" texts (the C interface's, kestrel/tasks/option_assignments.hpp)
// set what the commands' flags set, with the same checks, and are named in messages by the
// library's names.
#include "kestrel/tasks/option_assignments.hpp"

#include <doctest/doctest.h>

#include "kestrel/core/error.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_option_assignments_test {

using namespace kestrel;

TEST_CASE("read options by name set the training data's options, the commands' defaults otherwise") {
    const TrainingDataOptions plain = training_options_from_assignments("t.csv", {});
    CHECK(plain.path == "t.csv");
    CHECK(plain.read.missing == MissingPolicy::keep);  // as the commands' missing=auto
    const TrainingDataOptions o = training_options_from_assignments(
        "t.csv", {"format=csv", "header=false", "label_col=3", "delimiter=tab", "missing=drop",
                  "categorical_columns=a,b", "max_rows=10", "max_memory=2K", "weights_col=w", "group_col=q"});
    CHECK(o.read.format == FileFormat::csv);
    CHECK_FALSE(o.read.header);
    CHECK(o.read.label_col == "3");
    CHECK(o.read.delimiter == '\t');
    CHECK(o.read.missing == MissingPolicy::drop);
    CHECK(o.read.categorical_columns == std::vector<std::string>{"a", "b"});
    CHECK(o.read.max_rows == 10);
    CHECK(o.read.max_memory == 2048);
    CHECK(o.weights_column == "w");
    CHECK(o.group_column == "q");
}

TEST_CASE("a read option refused names itself by its library name") {
    CHECK_THROWS_WITH_AS(training_options_from_assignments("t", {"max_rows=1.5"}),
                         "max_rows 1.5: not a whole number from 0 to 9223372036854775807", UsageError);
    CHECK_THROWS_WITH_AS(training_options_from_assignments("t", {"header=maybe"}),
                         "header must be true or false, got 'maybe'", UsageError);
    CHECK_THROWS_WITH_AS(training_options_from_assignments("t", {"max_rows=1", "max_rows=2"}), "max_rows given twice",
                         UsageError);
    CHECK_THROWS_WITH_AS(training_options_from_assignments("t", {"rows=1"}),
                         doctest::Contains("unknown read option 'rows' (known: format, header,"), UsageError);
}

TEST_CASE("a model's preparation options make the spec kestrel-train's flags make") {
    const ModelSpec s = model_spec_from_assignments(
        "logistic", {"C=2"}, {"scale=standard", "poly=2", "missing=mean", "task=classification", "calibrate=sigmoid"});
    CHECK(s.model == "logistic");
    CHECK(s.params["C"] == "2");
    CHECK(s.resolved != nullptr);
    // The poly step goes before the scaling, as set_poly_step places it for --poly.
    REQUIRE(s.preprocessing.size() == 2);
    CHECK(s.preprocessing[0].rfind("poly", 0) == 0);
    CHECK(s.preprocessing[1] == "standard");
    CHECK(s.missing == "mean");
    CHECK(s.task == Task::classification);
    CHECK(s.calibrate == "sigmoid");
}

TEST_CASE("a model's options and parameters are checked as the commands check them") {
    CHECK_THROWS_AS(model_spec_from_assignments("logistic", {"C=-1"}, {}), ParamError);
    CHECK_THROWS_AS(model_spec_from_assignments("nosuch", {}, {}), UsageError);
    CHECK_THROWS_WITH_AS(model_spec_from_assignments("logistic", {}, {"scale=zscore"}),
                         "scale must be none, standard or minmax, got 'zscore'", UsageError);
    CHECK_THROWS_WITH_AS(model_spec_from_assignments("logistic", {}, {"poly.interaction_only=true"}),
                         "interaction_only applies to poly, which is not given", UsageError);
    CHECK_THROWS_AS(model_spec_from_assignments("logistic", {}, {"calibrate_folds=3"}), UsageError);
}

}  // namespace unit_tasks_option_assignments_test
}  // namespace
