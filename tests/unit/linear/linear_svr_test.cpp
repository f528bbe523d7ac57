#include <doctest/doctest.h>

#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/linear/linear_svr.hpp"
#include "kestrel/optim/dual_cd.hpp"
#include "linear_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_linear_svr_test {

using namespace kestrel;
using namespace kestrel::linear_test;

namespace {

std::unique_ptr<LinearSvr> fit(const Dataset& d, const Params& given, const Context& ctx = Context{}) {
    auto m = make<LinearSvr>(linear_svr_model_info(), given);
    m->fit(d, ctx);
    return m;
}

struct Reference {
    int s;
    double C, p, primal;
    std::vector<double> w;  // d weights, then the bias weight (B = 1)
};

// Printed by tests/unit/linear/make_svm_references.py: LIBLINEAR 2.3.0 (Debian
// liblinear-tools 2.3.0+dfsg-5), `liblinear-train -s S -c C -p P -e 1e-06 -B 1
// diabetes/train.scaled.libsvm`, the primal objective recomputed from its model file, and w.
const Reference references[] = {
    {11, 1.0, 5.0, 894841.4604930239,
     {4.756398877730336, -11.17069280672676, 68.08113184841714, 41.144000374823044, -44.57876039487301,
      12.53424636140077, -18.832966703915883, 18.884710733978668, 67.60830336010488, 7.855044361235303,
      173.56641901822778}},
    {12, 1.0, 5.0, 894841.4604824794,
     {4.756378398858591, -11.1706789757988, 68.08100452852786, 41.14401100100359, -44.57938677472041,
      12.534136136796564, -18.83193901362139, 18.88566022738169, 67.60862525772815, 7.855080329262746,
      173.56691272640222}},
    {13, 1.0, 5.0, 25231.46745040592,
     {11.962664529487615, -10.242082503528055, 10.691719778200167, 20.16361357709009, 0.47556579385728437,
      -16.20186013884162, -45.24187732776183, -14.710272504091906, 35.97653944252829, 15.538260067621971,
      100.7983551276629}},
    {13, 10.0, 1.0, 166679.28036145426,
     {4.882012331298465, -13.272078293876792, 50.543826997763155, 48.398693857129835, -5.242175306940476,
      -23.718937700699435, -54.51208668869886, -9.7866371947198, 54.32012115779344, 15.387328645797135,
      136.61679973323635}},
    {12, 0.1, 0.0, 120306.31370589248,
     {5.632583977423613, -11.295705718390973, 59.22911421630784, 39.37483565853533, -2.331944155296838,
      -17.9143493717932, -51.47672385615351, -3.936657438796253, 53.452722795938364, 12.740707706175252,
      149.12229111231233}},
};

}  // namespace

TEST_SUITE("linear") {

TEST_CASE("linear_svr: objectives and weights agree with LIBLINEAR -s 11, -s 12 and -s 13") {
    for (const Dataset& d : {diabetes_scaled_libsvm(), [] {
             Dataset dense = diabetes_scaled_libsvm();
             dense.X = Features(dense.X.to_dense());
             return dense;
         }()}) {
        for (const Reference& ref : references) {
            CAPTURE(ref.s);
            CAPTURE(ref.C);
            CAPTURE(d.X.is_sparse());
            const Params given{{"loss", ref.s == 13 ? "epsilon_insensitive" : "squared_epsilon_insensitive"},
                               {"dual", ref.s != 11},
                               {"C", ref.C},
                               {"epsilon", ref.p},
                               {"eps", ref.s == 11 ? 1e-10 : 1e-6},
                               {"max_iter", 100000}};
            const auto m = fit(d, given);
            CHECK(std::abs(m->objective() - ref.primal) / ref.primal < 1e-6);
            const Eigen::Map<const Eigen::MatrixXd> expected(ref.w.data(), 1, 11);
            Eigen::MatrixXd ours(1, 11);
            ours << m->coef().transpose(), m->intercept();
            CHECK(relative_error(ours, expected) < 1e-4);
        }
    }
}

TEST_CASE("linear_svr: the dual and the primal solvers reach the same squared-loss model") {
    const Dataset& d = diabetes_scaled_libsvm();
    const auto a = fit(d, {{"loss", "squared_epsilon_insensitive"}, {"C", 0.5}, {"eps", 1e-8}, {"max_iter", 100000}});
    const auto b = fit(d, {{"loss", "squared_epsilon_insensitive"}, {"dual", false}, {"C", 0.5}, {"eps", 1e-12},
                           {"max_iter", 100000}});
    CHECK(std::abs(a->objective() - b->objective()) / b->objective() < 1e-8);
    CHECK(relative_error(a->coef().transpose(), b->coef().transpose()) < 1e-5);
}

TEST_CASE("linear_svr: the dual solution is optimal (box and subgradient conditions)") {
    // L1 loss: at the optimum, for each row with r_i = y_i − ŵᵀx̂_i,
    //   |r_i| < p  ⇒  β_i = 0;   |r_i| > p  ⇒  β_i = C sign(r_i);   0 < |β_i| < C ⇒ |r_i| = p.
    const Dataset& d = diabetes_scaled_libsvm();
    const double C = 2.0, p = 3.0;
    const SvrDualProblem prob{d.X, d.y, Vector::Constant(d.rows(), C), p, SvmLoss::hinge, 1.0};
    DualCdOptions o;
    o.eps = 1e-9;
    o.max_iter = 200000;
    const DualCdResult r = solve_svr_dual_cd(prob, o);
    REQUIRE(r.converged);
    Vector z = d.X.multiply(Vector(r.w.head(d.cols())));
    z.array() += r.w[d.cols()];
    const double tol = 1e-6 * d.y.cwiseAbs().maxCoeff();
    for (Index i = 0; i < d.rows(); ++i) {
        const double res = d.y[i] - z[i], beta = r.alpha[i];
        CHECK(std::abs(beta) <= C);
        if (std::abs(res) < p - tol) CHECK(beta == 0.0);
        if (std::abs(res) > p + tol) CHECK(beta == doctest::Approx(C * (res > 0 ? 1 : -1)));
        if (beta != 0 && std::abs(beta) < C) CHECK(std::abs(std::abs(res) - p) < tol);
    }
    // w = Σ β_i x̂_i, and strong duality.
    Vector w(d.cols() + 1);
    w << d.X.transpose_multiply(r.alpha), r.alpha.sum();
    CHECK((w - r.w).cwiseAbs().maxCoeff() < 1e-8);
    CHECK(std::abs(svr_primal_objective(prob, r.w) + r.dual_objective) / std::abs(r.dual_objective) < 1e-6);
}

TEST_CASE("linear_svr: thread count does not matter; bad input") {
    Context one, two;
    one.threads = 1;
    two.threads = 2;
    CHECK(fit(diabetes_scaled_libsvm(), {}, one)->save_state().dump() == fit(diabetes_scaled_libsvm(), {}, two)->save_state().dump());
    CHECK_THROWS_AS(fit(diabetes_scaled_libsvm(), {{"dual", false}}), ParamError);  // L1 loss has no primal solver
    CHECK_THROWS_AS(make<LinearSvr>(linear_svr_model_info(), {{"C", -1.0}}), ParamError);
    CHECK_THROWS_AS(make<LinearSvr>(linear_svr_model_info(), {{"epsilon", -0.5}}), ParamError);
    CHECK_THROWS_AS(fit(breast_cancer(), {}), UsageError);
}

}  // TEST_SUITE

}  // namespace unit_linear_linear_svr_test
}  // namespace
