#include <doctest/doctest.h>

#include <set>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/multiclass/ecoc.hpp"
#include "kestrel/pipeline/model.hpp"
#include "model_fixtures.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_multiclass_ecoc_test {

using namespace kestrel;

namespace {

bool same_problem(const CodeMatrix& m, Index a, Index b) {
    return m.col(a) == m.col(b) || m.col(a) == -m.col(b);
}

Dataset fixture(const std::string& name, const std::string& part) {
    Table t = read_table(test::shared_data(name + "/" + part + ".scaled.csv"), ReadOptions{});
    return make_dataset(std::move(t), Task::classification);
}

double accuracy(const Vector& pred, const Vector& truth) {
    return (pred.array() == truth.array()).cast<double>().mean();
}

}  // namespace

TEST_SUITE("multiclass") {
    TEST_CASE("ecoc code: sizes, signs, no constant or repeated column, distinct codewords, seeded") {
        const CodeMatrix c = random_ecoc_code(5, 2.0, 42);
        REQUIRE(c.rows() == 5);
        REQUIRE(c.cols() == 10);  // floor(2.0 * 5), as scikit-learn's int(n_classes * code_size)
        CHECK((c.array().abs() == 1).all());
        for (Index m = 0; m < c.cols(); ++m) {
            CHECK(c.col(m).minCoeff() == -1);
            CHECK(c.col(m).maxCoeff() == 1);
            for (Index e = 0; e < m; ++e) CHECK_FALSE(same_problem(c, e, m));  // 10 <= 2^4 - 1 distinct problems
        }
        for (Index a = 0; a < 5; ++a)
            for (Index b = a + 1; b < 5; ++b) CHECK(c.row(a) != c.row(b));
        CHECK(random_ecoc_code(5, 2.0, 42) == c);
        CHECK(random_ecoc_code(5, 2.0, 43) != c);

        // Three classes have only 3 distinct problems: the 4th bit of code_size 1.5 repeats one.
        const CodeMatrix small = random_ecoc_code(3, 1.5, 7);
        REQUIRE(small.cols() == 4);
        for (Index m = 0; m < 4; ++m) CHECK(small.col(m).minCoeff() != small.col(m).maxCoeff());
        for (Index m = 0; m < 3; ++m)
            for (Index e = 0; e < m; ++e) CHECK_FALSE(same_problem(small, e, m));
        CHECK(random_ecoc_code(4, 0.1, 1).cols() == 1);  // at least one bit
        CHECK_THROWS_AS(random_ecoc_code(3, 0.0, 1), ParamError);
    }

    TEST_CASE("ecoc decoding against a hand-worked example") {
        CodeMatrix code(3, 3);
        code << 1, 1, -1, -1, 1, 1, 1, -1, 1;
        Matrix z(1, 3);
        z << 2, -1, 0.5;
        // Loss: -Σ_m log(1 + exp(-M_cm z_m)), e.g. class 2: log(1+e^-2) + log(1+e^-1) + log(1+e^-0.5).
        const Matrix loss = ecoc_decode_loss(z, code);
        CHECK(loss(0, 0) == doctest::Approx(-2.414266682741302).epsilon(1e-12));
        CHECK(loss(0, 1) == doctest::Approx(-3.914266682741302).epsilon(1e-12));
        CHECK(loss(0, 2) == doctest::Approx(-0.9142666827413021).epsilon(1e-12));
        // Hamming distances of the signs (+,-,+): 2, 2, 0; ties broken by L / (3 (L + 1)).
        const Matrix ham = ecoc_decode_hamming(z, code);
        auto tie = [](double l) { return l / (3 * (l + 1)); };
        CHECK(ham(0, 0) == doctest::Approx(-(2 + tie(2.414266682741302))));
        CHECK(ham(0, 1) == doctest::Approx(-(2 + tie(3.914266682741302))));
        CHECK(ham(0, 2) == doctest::Approx(-(0 + tie(0.9142666827413021))));
        CHECK(ham(0, 0) > ham(0, 1));  // equal distance: the smaller loss wins
        // A zero margin counts half a bit.
        z << 0, 0, 0;
        const Matrix half = ecoc_decode_hamming(z, code);
        CHECK(half(0, 0) == doctest::Approx(-(1.5 + tie(3 * std::log(2.0)))));
    }

    TEST_CASE("ecoc on iris and wine: accuracy as scikit-learn's OutputCodeClassifier, save and load") {
        // scikit-learn 1.2.1 OutputCodeClassifier(LogisticRegression(C=1), code_size=1.5) on the same
        // scaled splits, mean test accuracy over 10 random codes: iris 0.8200, wine 1.0000
        // (tests/unit/model_selection/make_imbalance_references.py).
        const struct {
            const char* name;
            double sklearn;
        } cases[] = {{"iris", 0.82}, {"wine", 1.0}};
        for (const auto& c : cases) {
            CAPTURE(c.name);
            const Dataset train = fixture(c.name, "train"), test = fixture(c.name, "test");
            ModelSpec spec;
            spec.model = "logistic";
            spec.params = {{"multiclass", "ecoc"}};
            double mean = 0;
            for (std::uint64_t seed = 0; seed < 5; ++seed) {
                Context ctx;
                ctx.seed = seed;
                ctx.threads = 1;
                const Model m = Model::train(spec, train, ctx);
                mean += accuracy(m.predict(test.X), test.y) / 5;
                if (seed == 0) {
                    const Json j = m.to_json();
                    CHECK(j["state"]["strategy"] == "ecoc");
                    CHECK(j["state"]["code"].size() == train.classes.size());
                    const Model back = Model::from_json(j, "mem");
                    CHECK(back.predict(test.X) == m.predict(test.X));
                    CHECK(back.decision_function(test.X) == m.decision_function(test.X));
                    CHECK(back.to_json() == j);
                    CHECK_FALSE(m.has_predict_proba());
                }
            }
            CHECK(mean >= c.sklearn - 0.05);
        }
    }

    TEST_CASE("ecoc: hamming decoding, members with probabilities only, and thread-independence") {
        const Dataset d = test::blobs(120, 4, 4);
        for (const char* model : {"logistic", "tree"}) {
            for (const char* decoding : {"loss", "hamming"}) {
                CAPTURE(model);
                CAPTURE(decoding);
                ModelSpec spec;
                spec.model = model;
                spec.params = {{"multiclass", "ecoc"}, {"decoding", decoding}, {"code_size", 2}};
                Context one, two;
                one.threads = 1;
                two.threads = 2;
                const Model a = Model::train(spec, d, one), b = Model::train(spec, d, two);
                CHECK(a.to_json()["state"] == b.to_json()["state"]);
                CHECK(a.to_json()["state"]["members"].size() == 8);
                CHECK(accuracy(a.predict(d.X), d.y) > 0.85);
            }
        }
    }
}

}  // namespace unit_multiclass_ecoc_test
}  // namespace
