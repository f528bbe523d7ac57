// A search's answer as text (kestrel/tasks/search_text.hpp), hand-made results.
#include "kestrel/tasks/search_text.hpp"

#include <doctest/doctest.h>

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_search_text_test {

using namespace kestrel;

namespace {

GridPointResult point(const std::string& c, int rank, double mean, double std, double fit) {
    GridPointResult p;
    p.point = {{"C", c}};
    p.rank = rank;
    p.score.mean = mean;
    p.score.std = std;
    p.fit_seconds = fit;
    return p;
}

}  // namespace

TEST_SUITE("tasks") {
    TEST_CASE("search_points_text: rank, the axes, mean, std, fit seconds; at most max_rows") {
        GridAxis c;
        c.name = "C";
        GridSearchResult r;
        r.points = {point("10", 1, 0.9, 0.01, 0.0125), point("0.1", 2, 0.85, 0.02, 0.002)};
        CHECK(search_points_text(r, {c}, 25) ==
              " rank    C        mean       std     fit_s\n"
              "    1   10      0.9000    0.0100     0.013\n"
              "    2  0.1      0.8500    0.0200     0.002\n");
        CHECK(search_points_text(r, {c}, 1).find("0.1") == std::string::npos);
    }

    TEST_CASE("splits_text and search_rounds_text") {
        SplitOptions s;
        s.k = 5;
        CHECK(splits_text(s, 5) == "5 folds");
        s.repeats = 2;
        CHECK(splits_text(s, 10) == "5 folds x 2 repeats");
        s.scheme = CvScheme::leave_one_out;
        CHECK(splits_text(s, 120) == "leave-one-out (120 folds)");
        s.scheme = CvScheme::shuffle_split;
        CHECK(splits_text(s, 1) == "1 shuffle-split");
        GridSearchResult r;
        r.points = {point("1", 1, 0.9, 0, 0), point("2", 2, 0.8, 0, 0), point("3", 3, 0.7, 0, 0)};
        r.fitted_points = 1;
        const ErrorText text = search_rounds_text(r);
        CHECK(text.text() == "2 points taken from known, 1 fitted now\n\n");
        CHECK(text.respelled([](const std::string& k) { return k == "known" ? "--resume" : ""; }) ==
              "2 points taken from --resume, 1 fitted now\n\n");
        r.fitted_points = 3;
        CHECK(search_rounds_text(r).text().empty());
    }
}

}  // namespace unit_tasks_search_text_test
}  // namespace
