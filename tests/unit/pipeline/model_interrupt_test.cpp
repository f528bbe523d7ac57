// A pending interrupt request (core/interrupt.hpp, kestrel_interrupt) stops every model whose
// fit loops: the list below is the one docs/c-api.md gives. The others fit in one step (a
// closed form, a factorization, a linear program, a single tree, a neighbour index) and end
// unasked; a long one of them cannot be stopped before it ends.
#include <doctest/doctest.h>

#include <string>

#include "kestrel/core/interrupt.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_pipeline_model_interrupt_test {

using namespace kestrel;

namespace {

Dataset iris_rows() {
    return make_dataset(read_table(test::repo_path("data/iris/train.csv"), ReadOptions{}), Task::classification);
}

Dataset diabetes_rows() {
    return make_dataset(read_table(test::repo_path("data/diabetes/train.csv"), ReadOptions{}), Task::regression);
}

// Whether the model's fit on `rows` stopped at an interruption point with a request pending.
bool stops(const std::string& model, const Dataset& rows) {
    ModelSpec spec;
    spec.model = model;
    const InterruptibleWork work;
    request_interrupt();
    try {
        (void)Model::train(spec, rows, Context{});
    } catch (const Interrupted&) {
        return true;
    }
    return false;
}

}  // namespace

TEST_SUITE("pipeline.model_interrupt") {
    TEST_CASE("every model that fits by iterations stops at its first interruption point") {
        const Dataset classes = iris_rows(), values = diabetes_rows();
        std::string stopped, finished;  // names, each followed by a space
        for (const std::string& name : registry().names()) {
            const bool classifier = registry().info(name).supports(Task::classification);
            (stops(name, classifier ? classes : values) ? stopped : finished) += name + " ";
        }
        CHECK(stopped ==
              "adaboost elastic_net forest gbdt huber kernel_logistic kernel_perceptron lasso linear_svm linear_svr "
              "logistic nu_svc nu_svr one_class perceptron svc svr ");
        // A closed form or factorization (ridge, least_squares, kernel_ridge at their default
        // solvers), a linear program (lad, quantile, lp_svm), one tree, a neighbour index.
        CHECK(finished == "kernel_ridge knn lad least_squares lp_svm quantile ridge tree ");
        // Nothing is left pending: the next fit runs to its end.
        ModelSpec spec;
        spec.model = "gbdt";
        CHECK_NOTHROW((void)Model::train(spec, classes, Context{}));
    }
}  // TEST_SUITE

}  // namespace unit_pipeline_model_interrupt_test
}  // namespace
