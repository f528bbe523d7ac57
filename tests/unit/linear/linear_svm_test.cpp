#include <doctest/doctest.h>

#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/linear/linear_svm.hpp"
#include "kestrel/optim/dual_cd.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_linear_svm_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

std::unique_ptr<LinearSvm> fit(const Dataset& d, const Params& given, const Context& ctx = Context{}) {
    auto m = make<LinearSvm>(linear_svm_model_info(), given);
    m->fit(d, ctx);
    return m;
}

std::string svm_data(const std::string& file) { return std::string(KESTREL_SOURCE_DIR) + "/tests/unit/linear/data/" + file; }

Dataset load_path(const std::string& path) {
    return make_dataset(read_table(path, ReadOptions{}), Task::classification);
}

struct Split {
    Dataset train, test;
};

const Split& heart_scale() {
    static const Split s = [] {
        Split out{load("heart_scale/train.libsvm", Task::classification),
                  load("heart_scale/test.libsvm", Task::classification)};
        out.test.X = out.test.X.with_cols(out.train.cols());
        return out;
    }();
    return s;
}

const Split& sparse_binary() {
    static const Split s = [] {
        Split out{load_path(svm_data("sparse_binary.train.libsvm")), load_path(svm_data("sparse_binary.test.libsvm"))};
        out.test.X = out.test.X.with_cols(out.train.cols());
        return out;
    }();
    return s;
}

std::string predictions(const LinearSvm& m, const Features& X) {
    std::string out;
    const Vector p = m.predict(X);
    for (Index i = 0; i < p.size(); ++i) out += p[i] > 0.5 ? '1' : '0';
    return out;
}

// The primal objective of a fitted model, recomputed from its coefficients.
double primal(const Dataset& d, const LinearSvm& m, SvmLoss loss, double C, double class1_weight = 1.0) {
    const Vector y = (d.y.array() > 0.5).select(Vector::Ones(d.rows()), -Vector::Ones(d.rows()));
    Vector cost = Vector::Constant(d.rows(), C);
    for (Index i = 0; i < d.rows(); ++i)
        if (y[i] > 0) cost[i] *= class1_weight;
    const DualCdProblem p{d.X, y, cost, loss, 1.0};
    Vector w(d.cols() + 1);
    w << m.coef(), m.intercept();
    return svm_primal_objective(p, w);
}

struct Reference {
    const char* what;
    bool sparse_fixture;
    SvmLoss loss;
    double C;
    double class1_weight;
    bool bias;
    double dual, primal;
    const char* test_predictions;
};

// Printed by tests/unit/linear/make_svm_references.py: LIBLINEAR 2.3.0 (Debian
// liblinear-tools 2.3.0+dfsg-5), `liblinear-train -s S -c C -e 1e-06 -B B [-w1 W] train.libsvm`,
// its printed "Objective value" (the dual, negated here), the primal objective recomputed
// from its model file, and `liblinear-predict test.libsvm` as 0/1 labels. LIBLINEAR's -s 3
// on heart_scale stops at its 1000-iteration cap (dual 71.298154 < primal 71.302001).
const Reference references[] = {
    {"heart_scale -s 1 -c 1 -B 1", false, SvmLoss::squared_hinge, 1.0, 1.0, true, 86.738384, 86.73838418367798,
     "000100011101011101010100010001011100100010111011111101"},
    {"heart_scale -s 1 -c 0.5 -B 1 -w1 2", false, SvmLoss::squared_hinge, 0.5, 2.0, true, 63.161908,
     63.161908063272925, "000110011101011101010100010001011101100010111011111101"},
    {"sparse_binary -s 1 -c 4 -B 1", true, SvmLoss::squared_hinge, 4.0, 1.0, true, 51.834532, 51.834532403114856,
     "00101000100000000001000000101000100110000001000000000000000000000000100100010001"},
    {"sparse_binary -s 1 -c 1 -B -1", true, SvmLoss::squared_hinge, 1.0, 1.0, false, 49.777288, 49.777288200457306,
     "10101000100000111001010000101000110110001001011000000000000000000010100000011101"},
    {"heart_scale -s 3 -c 1 -B 1", false, SvmLoss::hinge, 1.0, 1.0, true, 71.298154, 71.3020006315691,
     "000100011101011101010100010001011000100010111011111101"},
    {"heart_scale -s 3 -c 0.5 -B 1 -w1 2", false, SvmLoss::hinge, 0.5, 2.0, true, 54.754349, 54.75434968669398,
     "000110011101011101010100010001011100100010111011111101"},
    {"sparse_binary -s 3 -c 4 -B 1", true, SvmLoss::hinge, 4.0, 1.0, true, 61.126575, 61.12661437808394,
     "00101000100000010001000001101000100110000001000000000000000000000000100100010001"},
    {"sparse_binary -s 3 -c 1 -B -1", true, SvmLoss::hinge, 1.0, 1.0, false, 67.246149, 67.24615140460439,
     "00101000100000111001110000101000110110001001011001001000000010000010100000011001"},
};

}  // namespace

TEST_SUITE("linear") {

TEST_CASE("linear_svm: objectives and predictions agree with LIBLINEAR -s 1 and -s 3") {
    for (const Reference& ref : references) {
        CAPTURE(ref.what);
        const Split& data = ref.sparse_fixture ? sparse_binary() : heart_scale();
        const Params given{{"loss", ref.loss == SvmLoss::hinge ? "hinge" : "squared_hinge"},
                           {"C", ref.C},
                           {"eps", 1e-6},
                           {"max_iter", 20000},
                           {"fit_intercept", ref.bias},
                           {"class_weight", ref.class1_weight == 1.0 ? "" : "1:2"}};
        const auto m = fit(data.train, given);
        const double our_primal = ref.bias ? primal(data.train, *m, ref.loss, ref.C, ref.class1_weight) : 0.0;
        if (ref.bias) {
            // Both within 1e-4 of LIBLINEAR's, and the duality gap closed.
            CHECK(std::abs(our_primal - ref.primal) / ref.primal < 1e-4);
            CHECK(std::abs(our_primal + m->dual_objective()) / our_primal < 1e-5);
        }
        CHECK(std::abs(-m->dual_objective() - ref.dual) / ref.dual < 1e-4);
        CHECK(predictions(*m, data.test.X) == ref.test_predictions);
        if (!ref.bias) CHECK(m->intercept() == 0.0);
    }
}

TEST_CASE("linear_svm: dense and sparse copies of the data give the same model") {
    const Dataset& d = heart_scale().train;
    Dataset dense = d;
    dense.X = Features(d.X.to_dense());
    for (const char* loss : {"hinge", "squared_hinge"}) {
        CAPTURE(loss);
        const auto a = fit(d, {{"loss", loss}});
        const auto b = fit(dense, {{"loss", loss}});
        CHECK(a->coef() == b->coef());
        CHECK(a->intercept() == b->intercept());
    }
}

TEST_CASE("linear_svm: the dual solution satisfies the KKT conditions") {
    // At the optimum of min ½αᵀ(Q+D)α − Σα over 0 ≤ α ≤ U the gradient G is ≥ 0 where
    // α = 0, ≤ 0 where α = U and 0 in between. LIBLINEAR's stopping rule bounds the spread
    // of the projected gradient by eps, so every violation is below eps.
    const Dataset& d = sparse_binary().train;
    const Vector y = (d.y.array() > 0.5).select(Vector::Ones(d.rows()), -Vector::Ones(d.rows()));
    for (SvmLoss loss : {SvmLoss::hinge, SvmLoss::squared_hinge}) {
        const double C = 2.0, eps = 1e-5;
        const DualCdProblem p{d.X, y, Vector::Constant(d.rows(), C), loss, 1.0};
        DualCdOptions o;
        o.eps = eps;
        o.max_iter = 100000;
        const DualCdResult r = solve_dual_cd(p, o);
        REQUIRE(r.converged);
        const Vector g = svm_dual_gradient(p, r);
        double worst = 0;
        int at_upper = 0, free = 0;
        for (Index i = 0; i < d.rows(); ++i) {
            const double a = r.alpha[i];
            CHECK(a >= 0.0);
            if (loss == SvmLoss::hinge) CHECK(a <= C);
            if (a == 0)
                worst = std::max(worst, -g[i]);
            else if (loss == SvmLoss::hinge && a == C)
                worst = std::max(worst, g[i]), ++at_upper;
            else
                worst = std::max(worst, std::abs(g[i])), ++free;
        }
        CHECK(worst <= eps);
        CHECK(free > 0);
        if (loss == SvmLoss::hinge) CHECK(at_upper > 0);
        // w = Σ α_i y_i x_i (and the bias weight Σ α_i y_i · 1).
        Vector w(d.cols() + 1);
        w << d.X.transpose_multiply(r.alpha.cwiseProduct(y)), r.alpha.dot(y);
        CHECK((w - r.w).cwiseAbs().maxCoeff() < 1e-10);
        // Strong duality: primal = −dual at the optimum.
        CHECK(std::abs(svm_primal_objective(p, r.w) + r.dual_objective) / r.dual_objective < 1e-4);
    }
}

TEST_CASE("linear_svm: results do not depend on the thread count, and the seed is the context's") {
    const Dataset& d = sparse_binary().train;
    Context one, two;
    one.threads = 1;
    two.threads = 2;
    const auto a = fit(d, {{"loss", "hinge"}}, one);
    const auto b = fit(d, {{"loss", "hinge"}}, two);
    CHECK(a->coef() == b->coef());
    CHECK(a->save_state().dump() == b->save_state().dump());
    // At the default eps = 0.1 the stopping point depends on the row order, so another
    // seed gives a (slightly) different model.
    Context other;
    other.seed = 99;
    const auto c = fit(d, {{"loss", "hinge"}}, other);
    CHECK(a->coef() != c->coef());
}

TEST_CASE("linear_svm: class weights equal duplicated rows for the squared hinge") {
    // C_i = C · c_{y_i}: a class weight of 2 doubles each of that class's losses, exactly
    // what listing each of its rows twice does.
    const Dataset& d = heart_scale().train;
    std::vector<Index> rows;
    for (Index i = 0; i < d.rows(); ++i) {
        rows.push_back(i);
        if (d.y[i] > 0.5) rows.push_back(i);
    }
    const Params tight{{"eps", 1e-8}, {"max_iter", 100000}};
    Params weighted = tight;
    weighted["class_weight"] = "1:2";
    const auto a = fit(d, weighted);
    const auto b = fit(take_rows(d, rows), tight);
    CHECK(relative_error(a->coef(), b->coef()) < 1e-6);
    CHECK(std::abs(a->intercept() - b->intercept()) < 1e-6);
}

TEST_CASE("linear_svm: bad input") {
    CHECK_THROWS_AS(make<LinearSvm>(linear_svm_model_info(), {{"C", 0.0}}), ParamError);
    CHECK_THROWS_AS(make<LinearSvm>(linear_svm_model_info(), {{"loss", "log"}}), ParamError);
    CHECK_THROWS_AS(make<LinearSvm>(linear_svm_model_info(), {{"gamma", 1}}), ParamError);
    // Regression data is refused.
    CHECK_THROWS_AS(fit(diabetes(), {}), UsageError);
    // max_iter reached: a warning and a usable model.
    std::string warned;
    Context ctx;
    ctx.warn = [&](const std::string& m) { warned = m; };
    const auto m = fit(heart_scale().train, {{"loss", "hinge"}, {"eps", 1e-12}, {"max_iter", 2}}, ctx);
    CHECK(warned.find("max_iter") != std::string::npos);
    CHECK(predictions(*m, heart_scale().test.X).size() == 54);
}

}  // TEST_SUITE

}  // namespace unit_linear_linear_svm_test
}  // namespace
