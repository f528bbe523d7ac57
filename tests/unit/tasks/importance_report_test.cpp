// Permutation importance as the front ends report it (kestrel/tasks/importance_report.hpp):
// the order and JSON on a hand-made result, and the label column's refusals in the
// library's words and as a command prints them.
#include "kestrel/tasks/importance_report.hpp"

#include <doctest/doctest.h>

#include "common/flag_spelling.hpp"
#include "test_data.hpp"
#include "unit/tasks/command_rows.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_importance_report_test {

using namespace kestrel;

TEST_SUITE("tasks") {
    TEST_CASE("importance_order and importance_json: decreasing mean, ties in input order") {
        PermutationImportance p;
        p.baseline = 0.9;
        p.mean = Eigen::Vector3d(0.1, 0.3, 0.1);
        p.std = Eigen::Vector3d(0.01, 0.02, 0.03);
        CHECK(importance_order(p) == std::vector<Index>{1, 0, 2});
        const Json j = importance_json(p, {"a", "b", "c"}, "accuracy", 5);
        CHECK(j.dump() == R"({"baseline":0.9,"importances":[{"feature":"b","mean":0.3,"std":0.02},)"
                          R"({"feature":"a","mean":0.1,"std":0.01},{"feature":"c","mean":0.1,"std":0.03}],)"
                          R"("metric":"accuracy","repeats":5})");
    }

    TEST_CASE("labelled_targets: a table without labels, named in the library's words and the command's") {
        const auto [spec, data] = test::command_rows(test::repo_path("data/iris/train.csv"), "logistic");
        const Model model = Model::train(spec, data, Context{});
        Table unlabelled;
        unlabelled.source = "rows.csv";
        unlabelled.X = data.X;
        try {
            (void)labelled_targets(model, unlabelled, option_named("importance"));
            FAIL("no error");
        } catch (const DataError& e) {
            const std::string tail = " needs a label column (the model's is '" + model.label_column().name +
                                     "', not in the file); ";
            CHECK(std::string(e.what()) == "rows.csv: importance" + tail + "label_col names it");
            CHECK(cli::command_message(e) == "rows.csv: --importance" + tail + "--label-col names it");
        }
    }
}

}  // namespace unit_tasks_importance_report_test
}  // namespace
