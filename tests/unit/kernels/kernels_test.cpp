#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/kernels/kernel.hpp"
#include "kestrel/kernels/kernel_spec.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_kernels_kernels_test {

using namespace kestrel;

namespace {

// x = (1, 0, 2, -1, 0, ...), z = (0, 3, 1, -2, 0, ...), 15 features, the last 11 zero in
// both (sparse enough to stay sparse in KernelRows): x·z = 4, ||x||² = 6, ||z||² = 14,
// x - z = (1, -3, 1, 1, 0, ...): ||x-z||² = 12, ||x-z||₁ = 6; Σ min = -1.
DenseMatrix pair_rows() {
    DenseMatrix m = DenseMatrix::Zero(2, 15);
    m.leftCols(5) << 1, 0, 2, -1, 0, 0, 3, 1, -2, 0;
    return m;
}

Kernel make(const std::string& text) {
    return Kernel(resolve_kernel(KernelSpec::parse(text), KernelDefaults{}, Features(pair_rows()), 1));
}

// k(x, z) through every path: pair, row and block, dense and sparse on either side.
std::vector<double> all_paths(const Kernel& k) {
    const DenseMatrix d = pair_rows();
    const KernelRows dense{Features(d)};
    const KernelRows sparse{Features(SparseMatrix(d.sparseView()))};
    REQUIRE(sparse.is_sparse());
    std::vector<double> out;
    for (const KernelRows* a : {&dense, &sparse}) {
        for (const KernelRows* b : {&dense, &sparse}) {
            out.push_back(k(*a, 0, *b, 1));
            double v[2];
            k.row(*a, 0, *b, 0, 2, v, 1);
            out.push_back(v[1]);
            out.push_back(k.block(*a, *b, 1)(0, 1));
        }
    }
    return out;
}

void check_value(const std::string& spec, double expected) {
    CAPTURE(spec);
    for (double v : all_paths(make(spec))) CHECK(v == doctest::Approx(expected).epsilon(1e-13));
}

DenseMatrix random_rows(Index n, Index d, std::uint64_t seed, double zero_fraction) {
    Rng rng(seed);
    DenseMatrix m(n, d);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < d; ++j) m(i, j) = rng.uniform() < zero_fraction ? 0.0 : rng.uniform(-1, 1);
    return m;
}

const KernelRows& wide_dense() {
    static const KernelRows r{Features(random_rows(60000, 9, 6, 0.4))};
    return r;
}
const KernelRows& wide_sparse() {
    static const KernelRows r{Features(SparseMatrix(random_rows(60000, 9, 6, 0.85).sparseView()))};
    return r;
}

}  // namespace

TEST_SUITE("kernels") {

TEST_CASE("kernels: each base kernel on a hand-computed pair, every evaluation path") {
    check_value("linear", 4.0);
    check_value("poly(gamma=0.5,coef0=1,degree=2)", 9.0);            // (0.5*4 + 1)^2
    check_value("rbf(gamma=0.1)", std::exp(-1.2));                   // exp(-0.1*12)
    check_value("laplacian(gamma=0.5)", std::exp(-3.0));             // exp(-0.5*6)
    check_value("exponential(nu=0.5)", std::exp(-std::sqrt(12.0)));  // exp(-sqrt(12)/(2*0.5))
    check_value("sigmoid(gamma=0.1,coef0=0.1)", std::tanh(0.5));     // tanh(0.1*4 + 0.1)
    check_value("min", -1.0);                                        // 0 + 0 + 1 - 2 + 0
    // Σ_j exp(-0.5 d_j²)^2 over d = (1, -3, 1, 1, 0, ...): 11 features contribute exp(0) = 1.
    check_value("anova(gamma=0.5,degree=2)", 3 * std::exp(-1.0) + std::exp(-9.0) + 11.0);
}

TEST_CASE("kernels: sums, weights and products") {
    check_value("0.7*rbf(gamma=0.1)+0.3*linear", 0.7 * std::exp(-1.2) + 0.3 * 4);
    check_value("2*linear*rbf(gamma=0.1)", 2 * 4 * std::exp(-1.2));
    check_value("rbf(gamma=0.1)*0.5*min+laplacian(gamma=0.5)", 0.5 * std::exp(-1.2) * -1 + std::exp(-3.0));
}

TEST_CASE("kernels: default gamma is 1/num_features, degree 3, coef0 0") {
    // 15 features: gamma 1/15, rbf = exp(-12/15); poly = (4/15)^3.
    check_value("rbf", std::exp(-12.0 / 15));
    check_value("poly", std::pow(4.0 / 15, 3));
    KernelDefaults d;
    d.gamma_rule = GammaRule::given;
    d.gamma = 0.25;
    d.degree = 2;
    d.coef0 = 1;
    const KernelSpec s = resolve_kernel(KernelSpec::parse("poly+rbf(gamma=1)"), d, Features(pair_rows()), 1);
    CHECK(s.to_string() == "poly(gamma=0.25,degree=2,coef0=1)+rbf(gamma=1)");
}

TEST_CASE("kernels: block equals pairwise values, dense and sparse, any thread count") {
    // 80% zeros: the sparse copies stay sparse (KernelRows densifies above 25% non-zeros).
    const DenseMatrix a = random_rows(70, 9, 3, 0.8), b = random_rows(3000, 9, 4, 0.8);
    for (const char* spec : {"rbf(gamma=0.3)", "poly(gamma=0.5,coef0=1,degree=3)", "laplacian(gamma=0.2)",
                             "anova(gamma=0.5,degree=2)", "min", "0.5*rbf(gamma=1)+0.5*linear*sigmoid(gamma=0.1)"}) {
        CAPTURE(spec);
        const Kernel k(resolve_kernel(KernelSpec::parse(spec), KernelDefaults{}, Features(a), 1));
        const KernelRows ad{Features(a)}, bd{Features(b)};
        const KernelRows as{Features(SparseMatrix(a.sparseView()))}, bs{Features(SparseMatrix(b.sparseView()))};
        REQUIRE(as.is_sparse());
        REQUIRE(bs.is_sparse());
        const DenseMatrix dd = k.block(ad, bd, 2);
        const DenseMatrix ss = k.block(as, bs, 2);
        const DenseMatrix ds = k.block(ad, bs, 1);
        double worst = 0;
        for (Index i = 0; i < a.rows(); i += 7)
            for (Index j = 0; j < b.rows(); j += 13) {
                const double ref = k(ad, i, bd, j);
                worst = std::max({worst, std::abs(dd(i, j) - ref), std::abs(ss(i, j) - ref), std::abs(ds(i, j) - ref)});
            }
        CHECK(worst < 1e-12);
        // Into a caller's buffer (of another shape, then reused): the same values.
        DenseMatrix reused = DenseMatrix::Constant(5, 5, 7.0);
        k.block(ad, bd, 2, reused);
        CHECK(reused == dd);
        k.block(ad, bd, 1, reused);
        CHECK(reused == dd);
        // Rows of 60000 x 9 are large enough to run on two threads; values are bit-identical.
        const KernelRows& wide_d = wide_dense();
        const KernelRows& wide_s = wide_sparse();
        REQUIRE(wide_s.is_sparse());
        std::vector<double> r1(60000), r2(60000);
        k.row(wide_d, 5, wide_d, 0, 60000, r1.data(), 1);
        k.row(wide_d, 5, wide_d, 0, 60000, r2.data(), 2);
        CHECK(r1 == r2);
        k.row(wide_s, 5, wide_s, 0, 60000, r1.data(), 1);
        k.row(wide_s, 5, wide_s, 0, 60000, r2.data(), 2);
        CHECK(r1 == r2);
    }
}

TEST_CASE("kernels: dense-enough sparse input is stored dense") {
    const DenseMatrix a = random_rows(20, 8, 8, 0.5);
    CHECK_FALSE(KernelRows(Features(SparseMatrix(a.sparseView()))).is_sparse());
    CHECK(KernelRows(Features(SparseMatrix(random_rows(20, 8, 8, 0.9).sparseView()))).is_sparse());
}

TEST_CASE("kernels: rows can be swapped in place") {
    const DenseMatrix a = random_rows(6, 8, 5, 0.8);
    for (bool sparse : {false, true}) {
        KernelRows r = sparse ? KernelRows(Features(SparseMatrix(a.sparseView()))) : KernelRows(Features(a));
        CHECK(r.is_sparse() == sparse);
        const Kernel k = make("rbf(gamma=0.5)");
        const double k14 = k(r, 1, r, 4), k02 = k(r, 0, r, 2);
        r.swap(1, 2);
        CHECK(k(r, 2, r, 4) == k14);
        CHECK(k(r, 0, r, 1) == k02);
        CHECK(r.sqnorm(2) == doctest::Approx(a.row(1).squaredNorm()));
    }
}

TEST_CASE("kernel spec: parsing, canonical text and JSON round trip") {
    const KernelSpec s = KernelSpec::parse(" 0.7 * rbf(gamma=0.5) + 0.3*Linear ");
    REQUIRE(s.terms.size() == 2);
    CHECK(s.terms[0].weight == 0.7);
    CHECK(s.terms[0].factors[0].kind == KernelKind::rbf);
    CHECK(*s.terms[0].factors[0].gamma == 0.5);
    CHECK(s.terms[1].weight == 0.3);
    CHECK(s.terms[1].factors[0].kind == KernelKind::linear);
    CHECK(s.to_string() == "0.7*rbf(gamma=0.5)+0.3*linear");
    for (const char* text : {"rbf", "gaussian(gamma=2^-5)", "poly(degree=2,coef0=1e-3)*rbf(gamma=median)",
                             "2*3*exponential(nu=4)", "anova(gamma=auto,degree=4)+min", "sigmoid(gamma=0.1,coef0=-1)"}) {
        CAPTURE(text);
        const KernelSpec k = KernelSpec::parse(text);
        CHECK(KernelSpec::parse(k.to_string()) == k);
        CHECK(KernelSpec::from_json(k.to_json()) == k);
    }
    CHECK(*KernelSpec::parse("rbf(gamma=2^-5)").terms[0].factors[0].gamma == 0.03125);
    CHECK(*KernelSpec::parse("exponential(nu=4)").terms[0].factors[0].gamma == 0.125);  // 1/(2 nu)
    CHECK(KernelSpec::parse("2*3*linear").terms[0].weight == 6);
    CHECK(KernelSpec::parse("polynomial").terms[0].factors[0].kind == KernelKind::poly);
    CHECK(KernelSpec::parse("intersection").terms[0].factors[0].kind == KernelKind::min);
}

TEST_CASE("kernel spec: bad specs are ParamErrors") {
    for (const char* bad : {"", "-0.5*rbf", "rbf+", "foo", "rbf(degree=2)", "poly(degree=1.5)", "rbf(gamma=-1)",
                            "rbf(gamma=1", "linear(gamma=1)", "0.5", "rbf(shape=2)", "rbf)", "min(nu=1)",
                            "exponential(nu=0)", "rbf(gamma=fast)"}) {
        CAPTURE(bad);
        CHECK_THROWS_AS(KernelSpec::parse(bad), ParamError);
    }
    CHECK_THROWS_WITH_AS(KernelSpec::parse("foo"), doctest::Contains("unknown kernel 'foo'"), ParamError);
}

TEST_CASE("kernel spec: gamma=median resolves to the median pairwise distance") {
    // One feature at 0, 1, 3, 6 (plus a zero column): distances 1, 2, 3, 3, 5, 6,
    // lower median 3 -> rbf gamma 1/(2*3²), laplacian 1/3, exponential 1/3.
    DenseMatrix x(4, 2);
    x << 0, 0, 1, 0, 3, 0, 6, 0;
    const Features f(x);
    CHECK(median_pairwise_distance(f, false, 7) == 3.0);
    CHECK(median_pairwise_distance(f, true, 7) == 3.0);
    const KernelSpec s =
        resolve_kernel(KernelSpec::parse("rbf(gamma=median)+laplacian(gamma=median)+exponential"),
                       KernelDefaults{GammaRule::median}, f, 7);
    CHECK(s.terms[0].factors[0].gamma == 1.0 / 18);
    CHECK(s.terms[1].factors[0].gamma == 1.0 / 3);
    CHECK(s.terms[2].factors[0].gamma == 1.0 / 3);
    CHECK(s.resolved());
    CHECK(s.to_json()["terms"][0]["factors"][0]["gamma"].get<double>() == 1.0 / 18);
    CHECK_THROWS_AS(resolve_kernel(KernelSpec::parse("poly(gamma=median)"), KernelDefaults{}, f, 7), ParamError);
    // A sample smaller than the data: seeded, so the same seed gives the same number.
    const DenseMatrix big = random_rows(400, 3, 9, 0.0);
    const double m1 = median_pairwise_distance(Features(big), false, 11, 50);
    CHECK(m1 == median_pairwise_distance(Features(big), false, 11, 50));
    CHECK(m1 > 0.5);
    CHECK(m1 < 2.0);
}

}  // TEST_SUITE

}  // namespace unit_kernels_kernels_test
}  // namespace
