// The ONNX graphs of a probability calibration and of a saved decision threshold
// (onnx_export.cpp): the operators each writes, and the tables of a hand-made isotonic map as
// bytes in the file; adaboost's weak learners; and the refusals of what stays unexported
// under them. The values
// themselves are checked against ONNX Runtime by tests/exchange/onnx_runtime_test.py.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kestrel/exchange/export.hpp"
#include "kestrel/exchange/onnx_export.hpp"
#include "kestrel/pipeline/model.hpp"
#include "model_fixtures.hpp"
#include "unit/exchange/onnx_bytes.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_exchange_onnx_calibration_test {

using namespace kestrel;

namespace {

// A model of `classes` blobs with its calibration replaced by `calibration` (and a threshold).
Model with_calibration(const std::string& model, Index classes, const Json& calibration, const Json& threshold = {}) {
    ModelSpec spec;
    spec.model = model;
    spec.calibrate = "sigmoid";
    spec.calibrate_folds = 2;
    Json j = Model::train(spec, test::blobs(40, 2, classes), Context{}).to_json();
    j["calibration"] = calibration;
    if (!threshold.is_null()) j["threshold"] = threshold;
    return Model::from_json(j, "test");
}

std::string onnx_of(const Model& m) { return model_to_onnx(m, ExportOptions{}); }

// `classes` blobs in the precomputed-kernel layout: the row's serial number, then its linear
// kernel values against every row.
Dataset precomputed_blobs(Index classes) {
    Dataset data = test::blobs(40, 2, classes);
    const DenseMatrix X = data.X.to_dense();
    DenseMatrix K(X.rows(), X.rows() + 1);
    for (Index i = 0; i < X.rows(); ++i) {
        K(i, 0) = static_cast<double>(i + 1);
        for (Index j = 0; j < X.rows(); ++j) K(i, j + 1) = X.row(i).dot(X.row(j));
    }
    data.X = Features(std::move(K));
    data.feature_names = {"serial"};
    for (Index j = 0; j < X.rows(); ++j) data.feature_names.push_back("k" + std::to_string(j + 1));
    return data;
}

using test::has_doubles;
using test::has_op;

Json isotonic(const std::vector<std::vector<double>>& xs, const std::vector<std::vector<double>>& ys, int classes) {
    Json list = Json::array();
    for (std::size_t c = 0; c < xs.size(); ++c) list.push_back({{"x", xs[c]}, {"y", ys[c]}});
    return {{"method", "isotonic"}, {"classes", classes}, {"calibrators", list}};
}

}  // namespace

TEST_SUITE("exchange") {
    TEST_CASE(
        "ONNX isotonic calibration: the knots searched with Less, the interval's knot, value and slope gathered") {
        // Knots (0, 0), (1, 0.25), (3, 0.75), (4, 1): slopes 0.25, 0.25, 0.25 per unit; the
        // interior knots 1 and 3 are what a score is compared with.
        const std::string file =
            onnx_of(with_calibration("logistic", 2, isotonic({{0, 1, 3, 4}}, {{0, 0.25, 0.75, 1}}, 2)));
        for (const char* op : {"Clip", "Less", "ReduceSum", "Gather", "Concat"}) CHECK(has_op(file, op));
        CHECK(has_doubles(file, {1, 3}));              // the interior knots
        CHECK(has_doubles(file, {0, 1, 3}));           // each interval's lower knot
        CHECK(has_doubles(file, {0, 0.25, 0.75}));     // its value there
        CHECK(has_doubles(file, {0.25, 0.25, 0.25}));  // its slope
    }

    TEST_CASE("ONNX isotonic calibration: two knots need no search, one knot is a constant") {
        const std::string two = onnx_of(with_calibration("logistic", 2, isotonic({{-1, 2}}, {{0.1, 0.7}}, 2)));
        CHECK(has_op(two, "Clip"));
        CHECK_FALSE(has_op(two, "Less"));
        CHECK(has_doubles(two, {(0.7 - 0.1) / 3}));  // the one slope
        const std::string one = onnx_of(with_calibration("logistic", 2, isotonic({{0.5}}, {{0.3}}, 2)));
        CHECK(has_op(one, "Expand"));
        CHECK_FALSE(has_op(one, "Clip"));
    }

    TEST_CASE("ONNX sigmoid calibration over three classes: Platt's form per column, then each over the row's sum") {
        const Json sigmoid = {
            {"method", "sigmoid"},
            {"classes", 3},
            {"calibrators", {{{"a", -1.5}, {"b", 0.25}}, {{"a", -2.0}, {"b", 0.5}}, {{"a", -1.0}, {"b", 0}}}}};
        const std::string file = onnx_of(with_calibration("logistic", 3, sigmoid));
        for (const char* op : {"Exp", "Abs", "GreaterOrEqual", "Where", "Div", "Equal", "Slice", "And"})
            CHECK(has_op(file, op));
        CHECK(has_doubles(file, {-1.5, -2.0, -1.0}));  // a per column
        CHECK(has_doubles(file, {0.25, 0.5, 0}));      // b per column
        CHECK(has_doubles(file, {1.0 / 3}));           // where the sum is 0
        CHECK(has_op(file, "ArgMax"));                 // the label: the most probable class
    }

    TEST_CASE("ONNX calibration of a model with probabilities only: its P(classes[1]) is mapped") {
        const std::string file = onnx_of(with_calibration("tree", 2, isotonic({{0, 1}}, {{0, 1}}, 2)));
        CHECK(has_op(file, "TreeEnsembleRegressor"));
        CHECK(has_op(file, "Slice"));  // the probabilities' column 1
    }

    TEST_CASE("ONNX saved threshold: the label is the score above it, not an argmax") {
        const Json threshold = {{"value", 0.625}, {"score", "proba"}, {"criterion", "user"}};
        const std::string file = onnx_of(with_calibration("logistic", 2, isotonic({{0, 1}}, {{0, 1}}, 2), threshold));
        CHECK(has_op(file, "Greater"));
        CHECK(has_op(file, "Reshape"));
        CHECK_FALSE(has_op(file, "ArgMax"));
        CHECK(has_doubles(file, {0.625}));
    }

    TEST_CASE("ONNX calibration of a precomputed-kernel svc: the kernel values gathered from the input") {
        ModelSpec spec;
        spec.model = "svc";
        spec.params = {{"kernel", "precomputed"}};
        spec.calibrate = "sigmoid";
        spec.calibrate_folds = 2;
        const std::string file = onnx_of(Model::train(spec, precomputed_blobs(2), Context{}));
        CHECK(has_op(file, "Gather"));  // K(x, sv): x's column at sv's serial
    }

    TEST_CASE("ONNX adaboost over linear weak learners: each learner's class from its scores, its alpha there") {
        for (const Index classes : {2, 3}) {
            ModelSpec spec;
            spec.model = "adaboost";
            spec.params = {{"base", "logistic"}, {"n_estimators", "4"}};
            const Model m = Model::train(spec, test::blobs(40, 2, classes), Context{});
            const std::string file = onnx_of(m);
            for (const char* op : {"MatMul", "Add"}) CHECK(has_op(file, op));
            CHECK(has_op(file, classes > 2 ? "ArgMax" : "Greater"));
            CHECK_FALSE(has_op(file, "TreeEnsembleRegressor"));
        }
    }

    TEST_CASE("ONNX adaboost over svc: each learner's class from its votes") {
        ModelSpec spec;
        spec.model = "adaboost";
        spec.params = {{"base", "svc"}, {"n_estimators", "3"}};
        const std::string file = onnx_of(Model::train(spec, test::blobs(40, 2, 2), Context{}));
        for (const char* op : {"MatMul", "Exp", "ArgMax", "Equal", "Where"}) CHECK(has_op(file, op));
        // Over precomputed-kernel members too: each member's kernel gathered from the input.
        spec.params = {{"base", "svc(kernel=precomputed)"}, {"n_estimators", "3"}};
        CHECK(has_op(onnx_of(Model::train(spec, precomputed_blobs(2), Context{})), "Gather"));
        ModelSpec wrapped;
        wrapped.model = "svc";
        wrapped.params = {{"kernel", "precomputed"}, {"multiclass", "ovr"}};
        CHECK(has_op(onnx_of(Model::train(wrapped, precomputed_blobs(3), Context{})), "Gather"));
    }
}

}  // namespace unit_exchange_onnx_calibration_test
}  // namespace
