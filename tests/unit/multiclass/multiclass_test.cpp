#include <doctest/doctest.h>

#include "kestrel/multiclass/multiclass_wrapper.hpp"
#include "kestrel/pipeline/model.hpp"
#include "model_fixtures.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_multiclass_multiclass_test {

using namespace kestrel;

TEST_SUITE("multiclass") {
    TEST_CASE("pairwise coupling of consistent pairwise probabilities recovers p") {
        // If p = (0.5, 0.3, 0.2) then r_ij = p_i / (p_i + p_j) exactly; the coupling
        // objective is then zero at p, so the fixed point must return it.
        const Vector p = (Vector(3) << 0.5, 0.3, 0.2).finished();
        Matrix r = Matrix::Zero(3, 3);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                if (i != j) r(i, j) = p[i] / (p[i] + p[j]);
        const Vector q = pairwise_coupling(r);
        CHECK(q.sum() == doctest::Approx(1.0));
        for (int i = 0; i < 3; ++i) CHECK(q[i] == doctest::Approx(p[i]).epsilon(1e-3));
    }

    TEST_CASE("pairwise coupling of uninformative pairs is uniform") {
        Matrix r = Matrix::Constant(4, 4, 0.5);
        const Vector q = pairwise_coupling(r);
        for (int i = 0; i < 4; ++i) CHECK(q[i] == doctest::Approx(0.25));
    }
}


TEST_SUITE("multiclass") {
    TEST_CASE("one-vs-rest and one-vs-one wrap a binary-capable model") {
        const Dataset d = test::blobs(90, 3, 3);
        for (const char* strategy : {"ovr", "ovo"}) {
            CAPTURE(strategy);
            ModelSpec spec;
            spec.model = "logistic";
            spec.params = {{"multiclass", strategy}};
            const Model m = Model::train(spec, d, Context{});
            const Json j = m.to_json();
            CHECK(j["state"]["strategy"] == strategy);
            CHECK(j["state"]["members"].size() == 3);  // 3 classes: 3 one-vs-rest or 3 pairs
            const Vector pred = m.predict(d.X);
            double correct = 0;
            for (Index i = 0; i < d.rows(); ++i) correct += pred[i] == d.y[i];
            CHECK(correct / 90.0 > 0.9);
            const Matrix p = m.predict_proba(d.X);
            CHECK((p.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-9);
            const Model back = Model::from_json(j, "mem");
            CHECK(back.predict(d.X) == pred);
            CHECK(back.predict_proba(d.X) == p);
        }
    }

    TEST_CASE("one-vs-one votes: prediction is the class with most pairwise wins") {
        const Dataset d = test::blobs(60, 4, 4);
        ModelSpec spec;
        spec.model = "logistic";
        spec.params = {{"multiclass", "ovo"}};
        const Model m = Model::train(spec, d, Context{});
        const Matrix votes = m.decision_function(d.X);  // votes + confidence in (-1/3, 1/3)
        const Vector pred = m.predict(d.X);
        for (Index i = 0; i < d.rows(); ++i) {
            CHECK(votes.row(i).array().round().sum() == doctest::Approx(6.0));  // 4 choose 2 pairs
            Index best = 0;
            for (Index c = 1; c < 4; ++c)
                if (std::round(votes(i, c)) > std::round(votes(i, best))) best = c;
            CHECK(pred[i] == static_cast<double>(best));
        }
    }

    TEST_CASE("two classes use a single member directly") {
        ModelSpec spec;
        spec.model = "logistic";
        spec.params = {{"multiclass", "ovr"}};
        const Model m = Model::train(spec, test::blobs(40, 2, 2), Context{});
        CHECK(m.to_json()["state"]["direct"] == true);
        CHECK(m.to_json()["state"]["members"].size() == 1);
    }
}

}  // namespace unit_multiclass_multiclass_test
}  // namespace
