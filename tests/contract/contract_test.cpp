// One suite over every registered model (scikit-learn's check_estimator in spirit):
// fit on tiny data, save -> load -> save is byte-identical, reloaded predictions are
// bit-identical, unknown parameters throw, the same seed gives the same model at any
// thread count, predicting before fitting throws.
#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "model_fixtures.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace contract_contract_test {

using namespace kestrel;

namespace {

Dataset data_for(const ModelInfo& info, Index k) {
    return info.tasks.front() == Task::classification ? test::blobs(60, 4, k) : test::linear_regression(60, 4);
}

Json train_json(const std::string& name, const Dataset& d, int threads, std::uint64_t seed) {
    ModelSpec spec;
    spec.model = name;
    Context ctx;
    ctx.seed = seed;
    ctx.threads = threads;
    return Model::train(spec, d, ctx).to_json();
}

}  // namespace

TEST_SUITE("contract") {
    TEST_CASE("every registered model honours the estimator contract") {
        for (const auto& name : registry().names()) {
            const ModelInfo& info = registry().info(name);
            const Index ks[] = {2, 3};
            for (Index k : ks) {
                if (k == 3 && !info.is_classifier()) continue;
                CAPTURE(name);
                CAPTURE(k);
                const Dataset d = data_for(info, k);
                ModelSpec spec;
                spec.model = name;
                Context ctx;
                const Model m = Model::train(spec, d, ctx);

                const std::string saved = m.to_json().dump();
                const Model back = Model::from_json(Json::parse(saved), "mem");
                CHECK(back.to_json().dump() == saved);
                const Vector p1 = m.predict(d.X), p2 = back.predict(d.X);
                CHECK(p1 == p2);
                if (m.has_decision_function()) CHECK(m.decision_function(d.X) == back.decision_function(d.X));
                if (m.has_predict_proba()) {
                    const Matrix p = back.predict_proba(d.X);
                    CHECK(m.predict_proba(d.X) == p);
                    CHECK((p.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-9);
                }

                // Sensible on easy data: the contract fixture is well separated / nearly linear.
                if (info.tasks.front() == Task::classification) {
                    double correct = 0;
                    for (Index i = 0; i < d.rows(); ++i) correct += p1[i] == d.y[i];
                    CHECK(correct / static_cast<double>(d.rows()) > 0.8);
                }

                CHECK(train_json(name, d, 1, 5) == train_json(name, d, 2, 5));
                CHECK(train_json(name, d, 2, 5) == train_json(name, d, 2, 5));

                CHECK_THROWS_AS(registry().create(name, Params{{"no_such_param", "1"}}), ParamError);
                auto unfitted = registry().create(name, Params::object());
                CHECK_FALSE(unfitted->fitted());
                CHECK_THROWS_AS(unfitted->predict(d.X), InternalError);
            }
        }
    }

    // Features::borrowed (the C interface's row-major arrays, read in place): the same
    // model as on owned rows, the rows never written (not even by preprocessing), and nothing
    // of them kept: the model predicts the same after the caller's buffer is overwritten.
    TEST_CASE("every model trains on borrowed rows as on its own copy, and keeps none of them") {
        for (const auto& name : registry().names()) {
            for (const bool scaled : {false, true}) {
                CAPTURE(name);
                CAPTURE(scaled);
                const ModelInfo& info = registry().info(name);
                const Dataset d = data_for(info, info.is_classifier() ? 3 : 2);
                ModelSpec spec;
                spec.model = name;
                if (scaled) spec.preprocessing = {"standard"};
                const Model owned = Model::train(spec, d, Context{});
                DenseMatrix caller(d.X.dense_ref());  // the caller's buffer
                const DenseMatrix before = caller;
                Dataset lent = d;
                lent.X = Features::borrowed(caller.data(), caller.rows(), caller.cols());
                REQUIRE(lent.X.dense_ref().data() == caller.data());
                const Model by_ref = Model::train(spec, lent, Context{});
                const Model by_move = Model::train(spec, std::move(lent), Context{});
                CHECK(caller == before);
                CHECK(by_ref.to_json().dump() == owned.to_json().dump());
                CHECK(by_move.to_json().dump() == owned.to_json().dump());
                // Scoring borrowed rows reads them in place, with the same results.
                const Features rows = Features::borrowed(caller.data(), caller.rows(), caller.cols());
                CHECK(owned.predict(rows) == owned.predict(d.X));
                caller.setConstant(std::nan(""));  // as if the caller freed its buffer
                CHECK(by_ref.predict(d.X) == owned.predict(d.X));
                CHECK(by_move.predict(d.X) == owned.predict(d.X));
            }
        }
    }

    TEST_CASE("every model reads sparse input") {
        for (const auto& name : registry().names()) {
            CAPTURE(name);
            const ModelInfo& info = registry().info(name);
            Dataset d = data_for(info, 2);
            Dataset s = d;
            s.X = Features(SparseMatrix(d.X.dense_ref().sparseView()));
            ModelSpec spec;
            spec.model = name;
            const Model md = Model::train(spec, d, Context{});
            const Model ms = Model::train(spec, s, Context{});
            // Same maths, different summation order: predictions agree to rounding.
            CHECK((md.predict(d.X) - ms.predict(s.X)).cwiseAbs().maxCoeff() < 1e-6);
        }
    }
}

}  // namespace contract_contract_test
}  // namespace
