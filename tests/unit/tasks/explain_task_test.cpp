// kestrel-explain as a library job (kestrel/tasks/explain_task.hpp): a program explaining a
// saved model on a file gets the command's JSON; refusals in the library's words and as the
// command prints them.
#include "kestrel/tasks/explain_task.hpp"

#include <doctest/doctest.h>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "command_error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_explain_task_test {

using namespace kestrel;

TEST_SUITE("tasks") {
    TEST_CASE("explain_table: the command's JSON from the library, importance, SHAP and ICE") {
        const test::ScratchDir dir("explain_task");
        const std::string train = test::repo_path("data/iris/train.csv"), rows = test::repo_path("data/iris/test.csv");
        const std::string model_file = dir.path / "iris.json";
        REQUIRE(test::run(cli::run_train, "kestrel-train", {"-q", "-m", "logistic", train, "-o", model_file}).code == 0);
        const auto command = test::run(cli::run_explain, "kestrel-explain",
                                       {model_file, rows, "--importance", "--shap-summary", "--ice", "petal_length",
                                        "--ice-rows", "5", "--grid-resolution", "7", "--json", "--seed", "3"});
        REQUIRE_MESSAGE(command.code == 0, command.err);

        const Model model = Model::load(model_file);
        ExplainRequest request;
        request.importance = request.shap_summary = true;
        request.ice = "petal_length";
        request.ice_rows = 5;
        request.grid_resolution = 7;
        check_explain_request(request);
        check_explainable(model, request);
        const Table t = read_table(rows, explain_read_options(model, ReadOptions{}, request));
        Context ctx;
        ctx.seed = 3;
        const Explanations e = explain_table(model, t, request, ctx);
        REQUIRE(e.curves.size() == 1);
        CHECK(e.curves[0].ice);
        CHECK(e.curves[0].pd.ice_rows.size() == 5);
        Json library = {{"model", model.model_name()}, {"data", t.source}, {"rows", t.X.rows()}, {"seed", 3}};
        library.update(explanations_json(e, model.input_names(), request.repeats));
        CHECK(library == Json::parse(command.out));
    }

    TEST_CASE("explain requests: refusals name the options") {
        ExplainRequest nothing;
        CHECK_THROWS_WITH_AS(check_explain_request(nothing),
                             "nothing to explain: give importance, pdp COL, ice COL or shap_summary", UsageError);
        CHECK_COMMAND_THROWS_WITH_AS(check_explain_request(nothing),
                                     "nothing to explain: give --importance, --pdp COL, --ice COL or --shap-summary",
                                     UsageError);
        ExplainRequest metric_alone;
        metric_alone.shap_summary = true;
        metric_alone.metric = "accuracy";
        CHECK_COMMAND_THROWS_WITH_AS(check_explain_request(metric_alone),
                                     "--metric applies to --importance, which is not given", UsageError);
    }
}

}  // namespace unit_tasks_explain_task_test
}  // namespace
