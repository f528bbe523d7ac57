// Every declared search space (kestrel-auto, kestrel-gridsearch without -g) is valid for
// its model: each axis parses, and points drawn from it resolve against the model's
// parameters, so no run can fail on a space's own typo.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "kestrel/model_selection/auto_search.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/pipeline/search_spaces.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace contract_search_space_test {

using namespace kestrel;

TEST_SUITE("contract") {
    TEST_CASE("every declared search space parses and its drawn points resolve against the model") {
        int declared = 0;
        for (const auto& name : registry().names()) {
            const SearchSpace& space = search_space(name);
            if (!space.declared()) continue;
            ++declared;
            CAPTURE(name);
            CHECK(space.cost >= 1);
            CHECK(space.cost <= 4);
            CHECK((space.max_rows == 0) == space.too_large.empty());
            const auto axes = declared_axes(name);
            ModelSpec base;
            base.model = name;
            for (const auto& point : sample_points(axes, 50, 7)) {
                CAPTURE(point.size());
                ModelSpec s = apply_point(base, point);
                CHECK_NOTHROW(resolve_params(s));
            }
            // Every portfolio entry resolves, and none repeats another.
            std::set<std::string> seen;
            for (const auto& point : declared_portfolio(name)) {
                CAPTURE(point.size());
                ModelSpec s = apply_point(base, point);
                CHECK_NOTHROW(resolve_params(s));
                CHECK(seen.insert(resolved_params(s)->values().dump()).second);
            }
        }
        CHECK(declared >= 10);
        // The families the issue names, for both tasks.
        for (const char* m : {"gbdt", "forest", "logistic", "svc", "ridge", "least_squares", "knn"})
            CHECK(search_space(m).declared());
        // gbdt's first portfolio entry is kestrel-train's defaults: the space's fixed early
        // stopping turned off; the others keep it (they stop on the fold's own hold-out).
        const auto portfolio = declared_portfolio("gbdt");
        REQUIRE(portfolio.size() == 5);
        CHECK(portfolio[0] == GridPoint{{"early_stopping_rounds", "0"}});
        CHECK(portfolio[1] == GridPoint{{"early_stopping_rounds", "20"}, {"learning_rate", "0.05"}, {"n_estimators", "500"}});
        // Each family of the default portfolios brings alternatives to its defaults, least_squares aside.
        for (const char* m : {"gbdt", "forest", "logistic", "svc", "svr", "ridge", "knn", "tree", "linear_svm"})
            CHECK(declared_portfolio(m).size() >= 2);
    }
}

}  // namespace contract_search_space_test
}  // namespace
