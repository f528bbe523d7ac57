// logistic solver=tron (LIBLINEAR -s 0's trust-region Newton) against LIBLINEAR and L-BFGS.
#include <doctest/doctest.h>

#include <string>

#include "kestrel/linear/logistic.hpp"
#include "kestrel/optim/logistic_objective.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_logistic_tron_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

std::unique_ptr<LogisticRegression> fit(const Dataset& d, const Params& given) {
    auto m = make<LogisticRegression>(logistic_model_info(), given);
    m->fit(d, Context{});
    return m;
}

struct Split {
    Dataset train, test;
};

Split load_split(const std::string& train, const std::string& test) {
    Split out{make_dataset(read_table(train, ReadOptions{}), Task::classification),
              make_dataset(read_table(test, ReadOptions{}), Task::classification)};
    out.test.X = out.test.X.with_cols(out.train.cols());
    return out;
}

double objective(const Dataset& d, const LogisticRegression& m, double C) {
    const Vector y = (d.y.array() > 0.5).select(Vector::Ones(d.rows()), -Vector::Ones(d.rows()));
    BinaryLogisticObjective f(d.X, y, Vector::Constant(d.rows(), C), false);
    return f.value(m.coef().row(0).transpose());
}

std::string predictions(const LogisticRegression& m, const Features& X) {
    std::string out;
    const Vector p = m.predict(X);
    for (Index i = 0; i < p.size(); ++i) out += p[i] > 0.5 ? '1' : '0';
    return out;
}

}  // namespace

TEST_SUITE("linear") {
    TEST_CASE("logistic solver=tron: objective and predictions agree with LIBLINEAR -s 0") {
        // tests/unit/linear/make_linsvm_references.py: LIBLINEAR 2.3.0 (Debian liblinear-tools
        // 2.3.0+dfsg-5), `liblinear-train -s 0 -c C -e 1e-06 -B -1 train.libsvm` (no bias: kestrel
        // never penalises its intercept, LIBLINEAR's -B does), objective recomputed from its model.
        struct Ref {
            const char* what;
            std::string train, test;
            double C, objective;
            const char* predictions;
        };
        const std::string ref_dir = KESTREL_SHARED_DATA,
                          own = std::string(KESTREL_SOURCE_DIR) + "/tests/unit/linear/data/";
        const Ref refs[] = {
            {"heart_scale -c 1", ref_dir + "/heart_scale/train.libsvm", ref_dir + "/heart_scale/test.libsvm", 1.0,
             74.94704339625834, "000100011101011101010100010001011100100010011011111101"},
            {"sparse_binary -c 4", own + "sparse_binary.train.libsvm", own + "sparse_binary.test.libsvm", 4.0,
             297.31129034309663, "00101000100000111001010100101000110110001001001000001000000000000010100000011101"},
        };
        for (const Ref& ref : refs) {
            CAPTURE(ref.what);
            const Split s = load_split(ref.train, ref.test);
            for (const char* solver : {"tron", "lbfgs"}) {
                CAPTURE(solver);
                const auto m =
                    fit(s.train, {{"C", ref.C}, {"fit_intercept", false}, {"tol", 1e-8}, {"solver", solver}});
                CHECK(std::abs(objective(s.train, *m, ref.C) - ref.objective) / ref.objective < 1e-6);
                CHECK(predictions(*m, s.test.X) == ref.predictions);
            }
        }
    }

    TEST_CASE("logistic solver=tron: same optimum as L-BFGS, binary with intercept and multinomial") {
        for (const Dataset* d : {&breast_cancer(), &iris()}) {
            const Params base{{"C", 0.5}, {"tol", 1e-9}, {"class_weight", "balanced"}};
            Params tron = base;
            tron["solver"] = "tron";
            const auto a = fit(*d, tron);
            const auto b = fit(*d, base);
            CHECK(relative_error(a->coef(), b->coef()) < 1e-5);
            CHECK(relative_error(a->intercept(), b->intercept()) < 1e-5);
            // Sparse copy: the same model up to rounding.
            const auto c = fit(with_sparse_features(*d), tron);
            CHECK(relative_error(a->coef(), c->coef()) < 1e-9);
        }
    }

}  // TEST_SUITE

}  // namespace unit_linear_logistic_tron_test
}  // namespace
