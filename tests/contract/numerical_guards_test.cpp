// Numerical guards over every registered model: data that breaks naive maths
// (constant features, magnitudes near the double's limit, duplicated rows, one
// sample per class) either trains a model whose every number is finite, or fails
// with a typed, user-facing error (exit 1 or 2) -- never NaN or infinity in a saved
// model, never an internal error.
#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "model_fixtures.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace contract_numerical_guards_test {

using namespace kestrel;

namespace {

bool all_finite(const Json& j) {
    if (j.is_number_float()) return std::isfinite(j.get<double>());
    if (j.is_array() || j.is_object())
        for (const auto& x : j)
            if (!all_finite(x)) return false;
    return true;
}

Dataset base_data(const ModelInfo& info, Index n) {
    return info.tasks.front() == Task::classification ? test::blobs(n, 3, 2) : test::linear_regression(n, 3);
}

// A constant column and an all-zero column beside the informative ones.
Dataset zero_variance(const ModelInfo& info) {
    Dataset d = base_data(info, 40);
    DenseMatrix X(d.rows(), d.cols() + 2);
    X << d.X.dense_ref(), DenseMatrix::Constant(d.rows(), 1, 7.0), DenseMatrix::Zero(d.rows(), 1);
    d.X = X;
    d.feature_names = {"a", "b", "c", "constant", "zero"};
    return d;
}

Dataset scaled_features(const ModelInfo& info, double scale) {
    Dataset d = base_data(info, 40);
    d.X = DenseMatrix(d.X.dense_ref() * scale);
    return d;
}

Dataset scaled_targets(const ModelInfo& info, double scale) {
    Dataset d = base_data(info, 40);
    if (d.task == Task::regression) d.y *= scale;
    return d;
}

Dataset duplicated_rows(const ModelInfo& info) {
    const Dataset d = base_data(info, 30);
    std::vector<Index> rows;
    for (Index i = 0; i < d.rows(); ++i) rows.insert(rows.end(), {i, i});
    return d.subset(rows);
}

// Classifiers: one row of each of two classes; regressors: two rows.
Dataset one_per_class(const ModelInfo& info) {
    const Dataset d = base_data(info, 40);
    const std::vector<Index> rows = {0, 1};
    return d.subset(rows);
}

struct Outcome {
    bool trained = false;
    std::string error;
    std::string warnings;
};

Outcome try_train(const std::string& name, const Dataset& d, const std::vector<std::string>& preprocessing) {
    ModelSpec spec;
    spec.model = name;
    spec.preprocessing = preprocessing;
    Context ctx;
    ctx.threads = 1;
    std::string warnings;
    ctx.warn = [&warnings](const std::string& m) { warnings += m + "\n"; };
    try {
        const Model m = Model::train(spec, d, ctx);
        const Json j = m.to_json();
        INFO("model file holds a non-finite number: ", j.dump());
        CHECK(all_finite(j));
        const Vector p = m.predict(d.X);
        CHECK(p.allFinite());
        return {true, "", warnings};
    } catch (const Error& e) {
        INFO("error: ", e.what());
        CHECK(e.code() != ExitCode::internal);
        CHECK(std::string(e.what()).find('\n') == std::string::npos);
        return {false, e.what(), warnings};
    }
}

}  // namespace

TEST_SUITE("contract") {
    TEST_CASE("numerical guards: every model on degenerate data trains finite or fails clearly") {
        for (const auto& name : registry().names()) {
            const ModelInfo& info = registry().info(name);
            CAPTURE(name);
            {
                INFO("zero-variance features");
                CHECK(try_train(name, zero_variance(info), {}).trained);
                CHECK(try_train(name, zero_variance(info), {"standard"}).trained);
                CHECK(try_train(name, zero_variance(info), {"minmax"}).trained);
            }
            {
                INFO("duplicated rows");
                CHECK(try_train(name, duplicated_rows(info), {}).trained);
            }
            {
                INFO("features near 1e300");
                const Outcome raw = try_train(name, scaled_features(info, 1e300), {});
                CHECK(raw.warnings.find("where squares overflow; most models need them scaled") != std::string::npos);
                INFO("features near 1e300, standardized");
                const Outcome scaled = try_train(name, scaled_features(info, 1e300), {"standard"});
                CHECK(scaled.trained);
                CHECK(scaled.warnings.find("squares overflow") == std::string::npos);
            }
            {
                INFO("features near 1e-300");
                CHECK(try_train(name, scaled_features(info, 1e-300), {}).warnings.find("where squares underflow") !=
                      std::string::npos);
                INFO("features near 1e-300, standardized");
                CHECK(try_train(name, scaled_features(info, 1e-300), {"standard"}).trained);
            }
            {
                INFO("targets near 1e300");
                try_train(name, scaled_targets(info, 1e300), {});
            }
            {
                INFO("one sample per class");
                try_train(name, one_per_class(info), {});
            }
        }
    }
}

}  // namespace contract_numerical_guards_test
}  // namespace
