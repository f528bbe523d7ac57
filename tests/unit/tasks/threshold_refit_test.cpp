// The threshold tuning and refit through the task floor (kestrel/tasks/threshold_refit.hpp):
// a program tuning on cross_validate's out-of-fold scores and refitting gets kestrel-cv
// --tune-threshold -o's threshold and model bytes; its refusals name the option.
#include "kestrel/tasks/threshold_refit.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "command_error.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/tasks/training_data.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_threshold_refit_test {

using namespace kestrel;

namespace {

ModelSpec logistic_spec() {
    ModelSpec spec;
    spec.model = "logistic";
    resolve_params(spec);
    return spec;
}

Dataset read_as_the_commands_do(const std::string& path, const ModelSpec& spec) {
    TrainingDataOptions o;
    o.path = path;
    o.read.missing = MissingPolicy::keep;
    return read_training_data(o, spec);
}

}  // namespace

TEST_CASE("tune_cv_threshold and refit_with_threshold: kestrel-cv's threshold and model bytes") {
    ::setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
    const test::ScratchDir dir("threshold_refit");
    const std::string file = test::repo_path("data/heart_scale/train.csv");
    const std::string command_model = dir.path / "command.json";
    const auto run = test::run(cli::run_cv, "kestrel-cv",
                               {"-m", "logistic", "--tune-threshold", "recall=0.9", "-o", command_model, "--json", file});
    REQUIRE_MESSAGE(run.code == 0, run.err);
    const Json command = Json::parse(run.out);

    const ModelSpec spec = logistic_spec();
    const Dataset data = read_as_the_commands_do(file, spec);
    Context ctx;
    ctx.seed = 1;
    check_threshold_tuning("recall=0.9", spec, data);
    const CvResult cv = cross_validate(spec, data, CvOptions{}, ctx);
    const TunedThreshold tuned = tune_cv_threshold("recall=0.9", cv, data);
    CHECK(tuned_threshold_json(tuned) == command.at("threshold"));
    CHECK(tuned.threshold.score == "proba");
    CHECK(tuned.choice.recall >= 0.9);
    const std::string library_model = dir.path / "library.json";
    Model refit = refit_with_threshold(spec, data, tuned.threshold, ctx);
    refit.save(library_model);
    CHECK(test::slurp(library_model) == test::slurp(command_model));
    CHECK(refit.threshold()->value == tuned.choice.threshold);
    CHECK(refit.provenance().at("date") == "2023-11-14T22:13:20Z");
    ::unsetenv("SOURCE_DATE_EPOCH");
}

TEST_CASE("check_threshold_tuning: a binary classifier that gives scores") {
    const ModelSpec spec = logistic_spec();
    const Dataset iris = read_as_the_commands_do(test::repo_path("data/iris/train.csv"), spec);
    CHECK_THROWS_WITH_AS(check_threshold_tuning("f1", spec, iris),
                         "tune_threshold needs a binary classifier; the data has 3 classes", UsageError);
    CHECK_COMMAND_THROWS_WITH_AS(check_threshold_tuning("f1", spec, iris),
                                 "--tune-threshold needs a binary classifier; the data has 3 classes", UsageError);
    CHECK_NOTHROW(check_threshold_tuning("", spec, iris));  // nothing to tune
}

}  // namespace unit_tasks_threshold_refit_test
}  // namespace
