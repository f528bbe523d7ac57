#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/svm/platt.hpp"
#include "kestrel/svm/svc.hpp"
#include "kestrel/svm/svr.hpp"
#include "svm_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_svm_platt_test {

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

template <class M = Svc>
std::unique_ptr<M> fit(const ModelInfo& info, const Dataset& d, const Params& given, const Context& ctx = Context{}) {
    auto m = make<M>(info, given);
    m->fit(d, ctx);
    return m;
}

// Our folds differ from LIBSVM's (its rand() permutation), so the sigmoids differ a
// little: every probability within 0.1, and the same most likely class wherever
// LIBSVM's is clear (top two at least 0.2 apart).
void check_close_to_libsvm(const Matrix& p, const std::vector<std::vector<double>>& ref) {
    REQUIRE(p.rows() == static_cast<Index>(ref.size()));
    for (Index r = 0; r < p.rows(); ++r) {
        CAPTURE(r);
        const auto& q = ref[static_cast<std::size_t>(r)];
        Index ref_best = 0, best = 0;
        for (Index c = 0; c < p.cols(); ++c) {
            CHECK(std::abs(p(r, c) - q[static_cast<std::size_t>(c)]) < 0.1);
            if (q[static_cast<std::size_t>(c)] > q[static_cast<std::size_t>(ref_best)]) ref_best = c;
            if (p(r, c) > p(r, best)) best = c;
        }
        double runner_up = 0;
        for (Index c = 0; c < p.cols(); ++c)
            if (c != ref_best) runner_up = std::max(runner_up, q[static_cast<std::size_t>(c)]);
        if (q[static_cast<std::size_t>(ref_best)] - runner_up > 0.2) CHECK(best == ref_best);
    }
}

void check_rows_sum_to_one(const Matrix& p) {
    for (Index r = 0; r < p.rows(); ++r) {
        CHECK(p.row(r).sum() == doctest::Approx(1.0).epsilon(1e-12));
        CHECK(p.row(r).minCoeff() > 0.0);
    }
}

}  // namespace

TEST_SUITE("svm") {

TEST_CASE("platt: fit_sigmoid reproduces LIBSVM's sigmoid_train on hand fixtures") {
    // tests/unit/svm/platt_reference.py: LIBSVM 3.24's sigmoid_train transcribed line
    // for line, run with /usr/bin/python3 (Python 3.11, float64).
    const std::vector<double> dec = {2.1, 1.3, 0.4, -0.2, -1.1, -1.7, 0.8, -0.6, 1.5, -2.3};
    const std::vector<std::int8_t> lab = {1, 1, 1, -1, -1, -1, -1, 1, 1, -1};
    const SigmoidFit f = fit_sigmoid(dec, lab);
    CHECK(f.a == doctest::Approx(-0.81967052216830072).epsilon(1e-13));
    CHECK(f.b == doctest::Approx(0.032843233568613184).epsilon(1e-13));
    CHECK(f.iterations == 4);
    CHECK(f.converged);
    // At the optimum the gradient of the regularised cross-entropy vanishes (to LIBSVM's 1e-5).
    const double hi = 6.0 / 7.0, lo = 1.0 / 7.0;
    double g1 = 0, g2 = 0;
    for (std::size_t i = 0; i < dec.size(); ++i) {
        const double p = sigmoid_probability(dec[i], f.a, f.b);
        const double t = lab[i] > 0 ? hi : lo;
        g1 += dec[i] * (t - p);
        g2 += t - p;
    }
    CHECK(std::abs(g1) < 1e-5);
    CHECK(std::abs(g2) < 1e-5);

    const SigmoidFit s = fit_sigmoid(std::vector<double>{3.0, 2.0, 1.0, -1.0, -2.0}, std::vector<std::int8_t>{1, 1, 1, -1, -1});
    CHECK(s.a == doctest::Approx(-0.63418735181376917).epsilon(1e-13));
    CHECK(s.b == doctest::Approx(-0.032870479517254872).epsilon(1e-13));
    CHECK(s.iterations == 4);
    CHECK_THROWS_AS(fit_sigmoid(std::vector<double>{}, std::vector<std::int8_t>{}), InternalError);
}

TEST_CASE("platt: sigmoid_probability is finite and exact at the extremes") {
    CHECK(sigmoid_probability(0.0, -2.0, 0.0) == 0.5);
    CHECK(sigmoid_probability(1000.0, -2.0, 0.0) == doctest::Approx(1.0));
    CHECK(sigmoid_probability(-1000.0, -2.0, 0.0) == 0.0);
    CHECK(sigmoid_probability(1.0, -1.0, 0.0) == doctest::Approx(1.0 / (1.0 + std::exp(-1.0))).epsilon(1e-15));
}

TEST_CASE("platt: probability folds are LIBSVM-sized, seeded and cover every row once") {
    const std::vector<int> f = probability_folds(12, 7);
    std::vector<int> size(5, 0);
    for (int v : f) ++size[static_cast<std::size_t>(v)];
    // LIBSVM's boundaries i*l/5: 0, 2, 4, 7, 9, 12.
    CHECK(size == std::vector<int>{2, 2, 3, 2, 3});
    CHECK(probability_folds(12, 7) == f);
    CHECK(probability_folds(12, 8) != f);
    CHECK(probability_folds(3, 1).size() == 3);  // fewer rows than folds: one row per fold
}

TEST_CASE("platt: laplace_scale is LIBSVM's trimmed mean absolute residual") {
    // Mean |r| = 26/10 = 2.6, std = sqrt(2)*2.6 = 3.68, so |20| > 5 std is dropped:
    // the scale is the mean of the other nine, 6/9.
    const std::vector<double> r = {1.0, -2.0, 0.5, -0.5, 20.0, 1.0, -1.0, 0.0, 0.0, 0.0};
    CHECK(laplace_scale(r) == doctest::Approx(6.0 / 9.0).epsilon(1e-15));
}

TEST_CASE("svc probability=1: heart_scale agrees with LIBSVM -b 1 and is reproducible") {
    // LIBSVM 3.24 (Debian libsvm-tools 3.24+ds-6):
    //   svm-train -b 1 -c 1 -g 0.07692307692307693 heart_scale/train.libsvm m
    //   svm-predict -b 1 heart_scale/test.libsvm m out     (probA -1.76007, probB 0.12275)
    // Columns in kestrel's class order "0", "1".
    const std::vector<std::vector<double>> ref = {
        {0.938436, 0.0615641}, {0.880245, 0.119755}, {0.922303, 0.0776972}, {0.117534, 0.882466}, {0.634639, 0.365361},
        {0.895675, 0.104325},  {0.903301, 0.0966989}, {0.037171, 0.962829}, {0.389464, 0.610536}, {0.205885, 0.794115},
        {0.809689, 0.190311},  {0.530541, 0.469459}, {0.882435, 0.117565}, {0.0443237, 0.955676}, {0.37349, 0.62651},
        {0.0874428, 0.912557}, {0.956466, 0.0435338}, {0.0928037, 0.907196}, {0.953369, 0.0466309}, {0.243747, 0.756253},
        {0.895361, 0.104639},  {0.170733, 0.829267}, {0.927599, 0.0724011}, {0.834061, 0.165939}, {0.810352, 0.189648},
        {0.0450363, 0.954964}, {0.812067, 0.187933}, {0.760126, 0.239874}, {0.842394, 0.157606}, {0.0596838, 0.940316},
        {0.849284, 0.150716},  {0.0606639, 0.939336}, {0.51225, 0.48775},   {0.483082, 0.516918}, {0.96337, 0.0366304},
        {0.644533, 0.355467},  {0.064096, 0.935904},  {0.90133, 0.09867},   {0.367734, 0.632266}, {0.858571, 0.141429},
        {0.0343187, 0.965681}, {0.852271, 0.147729}, {0.218247, 0.781753}, {0.0730146, 0.926985}, {0.149169, 0.850831},
        {0.941614, 0.0583863}, {0.260242, 0.739758}, {0.0333573, 0.966643}, {0.229084, 0.770916}, {0.574352, 0.425648},
        {0.109127, 0.890873},  {0.0727288, 0.927271}, {0.647804, 0.352196}, {0.097389, 0.902611}};
    const Params params = {{"probability", true}};
    auto m = fit(svc_model_info(), heart_train(), params);
    REQUIRE(m->has_predict_proba());
    const Matrix p = m->predict_proba(heart_test().X);
    check_rows_sum_to_one(p);
    check_close_to_libsvm(p, ref);
    CHECK(m->model().prob_a[0] == doctest::Approx(-1.76).epsilon(0.15));
    // The support vectors are those of probability=0: the sigmoid is fitted beside the model.
    auto plain = fit(svc_model_info(), heart_train(), {});
    CHECK(m->model().support == plain->model().support);
    CHECK_FALSE(plain->has_predict_proba());
    CHECK_THROWS_AS(plain->predict_proba(heart_test().X), UsageError);

    // Same seed, any thread count: the same sigmoid, bit for bit; another seed moves the folds.
    auto again = fit(svc_model_info(), heart_train(), params, threads(2));
    CHECK(again->model().prob_a[0] == m->model().prob_a[0]);
    CHECK(again->model().prob_b[0] == m->model().prob_b[0]);
    Context other;
    other.seed = 12345;
    auto moved = fit(svc_model_info(), heart_train(), params, other);
    CHECK(moved->model().prob_a[0] != m->model().prob_a[0]);

    // The state carries prob_a / prob_b and predicts the same after a round trip.
    auto loaded = make<Svc>(svc_model_info(), params);
    const Json state = m->save_state();
    CHECK(state.contains("prob_a"));
    loaded->load_state(state);
    CHECK(loaded->predict_proba(heart_test().X) == p);
}

TEST_CASE("svc probability=1: iris (3 classes) couples pairs as LIBSVM -b 1") {
    // LIBSVM 3.24: svm-train -b 1 -c 1 iris/train.scaled.libsvm m (gamma 0.25);
    //   svm-predict -b 1 iris/test.scaled.libsvm m out. Columns in class order 0, 1, 2.
    const std::vector<std::vector<double>> ref = {
        {0.971012, 0.0193094, 0.00967886}, {0.0135068, 0.267812, 0.718682},   {0.0681064, 0.914994, 0.0168999},
        {0.0524184, 0.933397, 0.0141844},  {0.977005, 0.01419, 0.00880511},   {0.015852, 0.797382, 0.186766},
        {0.984987, 0.00780886, 0.00720377}, {0.958626, 0.028887, 0.0124865},  {0.00991658, 0.0368869, 0.953197},
        {0.0146565, 0.883429, 0.101914},   {0.00883347, 0.0118734, 0.979293}, {0.0104117, 0.008348, 0.98124},
        {0.00757883, 0.00283571, 0.989585}, {0.0145472, 0.910605, 0.0748478}, {0.973207, 0.0173157, 0.00947731},
        {0.972857, 0.0178592, 0.00928411}, {0.97145, 0.0169702, 0.0115798},   {0.0155781, 0.976547, 0.00787443},
        {0.00872667, 0.907169, 0.0841047}, {0.013998, 0.320536, 0.665466},    {0.972421, 0.0172081, 0.0103705},
        {0.00861606, 0.00184687, 0.989537}, {0.00931105, 0.952248, 0.0384411}, {0.0101788, 0.413999, 0.575822},
        {0.00730892, 0.00305418, 0.989637}, {0.011933, 0.354731, 0.633336},   {0.0108577, 0.946997, 0.0421456},
        {0.954997, 0.0300631, 0.0149399},  {0.00963587, 0.0739292, 0.916435}, {0.972417, 0.0180282, 0.00955435}};
    auto m = fit(svc_model_info(), iris_train(), {{"probability", true}});
    const Matrix p = m->predict_proba(iris_test().X);
    check_rows_sum_to_one(p);
    check_close_to_libsvm(p, ref);
    CHECK(m->model().prob_a.size() == 3);
    auto again = fit(svc_model_info(), iris_train(), {{"probability", true}}, threads(2));
    CHECK(again->predict_proba(iris_test().X) == p);
}

TEST_CASE("nu_svc probability=1: iris agrees with LIBSVM -s 1 -b 1") {
    // LIBSVM 3.24: svm-train -s 1 -n 0.5 -b 1 iris/train.scaled.libsvm m; svm-predict -b 1.
    const std::vector<std::vector<double>> ref = {
        {0.968542, 0.0201943, 0.0112638}, {0.0128505, 0.32426, 0.66289},    {0.103484, 0.873119, 0.023397},
        {0.0822395, 0.897408, 0.0203524}, {0.975154, 0.0150287, 0.00981726}, {0.0141965, 0.742818, 0.242986},
        {0.983352, 0.00867835, 0.00797014}, {0.954151, 0.0322672, 0.0135816}, {0.00888675, 0.0566323, 0.934481},
        {0.0162148, 0.885877, 0.0979082}, {0.00833532, 0.020139, 0.971526}, {0.00821191, 0.0123061, 0.979482},
        {0.00671037, 0.00650106, 0.986789}, {0.01226, 0.873084, 0.114656},  {0.970761, 0.0189534, 0.0102852},
        {0.970006, 0.0196825, 0.0103115}, {0.966408, 0.0196312, 0.0139609}, {0.0209725, 0.96817, 0.0108571},
        {0.00874244, 0.895977, 0.0952802}, {0.0135999, 0.379626, 0.606774}, {0.968996, 0.0194827, 0.0115215},
        {0.00685974, 0.00355339, 0.989587}, {0.00916257, 0.932869, 0.0579686}, {0.0106056, 0.54526, 0.444135},
        {0.00683682, 0.0079987, 0.985164}, {0.0110654, 0.355587, 0.633347}, {0.0103808, 0.921383, 0.0682358},
        {0.948322, 0.0347546, 0.0169233}, {0.0091172, 0.107403, 0.88348},   {0.96908, 0.0202803, 0.0106402}};
    auto m = fit(nu_svc_model_info(), iris_train(), {{"probability", true}, {"nu", 0.5}});
    const Matrix p = m->predict_proba(iris_test().X);
    check_rows_sum_to_one(p);
    check_close_to_libsvm(p, ref);
}

TEST_CASE("svr probability=1: the Laplace scale of held-out residuals is near LIBSVM's") {
    // LIBSVM 3.24: svm-train -s 3 -c 10 -p 5 -b 1 diabetes/train.scaled.libsvm: probA 47.962;
    // svm-train -s 4 -c 10 -n 0.3 -b 1 ...: probA 54.300. Folds differ, so within 10%.
    const Dataset d = load("diabetes/train.scaled.libsvm", Task::regression);
    auto s = make<Svr>(svr_model_info(), {{"C", 10.0}, {"epsilon", 5.0}, {"probability", true}});
    s->fit(d, Context{});
    REQUIRE(s->model().prob_a.size() == 1);
    CHECK(s->model().prob_a[0] == doctest::Approx(47.962).epsilon(0.1));
    auto again = make<Svr>(svr_model_info(), {{"C", 10.0}, {"epsilon", 5.0}, {"probability", true}});
    again->fit(d, threads(2));
    CHECK(again->model().prob_a[0] == s->model().prob_a[0]);
    CHECK(s->save_state().contains("prob_a"));
    auto nu = make<NuSvr>(nu_svr_model_info(), {{"C", 10.0}, {"nu", 0.3}, {"probability", true}});
    nu->fit(d, Context{});
    CHECK(nu->model().prob_a[0] == doctest::Approx(54.300).epsilon(0.1));
    auto plain = make<Svr>(svr_model_info(), {{"C", 10.0}, {"epsilon", 5.0}});
    plain->fit(d, Context{});
    CHECK_FALSE(plain->model().has_probability());
}

}  // TEST_SUITE

}  // namespace unit_svm_platt_test
}  // namespace
