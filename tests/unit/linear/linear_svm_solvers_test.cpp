// linear_svm's LIBLINEAR solvers besides the dual one: -s 2 (primal trust-region Newton),
// -s 5 (L1-regularised squared hinge), -s 4 (Crammer-Singer), and Pegasos.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "kestrel/common/class_weight.hpp"  // plus_minus
#include "kestrel/core/error.hpp"
#include "kestrel/linear/linear_svm.hpp"
#include "kestrel/linear/squared_hinge_objective.hpp"
#include "kestrel/optim/crammer_singer.hpp"
#include "kestrel/optim/dual_cd.hpp"
#include "kestrel/optim/l1_svm.hpp"
#include "kestrel/pipeline/model.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_linear_svm_solvers_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

std::string fixture(const std::string& file) {
    return std::string(KESTREL_SOURCE_DIR) + "/tests/unit/linear/data/" + file;
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

const Split& heart_scale() {
    static const Split s = load_split(std::string(KESTREL_SHARED_DATA) + "/heart_scale/train.libsvm",
                                      std::string(KESTREL_SHARED_DATA) + "/heart_scale/test.libsvm");
    return s;
}
const Split& sparse_binary() {
    static const Split s = load_split(fixture("sparse_binary.train.libsvm"), fixture("sparse_binary.test.libsvm"));
    return s;
}
const Split& iris_scaled() {
    static const Split s = load_split(std::string(KESTREL_SHARED_DATA) + "/iris/train.scaled.libsvm",
                                      std::string(KESTREL_SHARED_DATA) + "/iris/test.scaled.libsvm");
    return s;
}
const Split& wine_scaled() {
    static const Split s = load_split(std::string(KESTREL_SHARED_DATA) + "/wine/train.scaled.libsvm",
                                      std::string(KESTREL_SHARED_DATA) + "/wine/test.scaled.libsvm");
    return s;
}

// With the registry's spec, so that the common `multiclass` parameter is there (the
// registry itself would wrap a binary-only model in one-vs-rest).
std::unique_ptr<LinearSvm> fit(const Dataset& d, const Params& given, const Context& ctx = Context{}) {
    auto m = make<LinearSvm>(registry().info("linear_svm"), given);
    m->fit(d, ctx);
    return m;
}

Vector costs(const Dataset& d, double C, double class1_weight) {
    Vector c = Vector::Constant(d.rows(), C);
    for (Index i = 0; i < d.rows(); ++i)
        if (d.y[i] > 0.5) c[i] *= class1_weight;
    return c;
}

// ŵ = [coef; intercept / B] as the solvers see it (B = 1 here).
Vector stacked(const LinearSvm& m, bool bias) {
    Vector w(m.coef().size() + (bias ? 1 : 0));
    if (bias)
        w << m.coef(), m.intercept();
    else
        w = m.coef();
    return w;
}

// Predictions where the decision value is not exactly 0; '?' at a tie. An L1 model gives a
// sparse row whose features all have zero weight a decision of exactly 0 (without bias):
// LIBLINEAR then predicts the label it saw second in the file, kestrel classes[0].
std::string decided_predictions(const LinearSvm& m, const Features& X) {
    std::string out;
    const Matrix z = m.decision_function(X);
    for (Index i = 0; i < z.rows(); ++i) out += z(i, 0) == 0 ? '?' : (z(i, 0) > 0 ? '1' : '0');
    return out;
}

bool agree_where_decided(const std::string& ours, const std::string& theirs) {
    if (ours.size() != theirs.size()) return false;
    for (std::size_t i = 0; i < ours.size(); ++i)
        if (ours[i] != '?' && ours[i] != theirs[i]) return false;
    return true;
}

std::string binary_predictions(const LinearSvm& m, const Features& X) {
    std::string out;
    const Vector p = m.predict(X);
    for (Index i = 0; i < p.size(); ++i) out += p[i] > 0.5 ? '1' : '0';
    return out;
}

// Class labels as written ("0", "1", "2"), space-separated, as liblinear-predict prints them.
std::string class_predictions(const Estimator& m, const Dataset& train, const Features& X) {
    std::string out;
    const Vector p = m.predict(X);
    for (Index i = 0; i < p.size(); ++i) out += (i ? " " : "") + train.classes[static_cast<std::size_t>(p[i])];
    return out;
}

struct BinaryReference {
    const char* what;
    bool sparse_fixture;
    double C, class1_weight;
    bool bias;
    double objective;
    int nonzeros;  // -s 5 only
    const char* test_predictions;
};

// Printed by tests/unit/linear/make_linsvm_references.py: LIBLINEAR 2.3.0 (Debian
// liblinear-tools 2.3.0+dfsg-5), `liblinear-train -s S -c C -e 1e-06 -B B [-w1 W] train.libsvm`,
// the primal objective recomputed from its model file, and `liblinear-predict` on the test file.
// -s 2 reaches the same optimum as -s 1 (linear_svm_test.cpp), as it must.
const BinaryReference s2_references[] = {
    {"heart_scale -s 2 -c 1 -B 1", false, 1.0, 1.0, true, 86.73838418387426, 0,
     "000100011101011101010100010001011100100010111011111101"},
    {"heart_scale -s 2 -c 0.5 -B 1 -w1 2", false, 0.5, 2.0, true, 63.16190806332515, 0,
     "000110011101011101010100010001011101100010111011111101"},
    {"sparse_binary -s 2 -c 4 -B 1", true, 4.0, 1.0, true, 51.83453240406588, 0,
     "00101000100000000001000000101000100110000001000000000000000000000000100100010001"},
    {"sparse_binary -s 2 -c 1 -B -1", true, 1.0, 1.0, false, 49.77728820046284, 0,
     "10101000100000111001010000101000110110001001011000000000000000000010100000011101"},
};
const BinaryReference s5_references[] = {
    {"heart_scale -s 5 -c 1 -B 1", false, 1.0, 1.0, true, 90.13220789987462, 14,
     "000100011101011101010100010001011100100010111011111101"},
    {"heart_scale -s 5 -c 0.5 -B 1 -w1 2", false, 0.5, 2.0, true, 66.67034067558319, 14,
     "000110011101011101010100010001011100100010111011111101"},
    {"sparse_binary -s 5 -c 2 -B 1", true, 2.0, 1.0, true, 95.02233516095194, 113,
     "00001000100000100001000001101000100000000001000000000000000000100000100100010001"},
    {"sparse_binary -s 5 -c 1 -B -1", true, 1.0, 1.0, false, 114.81327570035418, 145,
     "10101000100000111001010010101000111101100001011001000001000000000010100100011001"},
};

Params reference_params(const BinaryReference& ref) {
    return Params{{"C", ref.C},
                  {"eps", 1e-6},
                  {"fit_intercept", ref.bias},
                  {"class_weight", ref.class1_weight == 1.0 ? "" : "1:2"}};
}

}  // namespace

TEST_SUITE("linear") {
    TEST_CASE("linear_svm solver=primal: objective and predictions agree with LIBLINEAR -s 2") {
        for (const BinaryReference& ref : s2_references) {
            CAPTURE(std::string(ref.what));
            const Split& data = ref.sparse_fixture ? sparse_binary() : heart_scale();
            Params given = reference_params(ref);
            given["solver"] = "primal";
            const auto m = fit(data.train, given);
            SquaredHingeObjective f(data.train.X, plus_minus(data.train), costs(data.train, ref.C, ref.class1_weight),
                                    ref.bias ? 1.0 : 0.0);
            const double ours = f.value(stacked(*m, ref.bias));
            CHECK(std::abs(ours - ref.objective) / ref.objective < 1e-6);
            CHECK(std::abs(m->objective() - ours) <= 1e-9 * ours);
            CHECK(binary_predictions(*m, data.test.X) == ref.test_predictions);
        }
    }

    TEST_CASE("linear_svm solver=primal: the gradient vanishes at the solution and matches the dual's optimum") {
        const Dataset& d = sparse_binary().train;
        const auto primal = fit(d, {{"solver", "primal"}, {"C", 2.0}, {"eps", 1e-8}});
        SquaredHingeObjective f(d.X, plus_minus(d), Vector::Constant(d.rows(), 2.0), 1.0);
        Vector g;
        const Vector w = stacked(*primal, true);
        f.value_gradient(w, g);
        Vector g0;
        f.value_gradient(Vector::Zero(w.size()), g0);
        CHECK(g.norm() <= 1e-7 * g0.norm());
        const auto dual = fit(d, {{"solver", "dual"}, {"C", 2.0}, {"eps", 1e-8}, {"max_iter", 100000}});
        CHECK(relative_error(primal->coef(), dual->coef()) < 1e-5);
    }

    TEST_CASE("squared hinge objective: gradient and Hessian-vector product against finite differences") {
        const Dataset& d = heart_scale().train;
        Vector cost = costs(d, 0.7, 1.5);
        for (const double bias : {0.0, 1.0}) {
            CAPTURE(bias);
            SquaredHingeObjective f(d.X, plus_minus(d), cost, bias);
            Vector w(f.dimension());
            for (Index j = 0; j < w.size(); ++j) w[j] = 0.05 * std::sin(1.0 + 3.0 * static_cast<double>(j));
            Vector g;
            f.value_gradient(w, g);
            CHECK(relative_error(g, central_difference_gradient(f, w)) < 1e-6);
            // H v = (∇f(w + h v) − ∇f(w − h v)) / 2h where the active set does not change.
            Vector v(w.size());
            for (Index j = 0; j < v.size(); ++j) v[j] = std::cos(2.0 * static_cast<double>(j));
            const double h = 1e-7;
            Vector gp, gm, hv;
            f.value_gradient(w + h * v, gp);
            f.value_gradient(w - h * v, gm);
            f.value_gradient(w, g);
            f.hessian_vector(v, hv);
            CHECK(relative_error(hv, (gp - gm) / (2 * h)) < 1e-5);
        }
    }

    TEST_CASE("linear_svm penalty=l1: objective, sparsity and predictions agree with LIBLINEAR -s 5") {
        for (const BinaryReference& ref : s5_references) {
            CAPTURE(std::string(ref.what));
            const Split& data = ref.sparse_fixture ? sparse_binary() : heart_scale();
            Params given = reference_params(ref);
            given["penalty"] = "l1";
            given["max_iter"] = 100000;
            const auto m = fit(data.train, given);
            const Vector w = stacked(*m, ref.bias);
            const Vector y = plus_minus(data.train);
            const Vector cost = costs(data.train, ref.C, ref.class1_weight);
            Vector z = data.train.X.multiply(m->coef());
            z.array() += m->intercept();
            double ours = w.lpNorm<1>();
            for (Index i = 0; i < z.size(); ++i) ours += cost[i] * std::pow(std::max(0.0, 1 - y[i] * z[i]), 2);
            CHECK(std::abs(ours - ref.objective) / ref.objective < 1e-4);
            CHECK(std::abs(m->objective() - ours) <= 1e-8 * ours);
            // Sparse: about as many non-zeros as LIBLINEAR (ties at zero may fall either way).
            const auto nnz = static_cast<int>((w.array() != 0).count());
            CHECK(std::abs(nnz - ref.nonzeros) <= std::max(2, ref.nonzeros / 20));
            const std::string decided = decided_predictions(*m, data.test.X);
            CHECK(agree_where_decided(decided, ref.test_predictions));
            CHECK(std::count(decided.begin(), decided.end(), '?') <= (ref.bias ? 0 : 5));
            // Optimality: the minimum-norm subgradient is (near) zero for every coordinate.
            const Vector viol = l1_squared_hinge_violations(data.train.X, y, cost, w, ref.bias ? 1.0 : 0.0);
            CHECK(viol.maxCoeff() < 1e-3);
        }
    }

    TEST_CASE("linear_svm penalty=l1: dense and sparse copies give the same model, seed-determined") {
        const Dataset& d = heart_scale().train;
        Dataset dense = d;
        dense.X = Features(d.X.to_dense());
        const auto a = fit(d, {{"penalty", "l1"}});
        const auto b = fit(dense, {{"penalty", "l1"}});
        CHECK(a->coef() == b->coef());
        CHECK(a->intercept() == b->intercept());
        Context two;
        two.threads = 2;
        const auto c = fit(d, {{"penalty", "l1"}}, two);
        CHECK(a->coef() == c->coef());
    }

    TEST_CASE("linear_svm solver=primal: dense and sparse copies give the same model") {
        const Dataset& d = sparse_binary().train;
        Dataset dense = d;
        dense.X = Features(d.X.to_dense());
        const auto a = fit(d, {{"solver", "primal"}, {"class_weight", "balanced"}});
        const auto b = fit(dense, {{"solver", "primal"}, {"class_weight", "balanced"}});
        CHECK(a->coef() == b->coef());
        CHECK(a->intercept() == b->intercept());
    }

    TEST_CASE("linear_svm multiclass=crammer_singer: agrees with LIBLINEAR -s 4") {
        // make_linsvm_references.py: `liblinear-train -s 4 -c C -e 1e-06 -B B train.scaled.libsvm`,
        // the primal objective recomputed from its model file, its printed dual, and its predictions.
        struct Ref {
            const char* what;
            const Split& data;
            double C;
            bool bias;
            double primal, dual;
            const char* predictions;
        };
        const Ref refs[] = {
            {"iris -c 1 -B 1", iris_scaled(), 1.0, true, 21.70713164278565, -21.707130,
             "0 2 1 1 0 1 0 0 2 1 2 2 2 1 0 0 0 1 1 2 0 2 1 2 2 2 1 0 2 0"},
            {"iris -c 10 -B -1", iris_scaled(), 10.0, false, 282.23189110070325, -282.231886,
             "0 2 1 1 0 2 0 0 2 2 2 2 2 2 0 0 0 1 1 2 0 2 1 1 2 2 1 0 2 0"},
            {"wine -c 0.5 -B 1", wine_scaled(), 0.5, true, 6.54469741870708, -6.544697,
             "0 2 0 0 1 0 0 1 1 2 1 2 0 2 0 1 1 0 1 0 1 1 0 0 1 1 0 2 1 2 0 2 1 2 2 2"},
        };
        for (const Ref& ref : refs) {
            CAPTURE(std::string(ref.what));
            const auto m = fit(ref.data.train, {{"multiclass", "crammer_singer"},
                                                {"C", ref.C},
                                                {"eps", 1e-6},
                                                {"max_iter", 100000},
                                                {"fit_intercept", ref.bias}});
            const Index k = ref.data.train.n_classes();
            REQUIRE(m->coef_matrix().rows() == k);
            Eigen::MatrixXd W(m->coef_matrix().cols() + (ref.bias ? 1 : 0), k);
            W.topRows(m->coef_matrix().cols()) = m->coef_matrix().transpose();
            if (ref.bias) W.row(W.rows() - 1) = m->intercepts().transpose();
            const double primal =
                crammer_singer_primal(ref.data.train.X, ref.data.train.y,
                                      Vector::Constant(ref.data.train.rows(), ref.C), W, ref.bias ? 1.0 : 0.0);
            CHECK(std::abs(primal - ref.primal) / ref.primal < 1e-4);
            CHECK(std::abs(m->objective() - ref.dual) / std::abs(ref.dual) < 1e-4);
            CHECK(std::abs(primal + m->objective()) / primal < 1e-5);  // duality gap closed
            CHECK(class_predictions(*m, ref.data.train, ref.data.test.X) == ref.predictions);
        }
    }

    TEST_CASE("linear_svm multiclass=crammer_singer: save/load round trip, binary data, dense = sparse") {
        const Dataset& d = iris_scaled().train;
        ModelSpec spec;
        spec.model = "linear_svm";
        spec.params = {{"multiclass", "crammer_singer"}, {"class_weight", "balanced"}};
        const Model a = Model::train(spec, d, Context{});
        const Model b = Model::from_json(a.to_json(), "memory");
        CHECK(a.decision_function(iris_scaled().test.X) == b.decision_function(iris_scaled().test.X));
        CHECK(a.to_json().dump() == b.to_json().dump());
        CHECK(a.decision_function(iris_scaled().test.X).cols() == 3);

        Dataset dense = d;
        dense.X = Features(d.X.to_dense());
        const auto s = fit(d, {{"multiclass", "crammer_singer"}});
        const auto t = fit(dense, {{"multiclass", "crammer_singer"}});
        CHECK(s->coef_matrix() == t->coef_matrix());

        // Two classes: one score, positive for classes[1], the difference of the two class scores.
        const auto two =
            fit(heart_scale().train, {{"multiclass", "crammer_singer"}, {"eps", 1e-6}, {"max_iter", 100000}});
        CHECK(two->coef_matrix().rows() == 1);
        const Matrix scores = two->decision_function(heart_scale().test.X);
        CHECK(scores.cols() == 1);
    }

    TEST_CASE("linear_svm solver=pegasos: approaches the hinge optimum, deterministic for a seed") {
        const Dataset& d = heart_scale().train;
        const Vector y = plus_minus(d);
        const DualCdProblem problem{d.X, y, Vector::Constant(d.rows(), 1.0), SvmLoss::hinge, 1.0};
        const auto exact = fit(d, {{"loss", "hinge"}, {"eps", 1e-6}, {"max_iter", 100000}});
        const double optimum = svm_primal_objective(problem, stacked(*exact, true));
        const auto sgd = fit(d, {{"loss", "hinge"}, {"solver", "pegasos"}, {"epochs", 200}});
        const double reached = svm_primal_objective(problem, stacked(*sgd, true));
        CHECK(reached >= optimum * (1 - 1e-9));
        CHECK(reached <= optimum * 1.05);
        CHECK(std::abs(sgd->objective() - reached) <= 1e-9 * reached);

        Context one, two, other;
        one.threads = 1;
        two.threads = 2;
        other.seed = 7;
        const Params p{{"loss", "hinge"}, {"solver", "pegasos"}, {"epochs", 5}};
        const auto a = fit(d, p, one);
        const auto b = fit(d, p, two);
        const auto c = fit(d, p, other);
        CHECK(a->save_state().dump() == b->save_state().dump());
        CHECK(a->coef() != c->coef());
        // Squared hinge and class weights run too, and give a usable classifier.
        const auto sq = fit(d, {{"solver", "pegasos"}, {"epochs", 50}, {"class_weight", "balanced"}});
        const Vector pred = sq->predict(heart_scale().test.X);
        const Vector& truth = heart_scale().test.y;
        CHECK((pred.array() == truth.array()).count() >= 40);  // of 54; the -s 1 model gets 45
    }

    TEST_CASE("linear_svm: solver / penalty / loss combinations LIBLINEAR lacks are refused") {
        const Dataset& d = heart_scale().train;
        CHECK_THROWS_AS(fit(d, {{"penalty", "l1"}, {"loss", "hinge"}}), ParamError);
        CHECK_THROWS_AS(fit(d, {{"penalty", "l1"}, {"solver", "dual"}}), ParamError);
        CHECK_THROWS_AS(fit(d, {{"solver", "primal"}, {"loss", "hinge"}}), ParamError);
        CHECK_THROWS_AS(fit(iris_scaled().train, {{"multiclass", "crammer_singer"}, {"penalty", "l1"}}), ParamError);
        CHECK_THROWS_AS(fit(d, {{"solver", "newton"}}), ParamError);
        CHECK_THROWS_AS(fit(d, {{"eps", "fast"}}), ParamError);
        // k > 2 without a strategy goes through one-vs-rest (the registry's wrapper).
        CHECK_NOTHROW(registry().create("linear_svm", {{"solver", "primal"}})->fit(iris_scaled().train, Context{}));
    }

}  // TEST_SUITE

}  // namespace unit_linear_linear_svm_solvers_test
}  // namespace
