// The histogram forest (tree_method=hist) on the quantized store (common/quantized_table.hpp,
// docs/large-data.md): a fit on the rows' bin codes, without their doubles, writes the model
// file a fit on the doubles writes, byte for byte, when the store was cut as the forest cuts
// (its max_bins, the fit's seed, absent sparse entries as zeros). The out-of-bag score and the
// permutation importances walk the trees on the codes. Every table below is trained both ways
// through Model::train.
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
#include "kestrel/pipeline/registry.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tree_forest_store_test {

using namespace kestrel;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// n rows of d normal features, a target of the first three, k classes (0: regression).
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

// Some cells of features 1 and d − 1 missing.
void punch_holes(Dataset& d) {
    DenseMatrix& X = d.X.dense_mut();
    for (Index i = 0; i < X.rows(); i += 5) X(i, 1) = kNaN;
    for (Index i = 0; i < X.rows(); i += 3) X(i, X.cols() - 1) = kNaN;
}

// The model file's text (what kestrel-train writes, before its provenance stamp).
std::string file_text(const Model& m) {
    JsonTextSlots slots;
    const Json j = m.to_json(slots);
    return model_json_text(j, &slots);
}

ModelSpec forest(Json params) {
    ModelSpec spec;
    spec.model = "forest";
    spec.params = std::move(params);
    spec.params["tree_method"] = "hist";
    resolve_params(spec);
    return spec;
}

// `data` with X its store's shape, the store cut with max_bins and seed, absent entries zeros.
std::pair<Dataset, std::shared_ptr<const QuantizedTable>> stored(const Dataset& data, int max_bins,
                                                                   std::uint64_t seed,
                                                                   bool absent_is_missing = false) {
    Dataset shaped = data;
    shaped.X = shape_only(data.rows(), data.cols());
    return {std::move(shaped), quantize(data.X, data.category_counts, max_bins, seed, 2, absent_is_missing)};
}

// The model of `data` fit on its doubles, and fit on its quantized store, as file text.
std::pair<std::string, std::string> both_ways(const ModelSpec& spec, const Dataset& data, const Context& ctx,
                                              int max_bins = 255) {
    const std::string doubles = file_text(Model::train(spec, data, ctx));
    auto [shaped, store] = stored(data, max_bins, ctx.seed);
    const QuantizedRows rows(store);
    return {doubles, file_text(Model::train(spec, std::move(shaped), ctx))};
}

}  // namespace

TEST_SUITE("forest") {
    TEST_CASE("forest store: the same model file as the doubles, classification with NaN, weights and oob") {
        Dataset d = table(2500, 5, 3, 21);
        punch_holes(d);
        Rng rng(4);
        d.weights.resize(d.rows());
        for (Index i = 0; i < d.rows(); ++i) d.weights[i] = 0.2 + 2 * rng.uniform();
        Context ctx;
        ctx.threads = 2;
        ctx.seed = 31;
        // oob=1 and importance=permutation: walked on the codes, and saved in the file.
        const auto [doubles, store] = both_ways(
            forest({{"n_estimators", 12}, {"oob", true}, {"importance", "permutation"}, {"max_features", "sqrt"}}), d,
            ctx);
        CHECK(doubles.find("oob_score") != std::string::npos);
        CHECK(doubles.find("permutation_importances") != std::string::npos);
        CHECK(doubles.find("missing_left") != std::string::npos);
        CHECK(store == doubles);
        // Class weights from the labels; rows drawn without replacement.
        const auto [balanced, balanced_store] = both_ways(
            forest({{"n_estimators", 6}, {"class_weight", "balanced"}, {"bootstrap", false}, {"max_samples", 0.6},
                    {"oob", true}}),
            d, ctx);
        CHECK(balanced_store == balanced);
    }

    TEST_CASE("forest store: the same model file, regression with NaN and oob, depth and leaf limits") {
        Dataset d = table(3000, 4, 0, 22);
        punch_holes(d);
        Context ctx;
        const auto [doubles, store] = both_ways(forest({{"n_estimators", 8},
                                                        {"oob", true},
                                                        {"importance", "permutation"},
                                                        {"max_depth", 6},
                                                        {"min_samples_leaf", 4}}),
                                                d, ctx);
        CHECK(doubles.find("permutation_importances") != std::string::npos);
        CHECK(doubles.find("oob_score") != std::string::npos);
        CHECK(store == doubles);
    }

    TEST_CASE("forest store: the same model file with two-byte codes (max_bins 1000) and with sparse rows") {
        const Dataset d = table(4000, 3, 0, 23);
        Context ctx;
        ctx.threads = 2;
        const auto [doubles, store] =
            both_ways(forest({{"n_estimators", 4}, {"max_bins", 1000}, {"oob", true}}), d, ctx, 1000);
        CHECK(store == doubles);
        // Sparse rows: an absent entry is the value 0 to the forest (binned dense), a stored NaN missing.
        Dataset s = table(2000, 6, 2, 24);
        DenseMatrix M(s.X.dense_ref());
        for (Index i = 0; i < M.rows(); ++i)
            for (Index j = 0; j < M.cols(); ++j)
                if ((i + j) % 3 == 0) M(i, j) = 0;
        for (Index i = 0; i < M.rows(); i += 7) M(i, 2) = kNaN;
        s.X = Features(SparseMatrix(M.sparseView()));
        const auto [sparse, sparse_store] = both_ways(forest({{"n_estimators", 5}, {"oob", true}}), s, ctx);
        CHECK(sparse_store == sparse);
    }

    TEST_CASE("forest store: the capability, and a store the forest was not cut for is refused") {
        CHECK(registry().capabilities("forest", {{"tree_method", "hist"}}).quantized_rows);
        CHECK(registry().capabilities("gbdt", Params::object()).quantized_rows);
        CHECK_FALSE(registry().capabilities("forest", Params::object()).quantized_rows);  // auto: exact here
        CHECK_FALSE(registry().capabilities("forest", {{"tree_method", "exact"}}).quantized_rows);
        CHECK(registry().capabilities("forest", {{"tree_method", "hist"}, {"importance", "permutation"}}).quantized_rows);
        CHECK_FALSE(registry().capabilities("forest", {{"tree_method", "hist"}, {"max_leaf_nodes", 8}}).quantized_rows);
        CHECK_FALSE(registry().capabilities("forest", {{"tree_method", "hist"}, {"multiclass", "ovr"}}).quantized_rows);
        const Dataset d = table(500, 3, 2, 25);
        Context ctx;
        {
            auto [shaped, store] = stored(d, 64, ctx.seed);  // the forest asks 255 bins
            const QuantizedRows rows(store);
            CHECK_THROWS_AS((void)Model::train(forest({{"n_estimators", 2}}), shaped, ctx), UsageError);
        }
        {
            auto [shaped, store] = stored(d, 255, ctx.seed, true);  // gbdt's reading of absent entries
            const QuantizedRows rows(store);
            CHECK_THROWS_AS((void)Model::train(forest({{"n_estimators", 2}}), shaped, ctx), InternalError);
        }
        {
            auto [shaped, store] = stored(d, 255, ctx.seed);
            const QuantizedRows rows(store);
            ModelSpec exact = forest({{"n_estimators", 2}});
            exact.params["tree_method"] = "exact";
            resolve_params(exact);
            CHECK_THROWS_AS((void)Model::train(exact, shaped, ctx), InternalError);
        }
    }
}

}  // namespace unit_tree_forest_store_test
}  // namespace
