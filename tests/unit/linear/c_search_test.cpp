// `-p C=auto` (LIBLINEAR's -C): the doubling C path with warm-started cross-validation.
#include <doctest/doctest.h>

#include "kestrel/core/error.hpp"
#include "kestrel/linear/c_search.hpp"
#include "kestrel/linear/linear_svm.hpp"
#include "kestrel/linear/linear_svr.hpp"
#include "kestrel/linear/logistic.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_c_search_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

const Dataset& heart() {
    static const Dataset d = load("heart_scale/train.libsvm", Task::classification);
    return d;
}

template <class Model>
std::unique_ptr<Model> fit_registered(const std::string& name, const Dataset& d, const Params& given,
                                      const Context& ctx = Context{}) {
    auto m = make<Model>(registry().info(name), given);
    m->fit(d, ctx);
    return m;
}

// The path's invariants: doubling from the start, best = first C with the best score.
void check_path(const Json& c, double start_C, bool higher_is_better) {
    REQUIRE(c.is_object());
    const Json& path = c.at("path");
    REQUIRE(path.size() >= 2);
    CHECK(path[0]["C"].get<double>() == start_C);
    double best = path[0]["score"].get<double>(), best_C = path[0]["C"].get<double>();
    for (std::size_t i = 1; i < path.size(); ++i) {
        CHECK(path[i]["C"].get<double>() == 2 * path[i - 1]["C"].get<double>());
        const double s = path[i]["score"].get<double>();
        if (higher_is_better ? s > best : s < best) best = s, best_C = path[i]["C"].get<double>();
    }
    CHECK(c["best_C"].get<double>() == best_C);
    CHECK(c["best_score"].get<double>() == best);
    CHECK(path.back()["C"].get<double>() <= 1024.0);
    CHECK(c["folds"] == 5);
}

}  // namespace

TEST_SUITE("linear") {
    TEST_CASE("C=auto: LIBLINEAR's start C is the power of two below 1 / (factor n max ||x||^2)") {
        DenseMatrix X(2, 2);
        X << 1, 2, 0, 3;                                           // max ||x||² = 9
        CHECK(c_search_start(Features(X), 0.0, 1.0) == 0.03125);   // 1/18 -> 2^-5
        CHECK(c_search_start(Features(X), 1.0, 1.0) == 0.03125);   // 1/20 -> 2^-5
        CHECK(c_search_start(Features(X), 1.0, 2.0) == 0.015625);  // 1/40 -> 2^-6
        CHECK(c_search_start(Features(SparseMatrix(X.sparseView())), 0.0, 1.0) == 0.03125);
    }

    TEST_CASE("C=auto: logistic, linear_svm and linear_svr search a doubling path and refit at the best C") {
        const Dataset& d = heart();
        const double start = c_search_start(d.X, 0.0, 1.0);
        for (const char* solver : {"lbfgs", "tron"}) {
            CAPTURE(solver);
            const auto a = fit_registered<LogisticRegression>("logistic", d, {{"C", "auto"}, {"solver", solver}});
            check_path(a->c_search(), start, true);
            // The final model is the plain fit at the chosen C.
            const auto b =
                fit_registered<LogisticRegression>("logistic", d, {{"C", a->c_search()["best_C"]}, {"solver", solver}});
            CHECK(a->coef() == b->coef());
            CHECK(a->report_names() == std::vector<std::string>{"c_search"});
            CHECK(b->report_names().empty());
        }
        // linear_svm primal: the warm-started solver; the bias feature counts in the start C.
        const auto s = fit_registered<LinearSvm>("linear_svm", d, {{"C", "auto"}, {"solver", "primal"}});
        check_path(s->c_search(), c_search_start(d.X, 1.0, 2.0), true);
        const auto t =
            fit_registered<LinearSvm>("linear_svm", d, {{"C", s->c_search()["best_C"]}, {"solver", "primal"}});
        CHECK(s->coef() == t->coef());
        // The same seed gives the same folds and path at any thread count.
        Context two;
        two.threads = 2;
        const auto s2 = fit_registered<LinearSvm>("linear_svm", d, {{"C", "auto"}, {"solver", "primal"}}, two);
        CHECK(s2->c_search() == s->c_search());
        // Regression: mean squared error, lower is better.
        const Dataset& r = diabetes();
        const auto v = fit_registered<LinearSvr>(
            "linear_svr", r, {{"C", "auto"}, {"dual", false}, {"loss", "squared_epsilon_insensitive"}});
        check_path(v->c_search(), c_search_start(r.X, 1.0, 2.0), false);
        CHECK(v->c_search()["metric"] == "mse");
    }

    TEST_CASE("C=auto: the search survives save and load, and C=auto is a valid value only as written") {
        const Dataset& d = heart();
        ModelSpec spec;
        spec.model = "linear_svm";
        spec.params = {{"C", "auto"}, {"multiclass", "crammer_singer"}};
        const Model a = Model::train(spec, d, Context{});
        const Model b = Model::from_json(a.to_json(), "memory");
        CHECK(a.to_json().dump() == b.to_json().dump());
        CHECK(Json::parse(b.report("c_search"))["metric"] == "accuracy");
        CHECK_THROWS_AS(registry().create("logistic", {{"C", "automatic"}}), ParamError);
        CHECK_THROWS_AS(registry().create("linear_svm", {{"C", -1.0}}), ParamError);
    }

}  // TEST_SUITE

}  // namespace unit_linear_c_search_test
}  // namespace
