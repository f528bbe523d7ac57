// gbdt on the quantized store (common/quantized_table.hpp, docs/large-data.md): a fit on the
// rows' bin codes, without their doubles, writes the model file a fit on the doubles writes,
// byte for byte, whenever the cuts are the same (no internal hold-out: the store's cuts are
// those of all the rows). Every table below is trained both ways through Model::train.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "kestrel/common/quantized_table.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/json_text.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/pipeline/model.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_store_test {

using namespace kestrel;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// n rows of d normal features (more distinct values than any max_bins below, so the cuts are
// quantiles of the sample), a target of the first three, k classes (0: regression).
Dataset table(Index n, Index d, Index k, std::uint64_t seed) {
    Rng rng(seed);
    Dataset t;
    DenseMatrix X(n, d);
    t.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < d; ++j) X(i, j) = rng.normal();
        const double s = std::sin(2 * X(i, 0)) + X(i, 1) * X(i, 2) + 0.3 * rng.normal();
        t.y[i] = k == 0 ? s
                        : std::clamp(std::floor((s + 1.5) / 3.0 * static_cast<double>(k)), 0.0,
                                     static_cast<double>(k - 1));
    }
    t.X = Features(std::move(X));
    t.task = k ? Task::classification : Task::regression;
    for (Index c = 0; c < k; ++c) t.classes.push_back("c" + std::to_string(c));
    for (Index j = 0; j < d; ++j) t.feature_names.push_back("f" + std::to_string(j));
    return t;
}

// The model file's text (what kestrel-train writes, before its provenance stamp).
std::string file_text(const Model& m) {
    JsonTextSlots slots;
    const Json j = m.to_json(slots);
    return model_json_text(j, &slots);
}

ModelSpec gbdt(Json params) {
    ModelSpec spec;
    spec.model = "gbdt";
    spec.params = std::move(params);
    resolve_params(spec);
    return spec;
}

// The model of `data` fit on its doubles, and fit on its quantized store, as file text.
std::pair<std::string, std::string> both_ways(const ModelSpec& spec, const Dataset& data, const Context& ctx,
                                              int max_bins = 255) {
    const std::string doubles = file_text(Model::train(spec, data, ctx));
    Dataset shaped = data;
    shaped.X = shape_only(data.rows(), data.cols());
    const QuantizedRows rows(quantize(data.X, data.category_counts, max_bins, ctx.seed, ctx.resolved_threads()));
    return {doubles, file_text(Model::train(spec, std::move(shaped), ctx))};
}

}  // namespace

TEST_SUITE("gbdt") {
    TEST_CASE("gbdt store: the same model file as the doubles, numeric rows with NaN, regression") {
        Dataset d = table(3000, 5, 0, 11);
        for (Index i = 0; i < d.rows(); i += 5) d.X.dense_mut()(i, 1) = kNaN;
        for (Index i = 0; i < d.rows(); i += 2) d.X.dense_mut()(i, 4) = kNaN;
        Context ctx;
        ctx.threads = 2;
        // subsample < 1: the rows out of a round's sample are scored from their bins.
        const auto [doubles, store] =
            both_ways(gbdt({{"n_estimators", 15}, {"subsample", 0.7}, {"colsample", 0.8}}), d, ctx);
        CHECK(doubles.find("missing_left") != std::string::npos);
        CHECK(store == doubles);
    }

    TEST_CASE("gbdt store: the same model file, binary with sample weights and a renewing loss") {
        Dataset d = table(2500, 4, 2, 12);
        Rng rng(5);
        d.weights.resize(d.rows());
        for (Index i = 0; i < d.rows(); ++i) d.weights[i] = 0.2 + 2 * rng.uniform();
        Context ctx;
        ctx.seed = 77;
        const auto [doubles, store] = both_ways(gbdt({{"n_estimators", 12}, {"max_leaves", 9}}), d, ctx);
        CHECK(store == doubles);
        Dataset r = table(2500, 4, 0, 13);
        r.weights = d.weights;
        const auto [absolute, absolute_store] = both_ways(gbdt({{"n_estimators", 8}, {"loss", "absolute"}}), r, ctx);
        CHECK(absolute_store == absolute);
    }

    TEST_CASE("gbdt store: the same model file, multiclass with a categorical feature") {
        Dataset d = table(3000, 4, 3, 14);
        Rng rng(9);
        // Feature 3 is a category of 6 (one never seen: an unseen code), some cells missing.
        for (Index i = 0; i < d.rows(); ++i) {
            const double c = std::floor(rng.uniform() * 5);
            d.X.dense_mut()(i, 3) = i % 17 == 0 ? kNaN : c;
            if (c == 2) d.y[i] = 1;
        }
        d.category_counts = {0, 0, 0, 6};
        d.categories = {{}, {}, {}, {"a", "b", "c", "d", "e", "f"}};
        Context ctx;
        ctx.threads = 2;
        const auto [doubles, store] = both_ways(gbdt({{"n_estimators", 6}}), d, ctx);
        CHECK(doubles.find("categorical_splits") != std::string::npos);
        CHECK(store == doubles);
    }

    TEST_CASE("gbdt store: the same model file with two-byte codes (max_bins 1000) and with sparse rows") {
        const Dataset d = table(4000, 3, 0, 15);
        Context ctx;
        const auto [doubles, store] = both_ways(gbdt({{"n_estimators", 5}, {"max_bins", 1000}}), d, ctx, 1000);
        CHECK(store == doubles);
        // Sparse rows: an absent entry is missing.
        Dataset s = table(2000, 6, 2, 16);
        DenseMatrix M(s.X.dense_ref());
        for (Index i = 0; i < M.rows(); ++i)
            for (Index j = 0; j < M.cols(); ++j)
                if ((i + j) % 3 == 0) M(i, j) = 0;
        s.X = Features(SparseMatrix(M.sparseView()));
        const auto [sparse, sparse_store] = both_ways(gbdt({{"n_estimators", 5}}), s, ctx);
        CHECK(sparse_store == sparse);
    }

    TEST_CASE("gbdt store: the same model file with early stopping on an eval set") {
        const Dataset d = table(3000, 4, 2, 17);
        const Dataset v = table(600, 4, 2, 18);
        Context ctx;
        ctx.eval_sets.push_back({"validation_0", &v});
        const auto [doubles, store] =
            both_ways(gbdt({{"n_estimators", 60}, {"early_stopping_rounds", 3}, {"learning_rate", 0.5}}), d, ctx);
        CHECK(doubles.find("best_iteration") != std::string::npos);
        CHECK(store == doubles);
    }

    TEST_CASE("gbdt store: cuts of other bins or seed, or a model to continue, are refused") {
        const Dataset d = table(500, 3, 0, 19);
        Dataset shaped = d;
        shaped.X = shape_only(d.rows(), d.cols());
        Context ctx;
        {
            const QuantizedRows rows(quantize(d.X, {}, 64, ctx.seed, 1));
            CHECK_THROWS_AS(Model::train(gbdt({{"n_estimators", 2}}), shaped, ctx), UsageError);
        }
        {
            const QuantizedRows rows(quantize(d.X, {}, 255, ctx.seed + 1, 1));
            CHECK_THROWS_AS(Model::train(gbdt({{"n_estimators", 2}}), shaped, ctx), UsageError);
        }
        // Another model, or a step, would read the shape's missing values as data.
        {
            const QuantizedRows rows(quantize(d.X, {}, 255, ctx.seed, 1));
            ModelSpec tree;
            tree.model = "tree";
            resolve_params(tree);
            CHECK_THROWS_AS(Model::train(tree, shaped, ctx), InternalError);
            // The shape subset (a fold) is rows the store does not hold.
            const std::vector<Index> half{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22};
            CHECK_THROWS_AS(Model::train(gbdt({{"n_estimators", 2}}), shaped.subset(half), ctx), InternalError);
            ModelSpec scaled = gbdt({{"n_estimators", 2}});
            scaled.preprocessing = {"standard"};
            CHECK_THROWS_AS(Model::train(scaled, shaped, ctx), InternalError);
        }
        {
            // One-vs-one would fit its members on fewer rows than the store holds.
            const Dataset c = table(600, 3, 3, 20);
            Dataset c_shaped = c;
            c_shaped.X = shape_only(c.rows(), c.cols());
            const QuantizedRows rows(quantize(c.X, {}, 255, ctx.seed, 1));
            CHECK_THROWS_AS(Model::train(gbdt({{"n_estimators", 2}, {"multiclass", "ovo"}}), c_shaped, ctx),
                            InternalError);
        }
        // A continuation walks the old trees' thresholds, which may fall inside a bin.
        const Model first = Model::train(gbdt({{"n_estimators", 2}}), d, ctx);
        Context more = ctx;
        more.init_model = &first.estimator();
        const QuantizedRows rows(quantize(d.X, {}, 255, ctx.seed, 1));
        CHECK_THROWS_AS(Model::train(gbdt({{"n_estimators", 2}}), shaped, more), UsageError);
    }
}

}  // namespace unit_boosting_gbdt_store_test
}  // namespace
