#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/svm/svc.hpp"
#include "kestrel/svm/svr.hpp"
#include "svm_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_svm_svr_test {

using namespace kestrel;
using namespace kestrel::svm_test;

namespace {

// diabetes (scaled features) with the target divided by 100, so the epsilon tube matters.
Dataset diabetes(const char* part) {
    Dataset d = load(std::string("diabetes/") + part + ".scaled.libsvm", Task::regression);
    d.y /= 100.0;
    return d;
}
const Dataset& diabetes_train() {
    static const Dataset d = diabetes("train");
    return d;
}
const Dataset& diabetes_test() {
    static const Dataset d = diabetes("test");
    return d;
}
const Dataset& heart(const char* part, Task task) {
    static const Dataset train_c = load("heart_scale/train.libsvm", Task::classification);
    static const Dataset test_c = load("heart_scale/test.libsvm", Task::classification);
    static const Dataset train_r = load("heart_scale/train.libsvm", Task::regression);
    static const Dataset test_r = load("heart_scale/test.libsvm", Task::regression);
    const bool train = std::string(part) == "train";
    if (task == Task::classification) return train ? train_c : test_c;
    return train ? train_r : test_r;
}

// 2500 x 30 uniform features, y a smooth function plus noise (class = sign for svc):
// large enough that the solver's passes, the SVR column expansion and the kernel rows
// all run on several threads.
Dataset synthetic(Task task) {
    Rng rng(21);
    const Index n = 2500, d = 30;
    DenseMatrix X(n, d);
    Vector y(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < d; ++j) X(i, j) = rng.uniform(-1, 1);
        const double v = std::sin(3 * X(i, 0)) + X(i, 1) * X(i, 2) + 0.3 * rng.normal();
        y[i] = task == Task::regression ? v : (v > 0 ? 1.0 : 0.0);
    }
    Dataset data;
    data.X = Features(std::move(X));
    data.y = std::move(y);
    data.task = task;
    if (task == Task::classification) data.classes = {"neg", "pos"};
    return data;
}

std::vector<Index> first_one_based(const std::vector<Index>& support, std::size_t n) {
    std::vector<Index> out;
    for (std::size_t i = 0; i < n && i < support.size(); ++i) out.push_back(support[i] + 1);
    return out;
}

}  // namespace

TEST_SUITE("svm") {

// Reference values: LIBSVM 3.24 (Debian python3-libsvm, the library of svm-train/svm-predict),
// svm_train(<file>, '<options>') and svm_predict on the test file; the diabetes targets divided by 100.

TEST_CASE("svr: epsilon-SVR matches LIBSVM -s 3 on diabetes") {
    // svm_train(diabetes/train.scaled.libsvm (y/100), '-s 3 -c 10 -p 0.1 -g 0.1')
    auto m = make<Svr>(svr_model_info(), {{"C", 10.0}, {"epsilon", 0.1}, {"gamma", 0.1}});
    m->fit(diabetes_train(), Context{});
    const SvmModel& s = m->model();
    CHECK(s.support.size() == 304);
    CHECK(first_one_based(s.support, 20) ==
          std::vector<Index>{1, 2, 3, 4, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23});
    CHECK(s.rho[0] == doctest::Approx(-2.1977801785357634).epsilon(1e-3));
    const std::vector<double> ref = {1.2919423514645687, 1.8434465078388205, 1.6743879620343054,
                                     2.7646663883810176, 0.9791908902376609, 1.0623926440087774};
    const Vector pred = m->predict(diabetes_test().X);
    for (std::size_t r = 0; r < ref.size(); ++r) CHECK(std::abs(pred[static_cast<Index>(r)] - ref[r]) < 1e-3);
    CHECK(m->decision_function(diabetes_test().X).col(0) == pred);
    // |coef| <= C and Σ coef = 0 (the equality constraint of the dual).
    CHECK(s.sv_coef.cwiseAbs().maxCoeff() <= 10.0);
    CHECK(std::abs(s.sv_coef.sum()) < 1e-9);
}

TEST_CASE("svr scale_target=1: scikit-learn's TransformedTargetRegressor(SVR(), StandardScaler()) on diabetes") {
    // scikit-learn 1.2.1: TransformedTargetRegressor(SVR(C=10, epsilon=0.1, gamma=0.1),
    // transformer=StandardScaler()) on diabetes/train.scaled.libsvm (raw target, mean
    // 153.74, sd 77.95), predicting test.scaled.libsvm: 315 support vectors.
    const Dataset train = load("diabetes/train.scaled.libsvm", Task::regression);
    const Dataset test = load("diabetes/test.scaled.libsvm", Task::regression);
    auto m = make<Svr>(svr_model_info(), {{"C", 10.0}, {"epsilon", 0.1}, {"gamma", 0.1}, {"scale_target", true}});
    m->fit(train, Context{});
    // The two SMO solvers stop at the same tolerance (eps 1e-3 on the standardized target)
    // in slightly different places: one support vector and 5e-4 of a prediction apart, as the
    // LIBSVM comparison above allows (1e-3 on y / 100).
    CHECK(std::abs(static_cast<long>(m->model().support.size()) - 315) <= 1);
    const std::vector<double> ref = {127.18339037412787, 181.70764838070124, 162.87796966066924,
                                     276.8338514865784, 102.28543970539553, 103.54759198308804};
    const Vector pred = m->predict(test.X);
    for (std::size_t r = 0; r < ref.size(); ++r) CHECK(pred[static_cast<Index>(r)] == doctest::Approx(ref[r]).epsilon(5e-4));
    // Property: the target's units do not matter. y -> 1000 y + 5e4 maps every prediction the
    // same way (up to the solver's stopping tolerance, tightened here: the two problems differ
    // by rounding only, so the solver's paths may part in the last digits).
    Dataset shifted = train;
    shifted.y = (train.y.array() * 1000.0 + 5e4).matrix();
    const Params tight = {{"C", 10.0}, {"epsilon", 0.1}, {"gamma", 0.1}, {"scale_target", true}, {"eps", 1e-10}};
    auto m1 = make<Svr>(svr_model_info(), tight);
    auto m2 = make<Svr>(svr_model_info(), tight);
    m1->fit(train, Context{});
    m2->fit(shifted, Context{});
    const Vector pred1 = m1->predict(test.X), pred2 = m2->predict(test.X);
    for (Index r = 0; r < pred.size(); ++r) CHECK(pred2[r] == doctest::Approx(pred1[r] * 1000.0 + 5e4).epsilon(1e-7));
    // A constant target: sd 0 counts as 1, so the model predicts the constant.
    Dataset flat = train;
    flat.y.setConstant(7.0);
    auto m3 = make<Svr>(svr_model_info(), {{"scale_target", true}});
    m3->fit(flat, Context{});
    CHECK((m3->predict(test.X).array() - 7.0).abs().maxCoeff() < 1e-12);
}

TEST_CASE("svr: nu-SVR matches LIBSVM -s 4 on diabetes") {
    // svm_train(diabetes/train.scaled.libsvm (y/100), '-s 4 -c 10 -n 0.5 -g 0.1')
    auto m = make<NuSvr>(nu_svr_model_info(), {{"C", 10.0}, {"nu", 0.5}, {"gamma", 0.1}});
    m->fit(diabetes_train(), Context{});
    const SvmModel& s = m->model();
    CHECK(s.support.size() == 206);
    CHECK(first_one_based(s.support, 20) ==
          std::vector<Index>{1, 3, 7, 13, 14, 16, 17, 18, 19, 20, 21, 23, 25, 28, 29, 30, 31, 34, 35, 37});
    CHECK(s.rho[0] == doctest::Approx(-2.38562987076481).epsilon(1e-3));
    const std::vector<double> ref = {1.4238692690711807, 1.8093429436813815, 1.72619468467169,
                                     2.685223817078143,  1.0641182735082242, 0.9348526598325422};
    const Vector pred = m->predict(diabetes_test().X);
    for (std::size_t r = 0; r < ref.size(); ++r) CHECK(std::abs(pred[static_cast<Index>(r)] - ref[r]) < 1e-3);
}

TEST_CASE("svr: one-class SVM matches LIBSVM -s 2 on heart_scale") {
    // svm_train(heart_scale/train.libsvm, '-s 2 -n 0.3 -g 0.07692307692307693')
    auto m = make<OneClassSvm>(one_class_model_info(), {{"nu", 0.3}});
    m->fit(heart("train", Task::regression), Context{});
    const SvmModel& s = m->model();
    CHECK(s.support.size() == 72);
    CHECK(first_one_based(s.support, 20) ==
          std::vector<Index>{4, 6, 10, 17, 18, 22, 28, 30, 33, 42, 43, 45, 48, 51, 54, 58, 65, 67, 72, 73});
    CHECK(s.rho[0] == doctest::Approx(23.761423602683344).epsilon(1e-4));
    const std::vector<double> ref = {2.3111984946710216, 0.6447338724139087, 2.3152445844274006,
                                     -2.0162681558502697, 0.23222472819367468, 0.701603886939715};
    const Matrix dec = m->decision_function(heart("test", Task::regression).X);
    const Vector pred = m->predict(heart("test", Task::regression).X);
    for (std::size_t r = 0; r < ref.size(); ++r) {
        CHECK(std::abs(dec(static_cast<Index>(r), 0) - ref[r]) < 1e-3);
        CHECK(pred[static_cast<Index>(r)] == (ref[r] > 0 ? 1.0 : -1.0));
    }
    // eᵀα = nu·l, 0 <= α <= 1.
    CHECK(s.sv_coef.sum() == doctest::Approx(0.3 * 216).epsilon(1e-9));
    CHECK(s.sv_coef.maxCoeff() <= 1.0);
}

TEST_CASE("svr: nu-SVC matches LIBSVM -s 1 on heart_scale") {
    // svm_train(heart_scale/train.libsvm, '-s 1 -n 0.5 -g 0.07692307692307693'); labels [0, 1].
    auto m = make<NuSvc>(nu_svc_model_info(), {{"nu", 0.5}});
    m->fit(heart("train", Task::classification), Context{});
    const SvmModel& s = m->model();
    CHECK(s.n_sv == std::vector<Index>{59, 59});
    CHECK(first_one_based(s.support, 20) ==
          std::vector<Index>{5, 6, 8, 10, 12, 18, 20, 24, 31, 33, 34, 37, 42, 43, 44, 47, 52, 53, 56, 57});
    CHECK(s.rho[0] == doctest::Approx(-0.27955892295607077).epsilon(1e-3));
    const std::vector<double> ref = {1.4970440155032305, 1.1407598705067419, 1.4801948144252766,
                                     -1.0404118957598376, 0.26362669443994013, 1.2126794659399027};
    const Eigen::MatrixXd dec = m->pairwise_decision(heart("test", Task::classification).X);
    for (std::size_t r = 0; r < ref.size(); ++r) CHECK(std::abs(dec(static_cast<Index>(r), 0) - ref[r]) < 1e-3);
}

TEST_CASE("svr: infeasible nu, bad parameters, save/load") {
    auto bad = make<NuSvc>(nu_svc_model_info(), {{"nu", 1.0}});
    // heart_scale train: 120 / 96 rows per class; nu*216/2 = 108 > 96.
    CHECK_THROWS_WITH_AS(bad->fit(heart("train", Task::classification), Context{}),
                         doctest::Contains("infeasible"), ParamError);
    CHECK_THROWS_AS(make<OneClassSvm>(one_class_model_info(), {{"nu", 0.0}}), ParamError);
    CHECK_THROWS_AS(make<Svr>(svr_model_info(), {{"epsilon", -0.1}}), ParamError);

    auto m = make<Svr>(svr_model_info(), {{"C", 10.0}, {"kernel", "laplacian"}});
    m->fit(diabetes_train(), Context{});
    const Json state = m->save_state();
    auto back = make<Svr>(svr_model_info(), {{"C", 10.0}, {"kernel", "laplacian"}});
    back->load_state(Json::parse(state.dump()));
    CHECK(back->save_state().dump() == state.dump());
    CHECK(back->predict(diabetes_test().X) == m->predict(diabetes_test().X));
    // One thread or two: the same model.
    Context one, two;
    one.threads = 1;
    two.threads = 2;
    auto a = make<Svr>(svr_model_info(), {{"C", 10.0}});
    auto b = make<Svr>(svr_model_info(), {{"C", 10.0}});
    a->fit(diabetes_train(), one);
    b->fit(diabetes_train(), two);
    CHECK(a->save_state().dump() == b->save_state().dump());
}

TEST_CASE("svr: svr, nu_svr and binary svc fit the same model with 1, 2 and 3 threads on 2500 rows") {
    const Dataset reg = synthetic(Task::regression);
    const Dataset cls = synthetic(Task::classification);
    const auto state = [](auto model, const Dataset& data, int n) {
        model->fit(data, threads(n));
        return model->save_state().dump();
    };
    const Params svr_params = {{"C", 4.0}, {"gamma", 0.05}, {"epsilon", 0.2}};
    const Params nu_params = {{"C", 4.0}, {"gamma", 0.05}, {"nu", 0.4}};
    const Params svc_params = {{"C", 2.0}, {"gamma", 0.05}};
    const std::string svr1 = state(make<Svr>(svr_model_info(), svr_params), reg, 1);
    const std::string nu1 = state(make<NuSvr>(nu_svr_model_info(), nu_params), reg, 1);
    const std::string svc1 = state(make<Svc>(svc_model_info(), svc_params), cls, 1);
    for (int n : {2, 3}) {
        CAPTURE(n);
        CHECK(state(make<Svr>(svr_model_info(), svr_params), reg, n) == svr1);
        CHECK(state(make<NuSvr>(nu_svr_model_info(), nu_params), reg, n) == nu1);
        CHECK(state(make<Svc>(svc_model_info(), svc_params), cls, n) == svc1);
    }
    // Not a degenerate fit: a good share of the rows are support vectors.
    auto m = make<Svr>(svr_model_info(), svr_params);
    m->fit(reg, threads(2));
    CHECK(m->model().support.size() > 500);
}

}  // TEST_SUITE

}  // namespace unit_svm_svr_test
}  // namespace
