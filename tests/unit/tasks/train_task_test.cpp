// Training through the task floor (kestrel/tasks/train_task.hpp): a program with a plain
// TrainRequest gets kestrel-train's model bytes and summary on the same file, and its
// refusals name the request's options where the command names its flags.
#include "kestrel/tasks/train_task.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "command_error.hpp"
#include "kestrel/core/error.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_train_task_test {

using namespace kestrel;

namespace {

// The one field of a model file that varies between runs is its date: pinned.
struct PinnedDate {
    PinnedDate() { ::setenv("SOURCE_DATE_EPOCH", "1700000000", 1); }
    ~PinnedDate() { ::unsetenv("SOURCE_DATE_EPOCH"); }
};

ModelSpec spec_of(const std::string& model, std::vector<std::string> params = {}) {
    ModelSpec spec;
    spec.model = model;
    for (const auto& p : params) {
        const auto eq = p.find('=');
        spec.params[p.substr(0, eq)] = p.substr(eq + 1);
    }
    resolve_params(spec);
    return spec;
}

// What kestrel-train reads a file with when given no data flags.
TrainingDataOptions command_like_data(const std::string& path) {
    TrainingDataOptions o;
    o.path = path;
    o.read.missing = MissingPolicy::keep;
    return o;
}

std::string command_model_bytes(const test::ScratchDir& dir, const std::vector<std::string>& train_args) {
    const std::string path = dir.path / "command.json";
    std::vector<std::string> args = train_args;
    args.insert(args.end(), {"-o", path, "-q"});
    const auto r = test::run(cli::run_train, "kestrel-train", args);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return test::slurp(path);
}

std::string library_model_bytes(const test::ScratchDir& dir, const TrainResult& r) {
    const std::string path = dir.path / "library.json";
    r.model.save(path);
    return test::slurp(path);
}

}  // namespace

TEST_CASE("train_model: kestrel-train's model bytes and summary facts") {
    const PinnedDate pinned;
    const test::ScratchDir dir("train_task");
    SUBCASE("logistic on iris's CSV") {
        const std::string file = test::repo_path("data/iris/train.csv");
        TrainRequest request{.spec = spec_of("logistic")};
        request.data = command_like_data(file);
        TrainResult r = train_model(request, Context{});
        CHECK(library_model_bytes(dir, r) == command_model_bytes(dir, {"-m", "logistic", file}));
        CHECK(r.model_name == "logistic");
        CHECK(r.task == Task::classification);
        CHECK(r.task_label == "classification");
        CHECK(r.classes.size() == 3);
        CHECK(r.cols == 4);
        CHECK(r.rows == r.model.provenance().at("rows").get<Index>());
        CHECK(r.model.provenance().at("data_file") == file);
        CHECK(r.model.provenance().at("date") == "2023-11-14T22:13:20Z");
        CHECK(r.c_search.is_null());
        const Json j = train_summary_json(r, "m.json");
        CHECK(j.at("model") == "logistic");
        CHECK(j.at("rows") == r.rows);
        CHECK(j.at("features") == 4);
        CHECK(j.at("output") == "m.json");
        CHECK(j.at("categorical_features") == 0);
    }
    SUBCASE("gbdt on heart_scale's LIBSVM rows, watching a validation file, with its trace") {
        const std::string file = test::repo_path("data/heart_scale/train.libsvm");
        const std::string valid = test::repo_path("data/heart_scale/test.libsvm");
        TrainRequest request{.spec = spec_of("gbdt", {"n_estimators=15", "early_stopping_rounds=3"})};
        request.data = command_like_data(file);
        request.data.validation_files = {valid};
        request.reports.trace = true;
        TrainResult r = train_model(request, Context{});
        const std::string trace = dir.path / "trace.csv";
        CHECK(library_model_bytes(dir, r) ==
              command_model_bytes(dir, {"-m", "gbdt", "-p", "n_estimators=15", "-p", "early_stopping_rounds=3", file,
                                        "--valid", valid, "--trace", trace}));
        CHECK(r.trace_csv == test::slurp(trace));
        CHECK(r.trace_csv.find("validation_0") != std::string::npos);
        CHECK(r.path_csv.empty());
        CHECK(r.tree_text.empty());
    }
}

TEST_CASE("check_train_request: what the model cannot do, named by option") {
    TrainRequest request{.spec = spec_of("ridge")};
    request.data.path = "unread.csv";  // refused before any file is read
    SUBCASE("a report the model has not") {
        request.reports.path = true;
        CHECK_THROWS_WITH_AS(check_train_request(request), "path: model ridge has no path output", UsageError);
        CHECK_COMMAND_THROWS_WITH_AS(check_train_request(request), "--path: model ridge has no path output",
                                     UsageError);
    }
    SUBCASE("validation files for a model that watches none") {
        request.data.validation_files = {"v.csv"};
        CHECK_COMMAND_THROWS_WITH_AS(check_train_request(request),
                                     "--valid: model ridge does not watch validation sets (gbdt does, without -p "
                                     "multiclass=ovr|ovo|ecoc)",
                                     UsageError);
    }
    SUBCASE("a sharded fit with calibration") {
        request.spec.calibrate = "sigmoid";
        request.shard = true;
        CHECK_THROWS_WITH_AS(train_model(request, Context{}), "shard: calibrate is not supported with a sharded fit",
                             UsageError);
        CHECK_COMMAND_THROWS_WITH_AS(check_train_request(request),
                                     "--shard: --calibrate is not supported with a sharded fit", UsageError);
    }
}

}  // namespace unit_tasks_train_task_test
}  // namespace
