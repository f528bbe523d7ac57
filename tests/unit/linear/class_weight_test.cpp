#include <doctest/doctest.h>

#include "kestrel/common/class_weight.hpp"
#include "kestrel/core/error.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_class_weight_test {

using namespace kestrel;

TEST_SUITE("linear") {

TEST_CASE("class_weight: empty, balanced and per-label") {
    const std::vector<std::string> classes{"cat", "dog", "eel"};
    const Vector y{{0, 0, 0, 1, 2, 2}};
    CHECK(parse_class_weights("", classes, y) == Vector::Ones(3));
    // balanced: n / (k n_c) = 6 / (3·3), 6 / (3·1), 6 / (3·2)
    const Vector b = parse_class_weights("balanced", classes, y);
    CHECK(b[0] == doctest::Approx(2.0 / 3.0));
    CHECK(b[1] == doctest::Approx(2.0));
    CHECK(b[2] == doctest::Approx(1.0));
    CHECK(parse_class_weights(" dog:2.5 , cat:0 ", classes, y) == Vector{{0.0, 2.5, 1.0}});
    CHECK(parse_class_weights("eel:1e-3", classes, y) == Vector{{1.0, 1.0, 1e-3}});
}

TEST_CASE("class_weight: a class without rows keeps weight 1 under balanced") {
    const std::vector<std::string> classes{"a", "b", "c"};
    CHECK(parse_class_weights("balanced", classes, Vector{{0, 0, 1, 1}}) == Vector{{4.0 / 6.0, 4.0 / 6.0, 1.0}});
}

TEST_CASE("class_weight: labels containing ':' split at the last one") {
    const std::vector<std::string> classes{"a:b", "c"};
    CHECK(parse_class_weights("a:b:3", classes, Vector{{0, 1}}) == Vector{{3.0, 1.0}});
}

TEST_CASE("class_weight: errors name the parameter and list the classes") {
    const std::vector<std::string> classes{"0", "1"};
    const Vector y{{0, 1}};
    try {
        parse_class_weights("2:1", classes, y);
        FAIL("expected ParamError");
    } catch (const ParamError& e) {
        const std::string msg = e.what();
        CHECK(msg.find("class_weight") != std::string::npos);
        CHECK(msg.find("'2'") != std::string::npos);
        CHECK(msg.find("0, 1") != std::string::npos);
    }
    CHECK_THROWS_AS(parse_class_weights("1", classes, y), ParamError);
    CHECK_THROWS_AS(parse_class_weights("1:x", classes, y), ParamError);
    CHECK_THROWS_AS(parse_class_weights("1:-2", classes, y), ParamError);
    CHECK_THROWS_AS(parse_class_weights("1:2junk", classes, y), ParamError);
    CHECK_THROWS_AS(parse_class_weights("1:inf", classes, y), ParamError);
    CHECK_THROWS_AS(parse_class_weights("1:2,1:3", classes, y), ParamError);
    CHECK_THROWS_AS(parse_class_weights("1:2,", classes, y), ParamError);
    CHECK_THROWS_AS(parse_class_weights("Balanced", classes, y), ParamError);
}

TEST_CASE("class_weight: sample costs multiply class and sample weights") {
    Dataset d;
    d.y = Vector{{0, 1, 1}};
    d.X = Features(DenseMatrix::Zero(3, 1));
    d.classes = {"n", "p"};
    d.task = Task::classification;
    CHECK(sample_costs(d, Vector{{2.0, 3.0}}) == Vector{{2.0, 3.0, 3.0}});
    d.weights = Vector{{0.5, 2.0, 0.0}};
    CHECK(sample_costs(d, Vector{{2.0, 3.0}}) == Vector{{1.0, 6.0, 0.0}});
}

}  // TEST_SUITE

}  // namespace unit_linear_class_weight_test
}  // namespace
