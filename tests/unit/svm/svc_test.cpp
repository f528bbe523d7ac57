#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/svm/svc.hpp"
#include "svm_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_svm_svc_test {

using namespace kestrel;
using namespace kestrel::svm_test;

namespace {

const Dataset& heart_train() {
    static const Dataset d = load("heart_scale/train.libsvm", Task::classification);
    return d;
}
const Dataset& heart_test() {
    static const Dataset d = load("heart_scale/test.libsvm", Task::classification);
    return d;
}
const Dataset& iris_train() {
    static const Dataset d = load("iris/train.scaled.libsvm", Task::classification);
    return d;
}
const Dataset& iris_test() {
    static const Dataset d = load("iris/test.scaled.libsvm", Task::classification);
    return d;
}

std::unique_ptr<Svc> fit(const Dataset& d, const Params& given, const Context& ctx = Context{}) {
    auto m = make<Svc>(svc_model_info(), given);
    m->fit(d, ctx);
    return m;
}

}  // namespace

TEST_SUITE("svm") {

TEST_CASE("svc: heart_scale matches LIBSVM's svm-train (rho, support vectors, decision values)") {
    // LIBSVM 3.24 (Debian python3-libsvm, the library behind svm-train):
    //   svm_train(heart_scale/train.libsvm, '-c 1 -g 0.07692307692307693'), svm_predict on test.libsvm.
    // Labels in LIBSVM's order [0, 1]; a positive value favours class 0.
    const double rho = -0.471138209644078;
    const std::vector<Index> sv_one_based = {
        5,   6,   8,   10,  12,  18,  20,  24,  31,  33,  34,  37,  43,  47,  52,  53,  56,  57,  59,  60,  63,  69,
        71,  74,  75,  77,  82,  84,  87,  88,  89,  90,  91,  94,  95,  101, 112, 117, 135, 142, 144, 145, 148, 150,
        155, 157, 173, 179, 183, 188, 196, 197, 206, 211, 214, 7,   9,   22,  26,  28,  30,  32,  35,  36,  49,  51,
        54,  55,  64,  67,  68,  70,  76,  80,  81,  86,  93,  96,  100, 107, 111, 118, 119, 121, 124, 133, 134, 137,
        146, 152, 163, 165, 166, 170, 172, 175, 178, 186, 189, 194, 195, 198, 199, 200, 201, 208, 216};
    const std::vector<double> dec_test = {1.6172866373581287,  1.2029647986204783,   1.475564720797121,
                                          -1.0758195023151234, 0.3833332701391219,   1.2914127206242414,
                                          1.3392027554229775,  -1.7792566718439677,  -0.18573739199347022,
                                          -0.6972309490230724, 0.8923680859292769,   0.13946302995360899};
    // Default gamma = 1/13 features = 0.07692307692307693.
    for (bool shrinking : {true, false}) {
        CAPTURE(shrinking);
        auto m = fit(heart_train(), {{"shrinking", shrinking}});
        const SvmModel& s = m->model();
        CHECK(s.kernel_spec.to_string() == "rbf(gamma=0.07692307692307693)");
        CHECK(s.rho[0] == doctest::Approx(rho).epsilon(1e-3));
        REQUIRE(s.n_sv == std::vector<Index>{55, 52});
        std::vector<Index> sv(s.support);
        for (auto& i : sv) ++i;
        CHECK(sv == sv_one_based);
        const Eigen::MatrixXd dec = m->pairwise_decision(heart_test().X);
        for (std::size_t r = 0; r < dec_test.size(); ++r) CHECK(std::abs(dec(static_cast<Index>(r), 0) - dec_test[r]) < 1e-3);
        // kestrel's binary decision function: positive means classes[1].
        CHECK(m->decision_function(heart_test().X)(0, 0) == -dec(0, 0));
        CHECK(m->predict(heart_test().X)[0] == 0.0);
    }
}

TEST_CASE("svc: truly sparse data takes the sparse kernel path and gives the same model") {
    // heart_scale with 60 empty columns appended: under 25% non-zeros, so the kernel
    // works on sparse rows; gamma fixed to LIBSVM's 1/13 for the original 13 features.
    const SparseMatrix& s13 = heart_train().X.sparse_ref();
    SparseMatrix wide(s13.rows(), 73);
    std::vector<Eigen::Triplet<double, int>> trip;
    for (Index i = 0; i < s13.rows(); ++i)
        for (SparseMatrix::InnerIterator it(s13, i); it; ++it) trip.emplace_back(static_cast<int>(i), static_cast<int>(it.index()), it.value());
    wide.setFromTriplets(trip.begin(), trip.end());
    Dataset d = heart_train();
    d.X = Features(std::move(wide));
    REQUIRE(KernelRows(d.X).is_sparse());
    auto m = fit(d, {{"gamma", 1.0 / 13}});
    auto ref = fit(heart_train(), Params::object());
    CHECK(m->model().support == ref->model().support);
    CHECK(m->model().rho[0] == doctest::Approx(-0.471138209644078).epsilon(1e-3));
    CHECK((m->model().sv_coef - ref->model().sv_coef).cwiseAbs().maxCoeff() < 1e-6);
}

TEST_CASE("svc: KKT conditions hold at the solution to eps") {
    const double C = 2.0, eps = 1e-3;
    auto m = fit(heart_train(), {{"C", C}, {"eps", eps}});
    const SvmModel& s = m->model();
    const Eigen::MatrixXd f = m->pairwise_decision(heart_train().X);
    // alpha_i = |coef| on support vectors, 0 elsewhere; y = +1 for class 0 (the pair's first class).
    Vector alpha = Vector::Zero(heart_train().rows());
    double balance = 0;
    for (std::size_t j = 0; j < s.support.size(); ++j) {
        alpha[s.support[j]] = std::abs(s.sv_coef(0, static_cast<Index>(j)));
        balance += s.sv_coef(0, static_cast<Index>(j));
    }
    CHECK(std::abs(balance) < 1e-10);  // yᵀα = 0
    double worst = 0;
    for (Index i = 0; i < heart_train().rows(); ++i) {
        const double y = heart_train().y[i] == 0 ? 1.0 : -1.0;
        const double margin = y * f(i, 0);  // y f(x) should be >= 1 (α=0), = 1 (free), <= 1 (α=C)
        CHECK(alpha[i] <= C);
        if (alpha[i] == 0) worst = std::max(worst, 1 - margin);
        else if (alpha[i] >= C) worst = std::max(worst, margin - 1);
        else worst = std::max(worst, std::abs(margin - 1));
    }
    // The stopping rule bounds the largest violating pair by eps; kernels cached as
    // float add a few 1e-7.
    CHECK(worst < eps);
}

TEST_CASE("svc: multiclass one-vs-one matches LIBSVM on iris") {
    // LIBSVM 3.24 (python3-libsvm): svm_train(iris/train.scaled.libsvm, '-c 1 -g 0.25'), svm_predict on
    // test.scaled.libsvm. LIBSVM's label order is [0, 2, 1] (first appearance): its pairs are (0,2), (0,1),
    // (2,1); kestrel's are (0,1), (0,2), (1,2), so (1,2) is LIBSVM's (2,1) negated.
    const std::vector<int> pred = {0, 2, 1, 1, 0, 1, 0, 0, 2, 1, 2, 2, 2, 1, 0,
                                   0, 0, 1, 1, 2, 0, 2, 1, 2, 2, 2, 1, 0, 2, 0};
    const double libsvm_dv[5][3] = {{1.1733226127954515, 1.1925561736406325, -1.939574817653499},
                                    {-1.0279423051367176, -1.3909767913518565, 0.18426264972285866},
                                    {-0.00498963840302525, -0.736730378832932, -1.5886903616669168},
                                    {-0.04551736171506133, -0.8146715899469303, -1.563547446889483},
                                    {1.2016703239613382, 1.2868709268865184, -1.938428317691936}};
    auto m = fit(iris_train(), Params::object());
    const SvmModel& s = m->model();
    CHECK(s.n_sv == std::vector<Index>{6, 24, 19});
    CHECK(s.rho[0] == doctest::Approx(-0.044941361965649004).epsilon(1e-3));
    CHECK(s.rho[1] == doctest::Approx(0.017425535736471938).epsilon(1e-3));
    CHECK(s.rho[2] == doctest::Approx(0.10645337402820587).epsilon(1e-3));
    const Eigen::MatrixXd dec = m->pairwise_decision(iris_test().X);
    for (Index r = 0; r < 5; ++r) {
        CHECK(std::abs(dec(r, 0) - libsvm_dv[r][1]) < 1e-3);
        CHECK(std::abs(dec(r, 1) - libsvm_dv[r][0]) < 1e-3);
        CHECK(std::abs(dec(r, 2) + libsvm_dv[r][2]) < 1e-3);
    }
    const Vector p = m->predict(iris_test().X);
    for (Index r = 0; r < p.size(); ++r) CHECK(iris_test().classes[static_cast<std::size_t>(p[r])] == std::to_string(pred[static_cast<std::size_t>(r)]));
    // The n x k decision function ranks the voted class first.
    const Matrix df = m->decision_function(iris_test().X);
    CHECK(df.cols() == 3);
    for (Index r = 0; r < p.size(); ++r) {
        Index best = 0;
        df.row(r).maxCoeff(&best);
        CHECK(best == static_cast<Index>(p[r]));
    }
}

TEST_CASE("svc: identical models with 1 and 2 threads") {
    for (const Dataset* d : {&heart_train(), &iris_train()}) {
        auto a = fit(*d, {{"C", 3.0}}, threads(1));
        auto b = fit(*d, {{"C", 3.0}}, threads(2));
        CHECK(a->save_state().dump() == b->save_state().dump());
    }
}

TEST_CASE("svc: save/load round trip, dense and sparse") {
    for (bool sparse : {true, false}) {
        CAPTURE(sparse);
        Dataset d = iris_train();
        if (!sparse) d.X = Features(d.X.to_dense());
        auto m = fit(d, {{"kernel", "0.5*rbf+0.5*laplacian"}, {"gamma", "median"}});
        const Json state = m->save_state();
        auto back = make<Svc>(svc_model_info(), {{"kernel", "0.5*rbf+0.5*laplacian"}, {"gamma", "median"}});
        back->load_state(Json::parse(state.dump()));
        CHECK(back->save_state().dump() == state.dump());
        CHECK(back->pairwise_decision(iris_test().X) == m->pairwise_decision(iris_test().X));
        // The median heuristic is recorded as the number it resolved to.
        CHECK(state["kernel"]["terms"][0]["factors"][0]["gamma"].is_number());
    }
}

TEST_CASE("svc: class weights, sample weights and bad parameters") {
    // Weighting class 1 up moves the boundary toward class 0: more class-1 predictions.
    auto plain = fit(heart_train(), Params::object());
    auto weighted = fit(heart_train(), {{"class_weight", "1:5"}});
    CHECK(weighted->predict(heart_train().X).sum() > plain->predict(heart_train().X).sum());
    // Sample weights w multiply C: all weights 2 equal C = 2.
    Dataset w = heart_train();
    w.weights = Vector::Constant(w.rows(), 2.0);
    CHECK(fit(w, Params::object())->save_state().dump() == fit(heart_train(), {{"C", 2.0}})->save_state().dump());
    CHECK_THROWS_AS(fit(heart_train(), {{"C", 0.0}}), ParamError);
    CHECK_THROWS_AS(fit(heart_train(), {{"gamma", -1.0}}), ParamError);
    CHECK_THROWS_AS(fit(heart_train(), {{"kernel", "rbff"}}), ParamError);
}

TEST_CASE("svc: max_iter stops the solver with a warning and still gives a model") {
    std::vector<std::string> warnings;
    Context ctx;
    ctx.warn = [&](const std::string& m) { warnings.push_back(m); };
    auto m = fit(heart_train(), {{"max_iter", 5}}, ctx);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("max_iter") != std::string::npos);
    CHECK(m->predict(heart_test().X).size() == heart_test().rows());
}

}  // TEST_SUITE

}  // namespace unit_svm_svc_test
}  // namespace
