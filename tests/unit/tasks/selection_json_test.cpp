// A feature selection's JSON through the task floor (kestrel/tasks/selection_json.hpp): a
// program running sequential_selection gets kestrel-select --json's object, the reason it
// stopped in the library's words where the command prints its flags.
#include "kestrel/tasks/selection_json.hpp"

#include <doctest/doctest.h>

#include "cli/run_in_process.hpp"
#include "common/flag_spelling.hpp"
#include "unit/tasks/command_rows.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_selection_json_test {

using namespace kestrel;

TEST_CASE("sequential_selection_json: kestrel-select's JSON") {
    const std::string file = test::repo_path("data/iris/train.csv");
    const auto run =
        test::run(cli::run_select, "kestrel-select", {"-m", "logistic", "--max-features", "2", "--json", file});
    REQUIRE_MESSAGE(run.code == 0, run.err);
    const Json command = Json::parse(run.out);

    const auto [spec, data] = test::command_rows(file, "logistic");
    SelectionOptions opts;
    opts.max_features = 2;
    Context ctx;
    ctx.seed = 1;
    const SelectionResult r = sequential_selection(spec, data, opts, ctx);
    Json library = sequential_selection_json(r, "logistic", data, opts, 1);
    CHECK(library.at("stop") == r.stop.text());
    CHECK(library.at("method") == "forward");
    CHECK(library.at("selected") == library.at("trajectory").back().at("features"));  // the last step's features
    library["stop"] = r.stop.respelled(cli::flag_spelling);
    CHECK(library == command);
}

TEST_CASE("feature_names_json: the columns by name") {
    CHECK(feature_names_json({2, 0}, {"a", "b", "c"}) == Json::array({"c", "a"}));
    CHECK(feature_names_json({}, {"a"}) == Json::array());
}

}  // namespace unit_tasks_selection_json_test
}  // namespace
