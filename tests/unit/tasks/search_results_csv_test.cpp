// A search's results CSV (kestrel/tasks/search_results_csv.hpp) read back as the points it
// scored, and refused, naming the option, when it was scored otherwise.
#include "kestrel/tasks/search_results_csv.hpp"

#include <doctest/doctest.h>

#include "cli/run_tool.hpp"
#include "command_error.hpp"
#include "kestrel/core/error.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_search_results_csv_test {

using namespace kestrel;

namespace {

GridPointResult scored_point(const std::string& C, const std::string& kernel, double mean, int rank) {
    GridPointResult p;
    p.point = {{"C", C}, {"kernel", kernel}};
    p.score.mean = mean;
    p.score.std = 0.125;
    p.fold_scores = {mean - 0.25, mean + 0.25};
    p.fit_seconds = 0.5;
    p.rank = rank;
    return p;
}

}  // namespace

TEST_CASE("results_csv and read_results_csv: the points a search scored, written and read back") {
    const test::ScratchDir dir("search_results_csv");
    const std::vector<GridAxis> axes = {{"C", {"1", "10"}}, {"kernel", {"rbf", "a,b"}}};
    GridSearchResult r;
    r.metric = "accuracy";
    r.points = {scored_point("10", "a,b", 0.75, 1), scored_point("1", "rbf", 0.5, 2)};
    const std::string csv = results_csv(r, axes);
    CHECK(csv ==
          "rank,C,kernel,mean_accuracy,std_accuracy,mean_fit_seconds,fold1,fold2\n"
          "1,10,\"a,b\",0.75,0.125,0.5,0.5,1\n"
          "2,1,rbf,0.5,0.125,0.5,0.25,0.75\n");
    const std::string path = dir.file("results.csv", csv);
    const auto known = read_results_csv(path, axes, "accuracy", 2);
    REQUIRE(known.size() == 2);
    CHECK(known[0].point == r.points[0].point);
    CHECK(known[0].score.mean == 0.75);
    CHECK(known[1].fold_scores == std::vector<double>{0.25, 0.75});
    CHECK(known[1].resumed);
    const std::string other_metric = "known " + path + ": scored with metric accuracy, this search uses f1_macro";
    CHECK_THROWS_WITH_AS(read_results_csv(path, axes, "f1_macro", 2), other_metric.c_str(), UsageError);
    CHECK_COMMAND_THROWS_WITH_AS(read_results_csv(path, axes, "accuracy", 3),
                                 "--resume " + path + ": scored with 2 splits, this search has 3", UsageError);
    CHECK_COMMAND_THROWS_WITH_AS(read_results_csv(path, {axes[1], axes[0]}, "accuracy", 2),
                                 "--resume " + path +
                                     ": column 2 is 'C', expected 'kernel' (the same -g axes, in the same order)",
                                 UsageError);
}

}  // namespace unit_tasks_search_results_csv_test
}  // namespace
