#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/svm/svc.hpp"
#include "svm_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_svm_precomputed_test {

using namespace kestrel;
using namespace kestrel::svm_test;

namespace {

// Rows in the precomputed layout: feature 0 = serial s (1-based), feature j = K(x, x_j)
// for the l training rows, with an rbf kernel computed here (not by kestrel's kernels).
DenseMatrix gram_rows(const DenseMatrix& A, const DenseMatrix& train, double gamma, const std::vector<double>& serial) {
    DenseMatrix out(A.rows(), train.rows() + 1);
    for (Index i = 0; i < A.rows(); ++i) {
        out(i, 0) = serial[static_cast<std::size_t>(i)];
        for (Index j = 0; j < train.rows(); ++j) out(i, j + 1) = std::exp(-gamma * (A.row(i) - train.row(j)).squaredNorm());
    }
    return out;
}

std::vector<double> serials(Index n, Index first = 1) {
    std::vector<double> s(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) s[static_cast<std::size_t>(i)] = static_cast<double>(first + i);
    return s;
}

}  // namespace

TEST_SUITE("svm") {

TEST_CASE("svc kernel=precomputed: the Gram of rbf gives LIBSVM's rbf model") {
    // LIBSVM 3.24 svm_train(heart_scale/train.libsvm, '-c 1 -g 0.07692307692307693') (the
    // reference of svc_test.cpp): rho, nSV and the first test decision values.
    const double gamma = 1.0 / 13;
    const Dataset train = load("heart_scale/train.libsvm", Task::classification);
    const Dataset test = load("heart_scale/test.libsvm", Task::classification);
    const DenseMatrix Xtr = train.X.to_dense(), Xte = test.X.to_dense();
    Dataset pre = train;
    pre.X = Features(gram_rows(Xtr, Xtr, gamma, serials(Xtr.rows())));
    auto m = make<Svc>(svc_model_info(), {{"kernel", "precomputed"}});
    m->fit(pre, Context{});
    CHECK(m->model().kernel_spec.to_string() == "precomputed");
    CHECK(m->model().rho[0] == doctest::Approx(-0.471138209644078).epsilon(1e-3));
    CHECK(m->model().n_sv == std::vector<Index>{55, 52});
    // Test rows' own serials are never read (LIBSVM's neither): any value will do.
    const Features te(gram_rows(Xte, Xtr, gamma, std::vector<double>(static_cast<std::size_t>(Xte.rows()), 0.0)));
    const Eigen::MatrixXd dec = m->pairwise_decision(te);
    const std::vector<double> libsvm = {1.6172866373581287, 1.2029647986204783, 1.475564720797121, -1.0758195023151234};
    for (std::size_t r = 0; r < libsvm.size(); ++r) CHECK(std::abs(dec(static_cast<Index>(r), 0) - libsvm[r]) < 1e-3);

    // The state round trip keeps the serials of the support vectors.
    auto back = make<Svc>(svc_model_info(), {{"kernel", "precomputed"}});
    back->load_state(m->save_state());
    CHECK(back->pairwise_decision(te) == dec);
}

TEST_CASE("svc kernel=precomputed: serials, not row positions, identify rows (folds, shuffles)") {
    // A shuffled subset of the rows (as a cross-validation fold sees them) must give the
    // model that rbf gives on the same rows: the kernel looks up columns by serial.
    const double gamma = 0.5;
    const Dataset iris = load("iris/train.scaled.libsvm", Task::classification);
    const DenseMatrix X = iris.X.to_dense();
    std::vector<Index> rows;
    for (Index i = X.rows() - 1; i >= 0; i -= 2) rows.push_back(i);  // every other row, reversed
    const DenseMatrix all = gram_rows(X, X, gamma, serials(X.rows()));
    Dataset pre, raw;
    pre.task = raw.task = Task::classification;
    pre.classes = raw.classes = iris.classes;
    pre.X = Features(DenseMatrix(all)).rows_subset(rows);
    raw.X = iris.X.rows_subset(rows);
    pre.y = raw.y = Vector(static_cast<Index>(rows.size()));
    for (std::size_t r = 0; r < rows.size(); ++r) pre.y[static_cast<Index>(r)] = iris.y[rows[r]];
    raw.y = pre.y;
    auto p = make<Svc>(svc_model_info(), {{"kernel", "precomputed"}, {"C", 2.0}, {"eps", 1e-6}});
    auto r = make<Svc>(svc_model_info(), {{"kernel", "rbf"}, {"gamma", gamma}, {"C", 2.0}, {"eps", 1e-6}});
    p->fit(pre, Context{});
    r->fit(raw, Context{});
    CHECK(p->model().n_sv == r->model().n_sv);
    const Eigen::MatrixXd dp = p->pairwise_decision(Features(DenseMatrix(all)));
    const Eigen::MatrixXd dr = r->pairwise_decision(iris.X);
    CHECK((dp - dr).cwiseAbs().maxCoeff() < 1e-5);
}

TEST_CASE("svc kernel=precomputed: bad serials and combinations are clear errors") {
    Dataset d;
    d.task = Task::classification;
    d.classes = {"a", "b"};
    d.y = Vector(2);
    d.y << 0.0, 1.0;
    DenseMatrix g(2, 3);
    g << 1, 1.0, 0.2,  //
        3, 0.2, 1.0;   // serial 3 but only kernel columns 1..2
    d.X = Features(g);
    auto m = make<Svc>(svc_model_info(), {{"kernel", "precomputed"}});
    try {
        m->fit(d, Context{});
        FAIL("no error");
    } catch (const DataError& e) {
        CHECK(std::string(e.what()).find("precomputed kernel: row 2 has serial number 3") != std::string::npos);
    }
    g(1, 0) = 1.5;
    d.X = Features(g);
    CHECK_THROWS_AS(m->fit(d, Context{}), DataError);
    g(1, 0) = 2;
    d.X = Features(g);
    m->fit(d, Context{});  // a valid 2-row Gram
    CHECK(m->fitted());
    CHECK_THROWS_WITH_AS(KernelSpec::parse("0.5*precomputed"), doctest::Contains("cannot be weighted or combined"),
                         ParamError);
    CHECK_THROWS_AS(KernelSpec::parse("precomputed+rbf"), ParamError);
}

}  // TEST_SUITE

}  // namespace unit_svm_precomputed_test
}  // namespace
