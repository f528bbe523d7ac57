// Cross-validation's answers as data (kestrel/tasks/cv_report.hpp): a program running
// cross_validate gets kestrel-cv's JSON and --predictions CSV bytes; group ids numbered as
// numpy.unique numbers them.
#include "kestrel/tasks/cv_report.hpp"

#include <doctest/doctest.h>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "unit/tasks/command_rows.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_cv_report_test {

using namespace kestrel;

TEST_CASE("cv_report: kestrel-cv's JSON and prediction CSV from the library") {
    const test::ScratchDir dir("cv_report");
    const std::string file = test::repo_path("data/iris/train.csv");
    const std::string predictions = dir.path / "folds.csv";
    const auto run = test::run(cli::run_cv, "kestrel-cv",
                               {"-m", "logistic", "-k", "3", "--repeat", "2", "--predictions", predictions, "--json", file});
    REQUIRE_MESSAGE(run.code == 0, run.err);
    const Json command = Json::parse(run.out);

    const auto [spec, data] = test::command_rows(file, "logistic");
    CvOptions opts;
    opts.k = 3;
    opts.repeats = 2;
    Context ctx;
    ctx.seed = 1;
    const CvResult r = cross_validate(spec, data, opts, ctx);

    CHECK(fold_predictions_csv(data, r, opts) == test::slurp(predictions));
    const Json scheme = cv_scheme_json(opts);
    CHECK(scheme.at("k") == 3);
    CHECK(scheme.at("repeats") == 2);
    CHECK(scheme.at("scheme") == command.at("scheme"));
    const Json scores = cv_scores_json(r, data.task);
    CHECK(scores.at("metrics") == command.at("metrics"));
    CHECK(scores.at("out_of_fold") == command.at("out_of_fold"));
    CHECK_FALSE(scores.contains("rounds"));  // logistic does not stop early
}

TEST_CASE("group_ids: 0..g-1 in sorted order, numeric when every value is a number") {
    CHECK(group_ids({"b", "a", "c", "a"}) == std::vector<Index>{1, 0, 2, 0});
    CHECK(group_ids({"10", "9", "10.0", "2"}) == std::vector<Index>{2, 1, 2, 0});  // 10 and 10.0 are one group
    CHECK(group_ids({"10", "9", "x"}) == std::vector<Index>{0, 1, 2});             // as text: "10" < "9" < "x"
    CHECK(group_ids({}).empty());
}

TEST_CASE("cv_report: kestrel-cv's text table and title are the library's") {
    const std::string file = test::repo_path("data/iris/train.csv");
    const auto run = test::run(cli::run_cv, "kestrel-cv", {"-m", "logistic", "-k", "3", file});
    REQUIRE_MESSAGE(run.code == 0, run.err);
    const auto [spec, data] = test::command_rows(file, "logistic");
    CvOptions opts;
    opts.k = 3;
    Context ctx;
    ctx.seed = 1;
    const CvResult r = cross_validate(spec, data, opts, ctx);
    const std::string table = cv_scores_text(r);
    // "balanced_accuracy" (17 letters) sets the first column's width.
    CHECK(table.rfind("metric                   mean       std       f1       f2       f3\n", 0) == 0);
    CHECK(run.out.find("3-fold cross-validation of logistic on ") == 0);
    CHECK(run.out.find("\n\n" + table + "\n") != std::string::npos);
    CHECK(cv_about_json(spec, data, opts, 1) ==
          Json::parse(R"({"model": "logistic", "task": "classification", "rows": )" + std::to_string(data.rows()) +
                      R"(, "seed": 1, "scheme": "3-fold", "k": 3, "repeats": 1})"));
}

TEST_CASE("cv_title names each scheme") {
    SplitOptions s;
    s.k = 5;
    CHECK(cv_title(s) == "5-fold cross-validation");
    s.repeats = 2;
    CHECK(cv_title(s) == "5-fold cross-validation x 2 repeats");
    s.scheme = CvScheme::shuffle_split;
    s.shuffle_splits = 4;
    s.test_fraction = 0.25;
    CHECK(cv_title(s) == "shuffle-split cross-validation (4 splits, test fraction 0.25)");
    s.scheme = CvScheme::leave_one_out;
    CHECK(cv_title(s) == "leave-one-out cross-validation");
}

}  // namespace unit_tasks_cv_report_test
}  // namespace
