#include <doctest/doctest.h>

#include "command_error.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/model_selection/learning_curve.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_model_selection_learning_curve_test {

using namespace kestrel;

namespace {

const Dataset& iris_train() {  // 120 rows, 3 classes of 40
    static const Dataset d = [] {
        Table t = read_table(KESTREL_SHARED_DATA "/iris/train.csv", ReadOptions{});
        return make_dataset(std::move(t), Task::classification);
    }();
    return d;
}

Context context(int threads) {
    Context ctx;
    ctx.seed = 3;
    ctx.threads = threads;
    return ctx;
}

}  // namespace

TEST_SUITE("model_selection") {

TEST_CASE("parse_fractions: linspace start:stop:count or a list; bad ones name --learning-curve") {
    const auto f = parse_fractions("0.1:1.0:10");
    REQUIRE(f.size() == 10);
    CHECK(f[0] == doctest::Approx(0.1));
    CHECK(f[1] == doctest::Approx(0.2));
    CHECK(f[9] == 1.0);
    CHECK(parse_fractions("0.25,0.5,1") == std::vector<double>{0.25, 0.5, 1});
    CHECK(parse_fractions("1:1:1") == std::vector<double>{1});
    for (const char* bad : {"0:1:5", "0.1:1.5:3", "0.1:1:0", "0.1:1:2.5", "0.5,0.2", "a,b", "0.1:1", "", "1.5",
                            "0.1:1:2:3"}) {
        CAPTURE(bad);
        CHECK_COMMAND_THROWS_WITH_AS(parse_fractions(bad), doctest::Contains("--learning-curve"), UsageError);
    }
}

TEST_CASE("learning_curve: sizes from the smallest training fold, scores per fold, identical on 1 and 2 threads") {
    LearningCurveOptions o;
    o.split.k = 5;  // stratified: every training fold has 96 rows
    o.fractions = {0.1, 0.4, 0.7, 1.0};
    ModelSpec spec;
    spec.model = "logistic";
    const LearningCurve a = learning_curve(spec, iris_train(), o, context(1));
    const LearningCurve b = learning_curve(spec, iris_train(), o, context(2));
    CHECK(a.metric == "accuracy");
    REQUIRE(a.points.size() == 4);
    const std::vector<Index> sizes{9, 38, 67, 96};  // floor(f * 96)
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(a.points[i].train_size == sizes[i]);
        REQUIRE(a.points[i].validation_scores.size() == 5);
        CHECK(a.points[i].train_scores == b.points[i].train_scores);
        CHECK(a.points[i].validation_scores == b.points[i].validation_scores);
        CHECK(a.points[i].validation.mean == doctest::Approx(summarize(a.points[i].validation_scores).mean));
    }
    // More data helps, and the training score is optimistic at every size.
    CHECK(a.points.back().validation.mean > a.points.front().validation.mean);
    for (const auto& p : a.points) CHECK(p.train.mean >= p.validation.mean - 0.02);
    CHECK(a.points.back().validation.mean > 0.9);

    o.fractions = {0.5, 0.501};  // both floor to 48 rows: one point (sklearn drops duplicate sizes)
    CHECK(learning_curve(spec, iris_train(), o, context(2)).points.size() == 1);
    o.metric = "r2";
    CHECK_THROWS_WITH_AS(learning_curve(spec, iris_train(), o, context(2)), doctest::Contains("regression"), UsageError);
}

}  // TEST_SUITE

}  // namespace unit_model_selection_learning_curve_test
}  // namespace
