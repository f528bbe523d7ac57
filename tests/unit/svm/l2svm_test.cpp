#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kestrel/svm/svc.hpp"
#include "svm_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_svm_l2svm_test {

using namespace kestrel;
using namespace kestrel::svm_test;

namespace {

struct L2Reference {
    Params params;
    double rho;
    std::vector<Index> sv_one_based;
    std::vector<double> dec;  // first 8 test rows, positive favours class 0
};

}  // namespace

TEST_SUITE("svm") {

TEST_CASE("svc loss=squared_hinge: the L2-SVM equals LIBSVM's hard margin on K + I/C") {
    // tests/unit/svm/l2svm_reference.py: LIBSVM 3.24 (python3-libsvm) with -t 4 on the
    // precomputed kernel K + diag(1/C_i) (rbf, gamma 1/13, heart_scale train) and
    // -c 1e12 -e 1e-8; test decision values with the plain kernel.
    const std::vector<L2Reference> refs = {
        {Json::parse(R"({"loss": "squared_hinge", "C": 1.0, "gamma": 0.07692307692307693, "eps": 1e-8})"),
         -0.1633914922342681,
         {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 17, 18, 19, 20, 21, 22, 24, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 59, 60, 61, 63, 64, 65, 67, 68, 69, 70, 71, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 86, 87, 88, 89, 90, 91, 93, 94, 95, 96, 97, 98, 100, 101, 102, 103, 104, 107, 109, 111, 112, 113, 114, 115, 117, 118, 119, 120, 121, 122, 124, 125, 126, 127, 129, 132, 133, 134, 135, 136, 137, 138, 140, 141, 142, 144, 145, 146, 147, 148, 149, 150, 152, 153, 154, 155, 156, 157, 159, 161, 162, 163, 165, 166, 170, 171, 172, 173, 175, 178, 179, 180, 181, 183, 185, 186, 187, 188, 189, 190, 193, 194, 195, 196, 197, 198, 199, 200, 201, 204, 205, 206, 207, 208, 209, 210, 211, 212, 214, 215, 216},
         {1.0580306228683716, 0.66556541747500286, 0.81630104718744978, -0.68573238398952041, 0.2799300046882931, 0.79432687562813054, 0.78762164356647646, -1.0525408484761283}},
        {Json::parse(R"({"loss": "squared_hinge", "C": 0.5, "class_weight": "1:3", "gamma": 0.07692307692307693, "eps": 1e-8})"),
         0.14998811161961398,
         {1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17, 18, 19, 20, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 41, 42, 43, 44, 46, 47, 48, 49, 51, 52, 53, 54, 55, 56, 57, 59, 60, 61, 63, 64, 65, 67, 68, 69, 70, 71, 73, 74, 75, 76, 77, 79, 80, 81, 82, 83, 84, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 100, 101, 102, 103, 104, 107, 111, 112, 113, 114, 115, 116, 117, 118, 119, 121, 122, 124, 125, 126, 127, 129, 132, 133, 134, 135, 136, 137, 138, 140, 141, 142, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 160, 161, 162, 163, 165, 166, 170, 171, 172, 173, 174, 175, 178, 179, 180, 183, 185, 186, 187, 188, 189, 190, 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 204, 206, 207, 208, 209, 210, 211, 212, 214, 215, 216},
         {0.79474543264595077, 0.26283994947963274, 0.45204462451781691, -0.81984161153914958, -0.12000768457057218, 0.41079818215697239, 0.43740127730270117, -1.1990955798638083}},
    };
    const Dataset train = load("heart_scale/train.libsvm", Task::classification);
    const Dataset test = load("heart_scale/test.libsvm", Task::classification);
    for (const auto& r : refs) {
        CAPTURE(r.params.dump());
        auto m = make<Svc>(svc_model_info(), r.params);
        m->fit(train, Context{});
        const SvmModel& s = m->model();
        CHECK(s.rho[0] == doctest::Approx(r.rho).epsilon(1e-6));
        std::vector<Index> sv(s.support);
        for (auto& i : sv) ++i;
        std::sort(sv.begin(), sv.end());
        CHECK(sv == r.sv_one_based);
        const Eigen::MatrixXd dec = m->pairwise_decision(test.X);
        for (std::size_t i = 0; i < r.dec.size(); ++i) CHECK(std::abs(dec(static_cast<Index>(i), 0) - r.dec[i]) < 1e-5);
        // KKT of the L2-SVM on the training rows: y f(x) = 1 - α/C_i where α > 0, >= 1 elsewhere.
        const Eigen::MatrixXd f = m->pairwise_decision(train.X);
        std::vector<double> alpha(static_cast<std::size_t>(train.rows()), 0.0);
        for (Index j = 0; j < static_cast<Index>(s.support.size()); ++j)
            alpha[static_cast<std::size_t>(s.support[static_cast<std::size_t>(j)])] = std::abs(s.sv_coef(0, j));
        const double C = r.params.at("C").get<double>();
        for (Index i = 0; i < train.rows(); ++i) {
            const double y = train.y[i] == 0 ? 1.0 : -1.0;  // LIBSVM's +1 is class 0
            const double Ci = C * (r.params.contains("class_weight") && train.y[i] == 1 ? 3.0 : 1.0);
            const double a = alpha[static_cast<std::size_t>(i)];
            if (a > 0) CHECK(y * f(i, 0) == doctest::Approx(1 - a / Ci).epsilon(1e-5));
            else CHECK(y * f(i, 0) >= 1 - 1e-5);
        }
    }
}

TEST_CASE("svc loss=squared_hinge: two points, the closed form a = C/(2C+1)") {
    // x = +1 (class "a"), x = -1 (class "b"), linear kernel. By symmetry α₁ = α₂ = a and
    // rho = 0; the dual 2a² + a²/C - 2a is least at a = C/(2C+1), so w = 2a and the
    // decision at x = 1 is 2C/(2C+1) = 1 - a/C (the squared slack's KKT).
    Dataset d;
    d.task = Task::classification;
    d.X = Features(DenseMatrix{{1.0}, {-1.0}});
    d.y = Vector(2);
    d.y << 0.0, 1.0;
    d.classes = {"a", "b"};
    for (double C : {0.5, 1.0, 4.0}) {
        CAPTURE(C);
        auto m = make<Svc>(svc_model_info(), {{"loss", "squared_hinge"}, {"C", C}, {"kernel", "linear"}, {"eps", 1e-10}});
        m->fit(d, Context{});
        const double a = C / (2 * C + 1);
        CHECK(m->model().sv_coef(0, 0) == doctest::Approx(a).epsilon(1e-6));
        CHECK(m->model().rho[0] == doctest::Approx(0.0).epsilon(1e-6));
        CHECK(m->pairwise_decision(d.X)(0, 0) == doctest::Approx(2 * C / (2 * C + 1)).epsilon(1e-6));
        // The hinge loss with C >= 1/2 separates with margin exactly 1 instead.
        auto h = make<Svc>(svc_model_info(), {{"C", C}, {"kernel", "linear"}, {"eps", 1e-10}});
        h->fit(d, Context{});
        CHECK(h->pairwise_decision(d.X)(0, 0) == doctest::Approx(std::min(1.0, 2 * C)).epsilon(1e-6));
    }
}

}  // TEST_SUITE

}  // namespace unit_svm_l2svm_test
}  // namespace
