#include <doctest/doctest.h>

#include <string>

#include "kestrel/common/class_weight.hpp"  // plus_minus
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/linear/logistic.hpp"
#include "kestrel/optim/l1_logistic.hpp"
#include "kestrel/optim/logistic_objective.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_l1_logistic_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

struct Split {
    Dataset train, test;
};

Split load_split(const std::string& train, const std::string& test) {
    Split s{make_dataset(read_table(train, ReadOptions{}), Task::classification),
            make_dataset(read_table(test, ReadOptions{}), Task::classification)};
    s.test.X = s.test.X.with_cols(s.train.cols());
    return s;
}

const Split& heart_scale() {
    static const Split s = load_split(std::string(KESTREL_SHARED_DATA) + "/heart_scale/train.libsvm",
                                      std::string(KESTREL_SHARED_DATA) + "/heart_scale/test.libsvm");
    return s;
}

const Split& sparse_binary() {
    static const Split s =
        load_split(std::string(KESTREL_SOURCE_DIR) + "/tests/unit/linear/data/sparse_binary.train.libsvm",
                   std::string(KESTREL_SOURCE_DIR) + "/tests/unit/linear/data/sparse_binary.test.libsvm");
    return s;
}

std::unique_ptr<LogisticRegression> fit(const Dataset& d, const Params& given, const Context& ctx = Context{}) {
    Params p = given;
    p["penalty"] = "l1";
    auto m = make<LogisticRegression>(logistic_model_info(), p);
    m->fit(d, ctx);
    return m;
}

double objective(const Dataset& d, const LogisticRegression& m, double C) {
    const Vector y = plus_minus(d);
    Vector z = d.X.multiply(Vector(m.coef().row(0).transpose()));
    z.array() += m.intercept()[0];
    double f = m.coef().lpNorm<1>();
    for (Index i = 0; i < z.size(); ++i) f += C * log1p_exp(-y[i] * z[i]);
    return f;
}

std::string predictions(const LogisticRegression& m, const Features& X) {
    std::string out;
    const Vector p = m.predict(X);
    for (Index i = 0; i < p.size(); ++i) out += p[i] > 0.5 ? '1' : '0';
    return out;
}

}  // namespace

TEST_SUITE("linear") {

TEST_CASE("logistic penalty=l1: objective and predictions agree with LIBLINEAR -s 6") {
    // Printed by tests/unit/linear/make_svm_references.py: LIBLINEAR 2.3.0 (Debian
    // liblinear-tools 2.3.0+dfsg-5), `liblinear-train -s 6 -c C -e 1e-06 -B -1 train.libsvm`
    // (no bias: LIBLINEAR 2.3 penalises its bias, kestrel never does), the objective
    // ‖w‖₁ + C Σ log(1 + e^{−y wᵀx}) recomputed from its model file, its number of non-zero
    // weights and `liblinear-predict` on the test file.
    struct Ref {
        const Split& data;
        double C, objective;
        int nonzeros;
        const char* predictions;
    };
    const Ref refs[] = {
        {heart_scale(), 1.0, 79.3386822025972, 11, "000100011101011101010100010001011100100010011011111101"},
        {sparse_binary(), 4.0, 367.6608159119828, 132,
         "10101000100000111001010010101000111111101001011001000001000000000010100100011001"},
    };
    for (const Ref& r : refs) {
        CAPTURE(r.C);
        const auto m = fit(r.data.train, {{"C", r.C}, {"fit_intercept", false}, {"tol", 1e-8}, {"max_iter", 100000}});
        CHECK(std::abs(objective(r.data.train, *m, r.C) - r.objective) / r.objective < 1e-6);
        CHECK((m->coef().array() != 0).count() == r.nonzeros);
        // Rows whose features all have zero weight score exactly 0 (no bias): LIBLINEAR then
        // predicts its second label (here "1"), kestrel classes[0]. Compare the other rows.
        const std::string ours = predictions(*m, r.data.test.X);
        const Matrix z = m->decision_function(r.data.test.X);
        int compared = 0;
        for (std::size_t i = 0; i < ours.size(); ++i) {
            if (z(static_cast<Index>(i), 0) == 0.0) continue;
            ++compared;
            CHECK(ours[i] == r.predictions[i]);
        }
        CHECK(compared >= static_cast<int>(ours.size()) * 3 / 4);
        CHECK(m->intercept()[0] == 0.0);
    }
}

TEST_CASE("logistic penalty=l1: the solution satisfies the subgradient conditions, with an intercept") {
    // At the optimum: |g_j| ≤ 1 where w_j = 0, g_j = −sign(w_j) elsewhere, and the
    // unpenalised intercept's derivative is 0. newGLMNET stops when the summed violation is
    // tol times its value at w = 0 (breast_cancer's 30 correlated columns included: the old
    // coordinate descent, CDN, still had 7.6e-4 there after 300 sweeps).
    const double tol = 1e-7;
    for (const Dataset& d : {heart_scale().train, sparse_binary().train, breast_cancer()}) {
        const double C = 0.5;
        const Vector y = plus_minus(d), cost = Vector::Constant(d.rows(), C);
        std::string warned;
        Context ctx;
        ctx.warn = [&](const std::string& msg) { warned = msg; };
        const auto m = fit(d, {{"C", C}, {"tol", tol}, {"max_iter", 100}}, ctx);
        CHECK(warned.empty());
        const Vector v = l1_logistic_violations(d.X, y, cost, m->coef().row(0).transpose(), m->intercept()[0], true);
        const Vector v0 = l1_logistic_violations(d.X, y, cost, Vector::Zero(d.cols()), 0.0, true);
        CHECK(v.sum() <= tol * v0.sum() * (1 + 1e-6));  // the stopping rule, recomputed from scratch
        CHECK(v.maxCoeff() < 1e-4);                        // in units of the penalty's slope (1)
        CHECK((m->coef().array() == 0).count() > 0);       // L1 gives sparse weights
    }
}

TEST_CASE("logistic penalty=l1: newGLMNET takes few Newton steps and warns at max_iter") {
    // heart_scale to tol 1e-10 in 33 Newton iterations (the inner tolerance tightens as it
    // goes; LIBLINEAR caps -s 6 at 100), where CDN needed hundreds of sweeps.
    const Dataset& d = heart_scale().train;
    L1LogisticOptions o;
    o.tol = 1e-10;
    const L1LogisticResult r = solve_l1_logistic(d.X, plus_minus(d), Vector::Constant(d.rows(), 1.0), o);
    CHECK(r.converged);
    CHECK(r.iterations <= 40);
    std::string warned;
    Context ctx;
    ctx.warn = [&](const std::string& msg) { warned = msg; };
    const auto m = fit(d, {{"tol", 1e-10}, {"max_iter", 1}}, ctx);
    CHECK(warned.find("max_iter=1") != std::string::npos);
    CHECK((m->coef().array() != 0).count() > 0);  // one Newton step already moved off w = 0
}

TEST_CASE("logistic penalty=l1: dense and sparse agree, threads do not matter, class weights scale C") {
    const Dataset& d = heart_scale().train;
    Dataset dense = d;
    dense.X = Features(d.X.to_dense());
    const Params p{{"tol", 1e-8}, {"max_iter", 1000}};
    const auto a = fit(d, p), b = fit(dense, p);
    CHECK(relative_error(a->coef(), b->coef()) < 1e-5);
    // A class weight 2 on both classes is C = 2.
    Params w = p;
    w["class_weight"] = "0:2,1:2";
    Params c = p;
    c["C"] = 2.0;
    CHECK(relative_error(fit(d, w)->coef(), fit(d, c)->coef()) < 1e-8);
    // Stronger regularisation, fewer non-zeros.
    CHECK((fit(d, {{"C", 0.05}})->coef().array() != 0).count() < (fit(d, {{"C", 5.0}})->coef().array() != 0).count());
}

TEST_CASE("logistic penalty=l1: the same model at 1 and 2 threads, dense and sparse, several row blocks") {
    // 20000 rows: three of the solver's fixed 8192-row blocks, so the row-wise passes do
    // split across threads. Features ~70% zeros; the label depends on four of them.
    Rng rng(5);
    const Index n = 20000, d = 12;
    DenseMatrix X = DenseMatrix::Zero(n, d);
    Dataset ds;
    ds.task = Task::classification;
    ds.classes = {"0", "1"};
    ds.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < d; ++j)
            if (rng.uniform() < 0.3) X(i, j) = rng.normal();
        const double t = 1.5 * X(i, 0) - X(i, 1) + 0.5 * X(i, 2) + 0.25 * X(i, 3) + 0.2 + rng.normal();
        ds.y[i] = t > 0 ? 1.0 : 0.0;
    }
    ds.X = Features(X);
    for (const Dataset& data : {ds, with_sparse_features(ds)}) {
        CAPTURE(data.X.is_sparse());
        Context one, two;
        one.threads = 1;
        two.threads = 2;
        const Params p{{"C", 0.01}, {"tol", 1e-6}};
        const auto a = fit(data, p, one), b = fit(data, p, two);
        CHECK(a->save_state().dump() == b->save_state().dump());
        const Vector v = l1_logistic_violations(data.X, plus_minus(data), Vector::Constant(n, 0.01),
                                                a->coef().row(0).transpose(), a->intercept()[0], true);
        CHECK(v.maxCoeff() < 1e-3);
        CHECK(a->coef()(0, 0) > 0);
        CHECK(a->coef()(0, 1) < 0);
    }
}

TEST_CASE("logistic penalty=l1: more than two classes need one-vs-rest") {
    CHECK_THROWS_AS(fit(iris(), {}), UsageError);
    CHECK_THROWS_AS(make<LogisticRegression>(logistic_model_info(), {{"penalty", "elasticnet"}}), ParamError);
}

}  // TEST_SUITE

}  // namespace unit_linear_l1_logistic_test
}  // namespace
