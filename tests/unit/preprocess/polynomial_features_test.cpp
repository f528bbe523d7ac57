// The "poly" preprocessing step: scikit-learn's PolynomialFeatures(include_bias=False).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "command_error.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/model_selection/cross_validate.hpp"
#include "kestrel/model_selection/grid_search.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/preprocess/polynomial_features.hpp"
#include "model_fixtures.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_preprocess_polynomial_features_test {

using namespace kestrel;

namespace {

// tests/unit/preprocess/make_poly_references.py (scikit-learn 1.2.1):
// PolynomialFeatures(degree, interaction_only, include_bias=False).fit_transform(X).
DenseMatrix fixture() {
    DenseMatrix X(4, 3);
    X << 0.3, -1.7, 0.0, 0.0, 2.9, 0.45, 1.1, 0.0, -0.6, -0.25, 1.3, 3.7;
    return X;
}

const std::vector<std::string> kNamesDegree3 = {"a",     "b",     "c",     "a^2",   "a b", "a c",   "b^2",
                                                "b c",   "c^2",   "a^3",   "a^2 b", "a^2 c", "a b^2", "a b c",
                                                "a c^2", "b^3",   "b^2 c", "b c^2", "c^3"};

DenseMatrix sklearn_degree3() {
    DenseMatrix E(4, 19);
    E << 0.3, -1.7, 0.0, 0.09, -0.51, 0.0, 2.8899999999999997, -0.0, 0.0, 0.027, -0.153, 0.0, 0.8669999999999999, -0.0,
        0.0, -4.912999999999999, 0.0, -0.0, 0.0,  //
        0.0, 2.9, 0.45, 0.0, 0.0, 0.0, 8.41, 1.305, 0.2025, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 24.389, 3.7844999999999995,
        0.58725, 0.09112500000000001,  //
        1.1, 0.0, -0.6, 1.2100000000000002, 0.0, -0.66, 0.0, -0.0, 0.36, 1.3310000000000004, 0.0, -0.7260000000000001,
        0.0, -0.0, 0.396, 0.0, -0.0, 0.0, -0.216,  //
        -0.25, 1.3, 3.7, 0.0625, -0.325, -0.925, 1.6900000000000002, 4.8100000000000005, 13.690000000000001, -0.015625,
        0.08125, 0.23125, -0.42250000000000004, -1.2025000000000001, -3.4225000000000003, 2.1970000000000005,
        6.253000000000001, 17.797, 50.653000000000006;
    return E;
}

DenseMatrix sklearn_interaction3() {
    DenseMatrix E(4, 7);
    E << 0.3, -1.7, 0.0, -0.51, 0.0, -0.0, -0.0,  //
        0.0, 2.9, 0.45, 0.0, 0.0, 1.305, 0.0,     //
        1.1, 0.0, -0.6, 0.0, -0.66, -0.0, -0.0,   //
        -0.25, 1.3, 3.7, -0.325, -0.925, 4.8100000000000005, -1.2025000000000001;
    return E;
}

Features sparse_of(const DenseView& X) { return Features(SparseMatrix(X.sparseView())); }

// y = 1 + x0² − 2 x0 x1 + noise: a model that is linear in the degree-2 expansion.
Dataset quadratic(Index n) {
    Dataset d = test::linear_regression(n, 3, 0.0, 21);
    const DenseView X = d.X.dense_ref();
    for (Index i = 0; i < n; ++i) d.y[i] = 1 + X(i, 0) * X(i, 0) - 2 * X(i, 0) * X(i, 1) + 0.01 * X(i, 2);
    return d;
}

ModelSpec ridge_spec(std::vector<std::string> steps) {
    ModelSpec s;
    s.model = "ridge";
    s.params = {{"alpha", 1e-3}};
    s.preprocessing = std::move(steps);
    return s;
}

}  // namespace

TEST_SUITE("preprocess") {

TEST_CASE("poly: columns, values and names as scikit-learn's PolynomialFeatures") {
    const Features X(fixture());
    const Features P = polynomial_features(X, 3, false);
    REQUIRE(P.cols() == 19);
    CHECK((P.dense_ref() - sklearn_degree3()).cwiseAbs().maxCoeff() <= 1e-15);
    CHECK(poly_feature_names({"a", "b", "c"}, 3, false) == kNamesDegree3);

    const Features I = polynomial_features(X, 3, true);
    REQUIRE(I.cols() == 7);
    CHECK((I.dense_ref() - sklearn_interaction3()).cwiseAbs().maxCoeff() <= 1e-15);
    CHECK(poly_feature_names({"a", "b", "c"}, 3, true) ==
          std::vector<std::string>{"a", "b", "c", "a b", "a c", "b c", "a b c"});
    // Without repeats no monomial has more factors than there are features.
    CHECK(polynomial_features(X, 7, true).dense_ref() == I.dense_ref());
    CHECK(polynomial_features(X, 1, false).dense_ref() == X.dense_ref());
}

TEST_CASE("poly: the width is computed exactly, without overflow") {
    CHECK(poly_width(3, 3, false) == 19);
    CHECK(poly_width(100, 2, false) == 5150);       // C(102, 2) - 1
    CHECK(poly_width(100, 3, false) == 176850);     // C(103, 3) - 1
    CHECK(poly_width(10, 20, true) == 1023);        // 2^10 - 1
    CHECK(poly_width(100, 3, true) == 166750);      // 100 + C(100,2) + C(100,3)
    CHECK(poly_width(1, 1000000, false) == 1000000);
    CHECK(poly_width(1, 1000000, true) == 1);
    CHECK(poly_width(50000, 2, false) == 1250075000);
    CHECK(poly_width(1000000, 1000, false) == UINT64_MAX);  // saturates
    CHECK(poly_width(200, 200, true) == UINT64_MAX);
}

TEST_CASE("poly: sparse rows expand their non-zeros only, equal to the dense expansion") {
    DenseMatrix X(5, 4);
    X << 0.5, 0, 0, 2, 0, 0, 0, 0, 0, -1.5, 0, 0, 1, 2, 3, 4, 0, 0.25, -3, 0;
    for (const bool io : {false, true}) {
        for (const int degree : {1, 2, 3, 4}) {
            CAPTURE(io);
            CAPTURE(degree);
            const Features dense = polynomial_features(Features(X), degree, io);
            const Features sparse = polynomial_features(sparse_of(X), degree, io);
            REQUIRE(sparse.is_sparse());
            CHECK(sparse.to_dense() == dense.dense_ref());
            // No stored zeros: a row of m non-zeros holds poly_width(m) entries.
            const SparseMatrix& S = sparse.sparse_ref();
            for (Index r = 0; r < X.rows(); ++r) {
                const auto m = static_cast<Index>((X.row(r).array() != 0).count());
                CHECK(S.outerIndexPtr()[r + 1] - S.outerIndexPtr()[r] == static_cast<int>(poly_width(m, degree, io)));
            }
        }
    }
    CHECK(polynomial_features(sparse_of(fixture()), 3, false).to_dense() == polynomial_features(Features(fixture()), 3, false).dense_ref());
}

TEST_CASE("poly: step specs, and the step's place in the pipeline") {
    CHECK(poly_step_spec({3, true, 500}) == "poly:degree=3,interaction_only=1,max_width=500");
    CHECK(poly_step_spec({2, false, kDefaultMaxPolyWidth}) == "poly:degree=2");
    const PolyOptions o = parse_poly_step("poly:degree=3,interaction_only=1,max_width=500");
    CHECK(o.degree == 3);
    CHECK(o.interaction_only);
    CHECK(o.max_width == 500);
    CHECK_THROWS_AS(parse_poly_step("poly:degree=0"), UsageError);
    CHECK_THROWS_AS(parse_poly_step("poly:interaction_only=1"), UsageError);
    CHECK_THROWS_AS(parse_poly_step("poly:degree=2,colour=3"), UsageError);
    CHECK_THROWS_AS(parse_poly_step("poly:degree=two"), UsageError);

    std::vector<std::string> steps = {"impute_mean", "standard"};
    set_poly_step(steps, {2, false, kDefaultMaxPolyWidth});
    CHECK(steps == std::vector<std::string>{"impute_mean", "poly:degree=2", "standard"});
    set_poly_step(steps, {3, true, kDefaultMaxPolyWidth});  // replaces
    CHECK(steps == std::vector<std::string>{"impute_mean", "poly:degree=3,interaction_only=1", "standard"});
    set_poly_step(steps, {1, false, kDefaultMaxPolyWidth});  // the identity: removed
    CHECK(steps == std::vector<std::string>{"impute_mean", "standard"});
    steps = {"select_columns:0,2", "minmax"};
    set_poly_step(steps, {2, false, kDefaultMaxPolyWidth});
    CHECK(steps == std::vector<std::string>{"select_columns:0,2", "poly:degree=2", "minmax"});
}

TEST_CASE("poly: -g poly sets the degree, before the scaling, keeping the step's options") {
    ModelSpec base = ridge_spec({"standard"});
    CHECK(apply_point(base, {{"poly", "2"}}).preprocessing == std::vector<std::string>{"poly:degree=2", "standard"});
    CHECK(apply_point(base, {{"poly", "1"}}).preprocessing == std::vector<std::string>{"standard"});
    ModelSpec plain = ridge_spec({});
    CHECK(apply_point(plain, {{"poly", "3"}, {"scale", "minmax"}}).preprocessing ==
          std::vector<std::string>{"poly:degree=3", "minmax"});
    ModelSpec with_options = ridge_spec({"poly:degree=1,interaction_only=1,max_width=99"});
    CHECK(apply_point(with_options, {{"scale", "standard"}, {"poly", "3"}}).preprocessing ==
          std::vector<std::string>{"poly:degree=3,interaction_only=1,max_width=99", "standard"});
    CHECK_THROWS_AS(apply_point(base, {{"poly", "0"}}), UsageError);
    CHECK_THROWS_AS(apply_point(base, {{"poly", "2.5"}}), UsageError);
}

TEST_CASE("poly: a model saves the step, reloads it, and predicts identically, dense and sparse") {
    const Dataset d = quadratic(60);
    const Context ctx;
    const Model m = Model::train(ridge_spec({"poly:degree=2", "standard"}), d, ctx);
    // A ridge model linear in the expansion fits the quadratic almost exactly.
    CHECK((m.predict(d.X) - d.y).cwiseAbs().maxCoeff() < 0.05);
    const Json j = m.to_json();
    REQUIRE(j["preprocessing"].size() == 2);
    CHECK(j["preprocessing"][0]["type"] == "poly");
    CHECK(j["preprocessing"][0]["degree"] == 2);
    CHECK(j["preprocessing"][0]["interaction_only"] == false);
    CHECK(j["preprocessing"][0]["in_features"] == 3);
    CHECK(j["preprocessing"][0]["out_features"] == 9);
    CHECK(j["state"]["coef"].size() == 9);
    const Model back = Model::from_json(Json::parse(j.dump()), "m.json");
    CHECK(back.predict(d.X) == m.predict(d.X));
    CHECK(back.to_json().dump() == j.dump());
    CHECK(back.prepared_feature_names() ==
          std::vector<std::string>{"x0", "x1", "x2", "x0^2", "x0 x1", "x0 x2", "x1^2", "x1 x2", "x2^2"});

    // The same model trained on the sparse copy of the data predicts the same values.
    Dataset s = d;
    s.X = sparse_of(d.X.dense_ref());
    const Model ms = Model::train(ridge_spec({"poly:degree=2"}), s, ctx);
    const Model md = Model::train(ridge_spec({"poly:degree=2"}), d, ctx);
    CHECK((ms.predict(s.X) - md.predict(d.X)).cwiseAbs().maxCoeff() < 1e-9);

    // A model file whose widths disagree with its degree is refused before any allocation.
    Json bad = j;
    bad["preprocessing"][0]["out_features"] = 10;
    CHECK_THROWS_AS(Model::from_json(bad, "bad.json"), ModelFileError);
    bad = j;
    bad["preprocessing"][0]["degree"] = 2000000000;
    CHECK_THROWS_AS(Model::from_json(bad, "bad.json"), ModelFileError);
}

TEST_CASE("poly: an expansion wider than the limit is refused, naming the flag") {
    const Dataset d = test::linear_regression(20, 10);
    try {
        (void)Model::train(ridge_spec({"poly:degree=3,max_width=200"}), d, Context{});
        FAIL("expected a UsageError");
    } catch (const UsageError& e) {
        const std::string what = cli::command_message(e);
        CHECK(what.find("285 columns") != std::string::npos);  // C(13, 3) - 1
        CHECK(what.find("--max-poly-width 200") != std::string::npos);
    }
    CHECK(Model::train(ridge_spec({"poly:degree=3,max_width=285"}), d, Context{}).estimator().n_features() == 285);
    // The default limit: 1000 features at degree 3 give 167,668,500 columns.
    Dataset wide = test::linear_regression(2, 1000);
    CHECK_THROWS_AS(Model::train(ridge_spec({"poly:degree=3"}), wide, Context{}), UsageError);
}

TEST_CASE("poly: under cross-validation the pipeline is fitted on each training fold only") {
    // The scaler after the expansion sees the expanded training rows of its fold: an
    // outlier in another fold would change it. Each out-of-fold prediction equals that of
    // the pipeline trained on the fold's training rows alone.
    Dataset d = quadratic(15);
    d.X.dense_mut()(14, 0) = 30;
    const ModelSpec spec = ridge_spec({"poly:degree=2", "standard"});
    CvOptions opts;
    opts.scheme = CvScheme::leave_one_out;
    opts.metrics = {"mse"};
    std::vector<Index> seen_rows;
    opts.observe = [&](const FitRecord& rec) {
        seen_rows.push_back(rec.train.rows());
        CHECK(rec.train.cols() == 3);  // the raw features: the expansion is part of the fit
    };
    Context ctx;
    ctx.threads = 2;
    const CvResult r = cross_validate(spec, d, opts, ctx);
    CHECK(seen_rows == std::vector<Index>(15, 14));
    const auto folds = leave_one_out(15);
    for (std::size_t f = 0; f < 15; ++f) {
        const Model m = Model::train(spec, d.subset(folds[f].train), ctx.child(f, 1));
        CHECK(r.out_of_fold.y_pred[static_cast<Index>(f)] == m.predict(d.X.rows_subset(folds[f].test))[0]);
    }
}

}  // TEST_SUITE

}  // namespace unit_preprocess_polynomial_features_test
}  // namespace
