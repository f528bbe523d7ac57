// kestrel-train gives its rows up (Model::train(spec, Dataset&&)), and the L1 solvers then
// rearrange the features' own storage into columns; cv and gridsearch keep theirs (const
// Dataset&), and the solvers copy the columns out. Both must give the same model, byte
// for byte, for both L1 solvers, dense and sparse, binary and one-vs-rest, with class and
// sample weights.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "kestrel/core/rng.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_l1_owned_fit_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

const Dataset& heart_scale() {
    static const Dataset d = load("heart_scale/train.libsvm", Task::classification);
    return d;
}

Dataset dense_copy(const Dataset& d) {
    Dataset out = d;
    out.X = Features(d.X.to_dense());
    return out;
}

// 600 x 30 with ~80% zeros, three classes, unequal sample weights: several passes of the
// in-place conversions at their default budgets would need far more rows, so this checks
// the plumbing; the conversions' own tests drive every path.
Dataset random_three_classes() {
    Rng rng(11);
    const Index n = 600, d = 30;
    DenseMatrix X = DenseMatrix::Zero(n, d);
    Dataset ds;
    ds.task = Task::classification;
    ds.classes = {"a", "b", "c"};
    ds.y.resize(n);
    ds.weights.resize(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < d; ++j)
            if (rng.uniform() < 0.2) X(i, j) = rng.normal();
        const double t = X(i, 0) - X(i, 1) + 0.5 * rng.normal();
        ds.y[i] = t > 0.5 ? 2.0 : (t < -0.5 ? 0.0 : 1.0);
        ds.weights[i] = 0.5 + rng.uniform();
    }
    ds.X = Features(X);
    return ds;
}

ModelSpec spec(const std::string& model, Params p) {
    p["penalty"] = "l1";
    if (model == "linear_svm") p["loss"] = "squared_hinge";
    ModelSpec s;
    s.model = model;
    s.params = std::move(p);
    return s;
}

// The model file's text (provenance included: the same rows, the same file).
std::string borrowed(const ModelSpec& s, const Dataset& d, const Context& ctx) {
    return Model::train(s, d, ctx).to_json().dump();
}

std::string owned(const ModelSpec& s, const Dataset& d, const Context& ctx, bool* taken_over = nullptr) {
    Dataset given = d;
    const std::string text = Model::train(s, std::move(given), ctx).to_json().dump();
    if (taken_over) *taken_over = given.X.rows() == 0;
    return text;
}

}  // namespace

TEST_CASE("L1 solvers: a fit on rows given up equals the fit on borrowed rows, byte for byte") {
    const Dataset heart = heart_scale(), three = random_three_classes();
    const std::vector<std::pair<std::string, Dataset>> data{{"heart_scale sparse", heart},
                                                            {"heart_scale dense", dense_copy(heart)},
                                                            {"three classes dense", three},
                                                            {"three classes sparse", with_sparse_features(three)}};
    for (const std::string model : {"logistic", "linear_svm"})
        for (const auto& [name, d] : data)
            for (const std::string& weights : {std::string(), std::string("balanced"), d.classes[0] + ":3"}) {
                CAPTURE(model);
                CAPTURE(name);
                CAPTURE(weights);
                Params p{{"C", 0.5}, {"class_weight", weights}};
                if (d.n_classes() > 2) p["multiclass"] = "ovr";  // logistic penalty=l1 is binary
                const ModelSpec s = spec(model, p);
                for (int threads : {1, 2}) {
                    const Context ctx = test::threads(threads);
                    CHECK(owned(s, d, ctx) == borrowed(s, d, ctx));
                }
            }
}

TEST_CASE("L1 solvers: binary rows given up are taken over, without an intercept and after --scale too") {
    const Dataset heart = heart_scale();
    for (const std::string model : {"logistic", "linear_svm"})
        for (const Dataset& d : {heart, dense_copy(heart)}) {
            CAPTURE(model);
            CAPTURE(d.X.is_sparse());
            ModelSpec s = spec(model, {{"fit_intercept", false}});
            bool taken_over = false;
            CHECK(owned(s, d, Context{}, &taken_over) == borrowed(s, d, Context{}));
            CHECK(taken_over);  // the point: the solver's columns are the rows' own storage
            s.preprocessing = {"standard"};
            CHECK(owned(s, d, Context{}) == borrowed(s, d, Context{}));
        }
}

TEST_CASE("L1 solvers: rows given up to a fit that needs them stay usable (C=auto, penalty=l2)") {
    const Dataset& d = heart_scale();
    for (const std::string model : {"logistic", "linear_svm"}) {
        CAPTURE(model);
        ModelSpec s = spec(model, {{"C", "auto"}});
        CHECK(owned(s, d, Context{}) == borrowed(s, d, Context{}));
        s.params["penalty"] = "l2";
        s.params.erase("C");
        CHECK(owned(s, d, Context{}) == borrowed(s, d, Context{}));
    }
}

}  // namespace unit_linear_l1_owned_fit_test
}  // namespace
