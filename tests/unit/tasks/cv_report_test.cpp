// Cross-validation's answers as data (kestrel/tasks/cv_report.hpp): a program running
// cross_validate gets kestrel-cv's JSON and --predictions CSV bytes; group ids numbered as
// numpy.unique numbers them.
#include "kestrel/tasks/cv_report.hpp"

#include <doctest/doctest.h>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "unit/tasks/command_rows.hpp"
#include "test_data.hpp"

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
