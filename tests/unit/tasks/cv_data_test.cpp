// The rows and scheme of a cross-validation (kestrel/tasks/cv_data.hpp): the scheme the
// request names, a validation file's rows appended as the one test fold, and refusals
// naming the options where the commands name their flags.
#include "kestrel/tasks/cv_data.hpp"

#include <doctest/doctest.h>

#include "command_error.hpp"
#include "kestrel/core/error.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tasks_cv_data_test {

using namespace kestrel;

namespace {

CvDataRequest iris_request() {
    CvDataRequest request;
    request.data.path = test::repo_path("data/iris/train.csv");
    request.data.read.missing = MissingPolicy::keep;
    return request;
}

ModelSpec logistic() {
    ModelSpec spec;
    spec.model = "logistic";
    resolve_params(spec);
    return spec;
}

}  // namespace

TEST_CASE("read_cv_data: the scheme the request names") {
    CvDataRequest request = iris_request();
    const Index rows = read_training_data(request.data, logistic()).rows();
    SUBCASE("repeated k-fold") {
        request.k = 3;
        request.repeats = 2;
        const CvData cv = read_cv_data(request, logistic());
        CHECK(cv.data.rows() == rows);
        CHECK(cv.split.scheme == CvScheme::kfold);
        CHECK(cv.split.k == 3);
        CHECK(cv.split.repeats == 2);
    }
    SUBCASE("k 0 is one fold per row") {
        request.k = 0;
        CHECK(read_cv_data(request, logistic()).split.scheme == CvScheme::leave_one_out);
        request.repeats = 2;
        CHECK_THROWS_WITH_AS(read_cv_data(request, logistic()), "repeats cannot be combined with leave-one-out",
                             UsageError);
        CHECK_COMMAND_THROWS_WITH_AS(read_cv_data(request, logistic()),
                                     "--repeat cannot be combined with leave-one-out", UsageError);
    }
    SUBCASE("a validation file: its rows after the training rows, the one test fold") {
        request.validation_file = test::repo_path("data/iris/test.csv");
        const CvData cv = read_cv_data(request, logistic());
        CHECK(cv.split.scheme == CvScheme::fixed);
        REQUIRE(cv.split.fixed.size() == 1);
        CHECK(static_cast<Index>(cv.split.fixed[0].train.size()) == rows);
        CHECK(cv.split.fixed[0].test.front() == rows);
        CHECK(static_cast<Index>(cv.split.fixed[0].test.size()) == cv.data.rows() - rows);
    }
}

}  // namespace unit_tasks_cv_data_test
}  // namespace
