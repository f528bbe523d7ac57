// A search as a front end asks for it (kestrel/tasks/search_request.hpp): the axes, the
// refused combinations in the library's words, the metric for the table, the outer split.
#include "kestrel/tasks/search_request.hpp"

#include <doctest/doctest.h>

#include "kestrel/core/error.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_search_request_test {

using namespace kestrel;

TEST_SUITE("tasks") {
    TEST_CASE("search_axes_for: the grid parsed; a parameter fixed by the spec refused; the declared space at random") {
        ModelSpec spec;
        spec.model = "logistic";
        spec.params["C"] = "2";
        SearchRequest request;
        request.grid = {"tol=0.001,0.01"};
        const auto axes = search_axes_for(request, spec);
        REQUIRE(axes.size() == 1);
        CHECK(axes[0].name == "tol");
        CHECK(axes[0].values == std::vector<std::string>{"0.001", "0.01"});
        CHECK(request.n_iter == 0);
        request.grid = {"C=1,2"};
        CHECK_THROWS_WITH_AS(search_axes_for(request, spec), "grid C=1,2: parameter C is also fixed with params",
                             UsageError);
        request.grid.clear();
        CHECK_FALSE(search_axes_for(request, spec).empty());
        CHECK(request.n_iter == kDefaultSearchPoints);
    }

    TEST_CASE("check_search_request: the combinations that cannot run, named as the library names them") {
        SearchRequest r;
        CHECK_NOTHROW(check_search_request(r));
        r.outer_k = 1;
        CHECK_THROWS_WITH_AS(check_search_request(r), "outer 1: nested cross-validation needs at least 2 outer folds",
                             UsageError);
        r.outer_k = 3;
        r.known_file = "scores.csv";
        CHECK_THROWS_WITH_AS(check_search_request(r), "known cannot be combined with outer", UsageError);
        r.outer_k = 0;
        r.halving = true;
        CHECK_THROWS_WITH_AS(check_search_request(r), "known cannot be combined with halving", UsageError);
        r.metric = "no_such_metric";
        CHECK_THROWS_AS(check_search_request(r), UsageError);  // the metric first, as before any other
    }

    TEST_CASE("search_metric_for and outer_split_for") {
        Dataset d;
        d.task = Task::regression;
        SearchRequest r;
        CHECK(search_metric_for(r, d) == "r2");
        r.metric = "accuracy";
        CHECK_THROWS_WITH_AS(search_metric_for(r, d), "metric accuracy is a classification metric, but this is regression",
                             UsageError);
        r.outer_k = 4;
        SplitOptions inner;
        inner.scheme = CvScheme::group_kfold;
        inner.groups = {0, 0, 1, 1};
        const SplitOptions outer = outer_split_for(r, inner);
        CHECK(outer.k == 4);
        CHECK(outer.scheme == CvScheme::group_kfold);
        CHECK(outer.groups == inner.groups);
        CHECK(outer_split_for(r, SplitOptions{}).scheme == CvScheme::kfold);
    }
}

}  // namespace unit_tasks_search_request_test
}  // namespace
