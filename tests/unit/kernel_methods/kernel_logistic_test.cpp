#include <doctest/doctest.h>

#include "kernel_methods_test_util.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/kernel_methods/kernel_logistic.hpp"
#include "kestrel/kernel_methods/klr_objective.hpp"
#include "kestrel/kernels/kernel.hpp"
#include "kestrel/linear/logistic.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_kernel_methods_kernel_logistic_test {

using namespace kestrel;
using namespace kestrel::kernel_test;

namespace {

std::unique_ptr<KernelLogistic> klr(const Params& given) {
    return make<KernelLogistic>(kernel_logistic_model_info(), given);
}

Matrix klr_decision(const Dataset& d, const Params& given, const Features& Q, const Context& ctx = Context{}) {
    auto m = klr(given);
    m->fit(d, ctx);
    return m->decision_function(Q);
}

}  // namespace

TEST_SUITE("kernel_methods") {

TEST_CASE("kernel_logistic: the linear kernel equals logistic (binary, Newton and L-BFGS)") {
    const Dataset& d = linear_test::breast_cancer();
    auto lr = linear_test::make<LogisticRegression>(logistic_model_info(), {{"C", 0.5}, {"tol", 1e-10}});
    lr->fit(d, Context{});
    const Matrix expect = lr->decision_function(d.X);
    const Matrix newton = klr_decision(d, {{"kernel", "linear"}, {"C", 0.5}, {"solver", "newton"}, {"tol", 1e-12}}, d.X);
    CHECK(linear_test::relative_error(newton, expect) < 1e-6);
    const Matrix lbfgs = klr_decision(
        d, {{"kernel", "linear"}, {"C", 0.5}, {"solver", "lbfgs"}, {"tol", 1e-9}, {"max_iter", 5000}}, d.X);
    CHECK(linear_test::relative_error(lbfgs, expect) < 1e-4);
}

TEST_CASE("kernel_logistic: the linear kernel equals logistic (multinomial, iris)") {
    // The exact multinomial optimum's decision values on iris X[:3] (Newton, numpy;
    // tests/unit/linear/make_references.py), as logistic_test.cpp checks them.
    Eigen::MatrixXd dec(3, 3);
    dec << 6.709185152368793, 2.83432885429308, -9.543514006661912, -2.654536669808552, 1.4080977875679088,
        1.2464388822405823, -3.8144403394254667, 2.52622509201423, 1.2882152474111646;
    const Dataset& d = linear_test::iris();
    const Features first3 = d.X.rows_subset(std::vector<Index>{0, 1, 2});
    auto m = klr({{"kernel", "linear"}, {"tol", 1e-10}, {"max_iter", 20000}});
    m->fit(d, Context{});
    const Matrix got = m->decision_function(first3);
    // Only differences between classes are identified (unpenalised intercepts).
    Matrix centred = got.colwise() - got.rowwise().mean();
    Matrix ref = dec.colwise() - dec.rowwise().mean();
    CHECK(linear_test::relative_error(centred, ref) < 1e-4);
    const Matrix p = m->predict_proba(first3);
    CHECK((p.rowwise().sum().array() - 1).abs().maxCoeff() < 1e-12);
}

TEST_CASE("kernel_logistic: the gradient agrees with finite differences") {
    const Dataset& d = linear_test::iris();
    KernelSpec spec = KernelSpec::parse("rbf(gamma=0.2)");
    const DenseMatrix K = Kernel(spec).gram(KernelRows(d.X), 1);
    Vector cost(d.rows());
    for (Index i = 0; i < d.rows(); ++i) cost[i] = 0.5 + 0.25 * static_cast<double>(i % 3);
    Vector y_bin = (d.y.array() > 0.5).cast<double>();
    Rng rng(3);
    for (Index k : {Index{2}, Index{3}}) {
        CAPTURE(k);
        KernelLogisticObjective f(K, k == 2 ? y_bin : d.y, k, cost, 2);
        Vector w(f.dimension());
        for (Index j = 0; j < w.size(); ++j) w[j] = 0.3 * rng.normal();
        Vector g;
        f.value_gradient(w, g);
        const Vector fd = linear_test::central_difference_gradient(f, w);
        CHECK((g - fd).cwiseAbs().maxCoeff() < 1e-5 * std::max(1.0, g.cwiseAbs().maxCoeff()));
    }
}

TEST_CASE("kernel_logistic: Newton and L-BFGS reach the same RBF model; Nystrom with m = n too") {
    const Dataset& d = linear_test::breast_cancer();
    const Params base{{"kernel", "rbf"}, {"gamma", 0.02}, {"C", 2.0}, {"tol", 1e-10}, {"max_iter", 5000}};
    Params pn = base, pl = base, py = base;
    pn["solver"] = "newton";
    pl["solver"] = "lbfgs";
    py["nystrom"] = d.rows();
    const Matrix newton = klr_decision(d, pn, d.X);
    // L-BFGS on the dual coefficients sees K's conditioning squared and stalls near
    // 1e-4 of the optimum (LBFGS++'s line search), where Newton goes to rounding.
    CHECK(linear_test::relative_error(klr_decision(d, pl, d.X), newton) < 5e-4);
    CHECK(linear_test::relative_error(klr_decision(d, py, d.X), newton) < 1e-4);
    auto m = klr(pn);
    m->fit(d, Context{});
    double correct = 0;
    const Vector pred = m->predict(d.X);
    for (Index i = 0; i < d.rows(); ++i) correct += pred[i] == d.y[i];
    CHECK(correct / static_cast<double>(d.rows()) > 0.95);
}

TEST_CASE("kernel_logistic: bad input, save/load and thread counts") {
    CHECK_THROWS_AS(klr({{"C", 0.0}}), ParamError);
    const Dataset& iris = linear_test::iris();
    CHECK_THROWS_AS(klr({{"solver", "newton"}})->fit(iris, Context{}), UsageError);
    CHECK_THROWS_AS(klr({{"nystrom", iris.rows() + 1}})->fit(iris, Context{}), ParamError);
    for (const Params& p : {Params{{"gamma", "median"}}, Params{{"nystrom", 30}, {"landmarks", "kmeans++"}}}) {
        CAPTURE(p.dump());
        auto a = klr(p), b = klr(p);
        a->fit(iris, threads(1, 4));
        b->fit(iris, threads(2, 4));
        CHECK(a->save_state().dump() == b->save_state().dump());
        const KernelExpansion e = KernelExpansion::from_json(a->save_state(), iris.cols(), 3);
        CHECK(e.decision(iris.X) == a->decision_function(iris.X));
    }
}

}  // TEST_SUITE

}  // namespace unit_kernel_methods_kernel_logistic_test
}  // namespace
