#include <doctest/doctest.h>

#include <utility>
#include <vector>

#include "kestrel/core/rng.hpp"
#include "kestrel/kernels/kernel.hpp"
#include "kestrel/svm/q_matrix.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_svm_q_matrix_test {

using namespace kestrel;

namespace {

DenseMatrix random_rows(Index n, Index d, std::uint64_t seed) {
    Rng rng(seed);
    DenseMatrix m(n, d);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < d; ++j) m(i, j) = rng.uniform(-1, 1);
    return m;
}

Kernel rbf(const DenseMatrix& X) {
    return Kernel(resolve_kernel(KernelSpec::parse("rbf(gamma=0.5)"), KernelDefaults{}, Features(X), 1));
}

// SvrQ's column (a, ·) against s_a s_b K(x_{a mod l}, x_{b mod l}) computed pair by pair,
// with `var[p]` the variable the solver's swaps have moved to position p.
void check_column(SvrQ& Q, const Kernel& k, const KernelRows& rows, const std::vector<Index>& var, Index a,
                  Index len) {
    CAPTURE(a);
    const Index l = rows.size();
    const float* col = Q.column(a, len);
    const auto sign = [&](Index v) { return v < l ? 1.0f : -1.0f; };
    for (Index b = 0; b < len; ++b) {
        const Index va = var[static_cast<std::size_t>(a)], vb = var[static_cast<std::size_t>(b)];
        const float expected = sign(va) * sign(vb) * static_cast<float>(k(rows, va % l, rows, vb % l));
        if (col[b] != expected) {
            CHECK(col[b] == expected);
            return;
        }
    }
}

}  // namespace

TEST_SUITE("svm") {

TEST_CASE("q matrix: KernelQ's cached columns follow a run of swaps, as shrinking makes them") {
    // Columns of several prefix lengths are cached, then positions are swapped in
    // shrinking's pattern (front i rising, back j falling) and in arbitrary pairs; every
    // column read afterwards must be Q in the swapped order: s_a s_b K(x_var(a), x_var(b)).
    const Index n = 60;
    const DenseMatrix X = random_rows(n, 4, 13);
    const KernelRows rows{Features(X)};
    const Kernel k = rbf(X);
    std::vector<std::int8_t> signs(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) signs[static_cast<std::size_t>(i)] = i % 3 == 0 ? -1 : 1;
    KernelQ Q(rows, k, signs, 1.0, 1);
    std::vector<Index> var(static_cast<std::size_t>(n));
    for (Index p = 0; p < n; ++p) var[static_cast<std::size_t>(p)] = p;
    const auto check = [&](Index a, Index len) {
        CAPTURE(a);
        CAPTURE(len);
        const float* col = Q.column(a, len);
        for (Index b = 0; b < len; ++b) {
            const Index va = var[static_cast<std::size_t>(a)], vb = var[static_cast<std::size_t>(b)];
            const double s = signs[static_cast<std::size_t>(va)] * signs[static_cast<std::size_t>(vb)];
            const auto expected = static_cast<float>(s * k(rows, va, rows, vb));
            if (col[b] != expected) {
                CHECK(col[b] == expected);
                return;
            }
        }
    };
    for (Index a : {0, 7, 20, 33, 59}) check(a, n);
    for (Index a : {1, 8, 40}) check(a, 30);  // prefixes: some swaps below cross their end
    check(2, 10);
    const auto swap = [&](Index i, Index j) {
        Q.swap_index(i, j);
        std::swap(var[static_cast<std::size_t>(i)], var[static_cast<std::size_t>(j)]);
    };
    for (Index t = 0, back = n - 1; t < 12; t += 2, back -= 3) swap(t, back);
    swap(25, 5);
    swap(9, 9);
    for (Index a = 0; a < n; a += 3) check(a, n);
    for (Index a : {1, 8, 40, 2}) check(a, 30);
    // A second run after columns were read and regrown in between.
    swap(0, 29);
    swap(31, 58);
    for (Index a = 0; a < n; ++a) check(a, a % 2 == 0 ? n : 35);
}


TEST_CASE("q matrix: a batch of swaps large enough to be shared by 2 threads gives the columns of 1 thread") {
    // 1100 cached columns (some of them prefixes) times 500 swaps is past the batch size at
    // which apply_pending_swaps uses the threads; prefixes that hold i but not j are dropped.
    const Index n = 1100;
    const DenseMatrix X = random_rows(n, 4, 21);
    const KernelRows rows{Features(X)};
    const Kernel k = rbf(X);
    const std::vector<std::int8_t> signs(static_cast<std::size_t>(n), 1);
    KernelQ one(rows, k, signs, 64.0, 1), two(rows, k, signs, 64.0, 2);
    for (Index a = 0; a < n; ++a) {
        one.column(a, a % 4 == 0 ? 600 : n);
        two.column(a, a % 4 == 0 ? 600 : n);
    }
    std::vector<Index> var(static_cast<std::size_t>(n));
    for (Index p = 0; p < n; ++p) var[static_cast<std::size_t>(p)] = p;
    for (Index t = 0, back = n - 1; t < 1000; t += 2, --back) {
        one.swap_index(t, back);
        two.swap_index(t, back);
        std::swap(var[static_cast<std::size_t>(t)], var[static_cast<std::size_t>(back)]);
    }
    for (Index a = 0; a < n; a += 7) {
        CAPTURE(a);
        const float* c1 = one.column(a, n);
        const float* c2 = two.column(a, n);
        bool same = true, right = true;
        for (Index b = 0; b < n; ++b) {
            same = same && c1[b] == c2[b];
            const auto expected = static_cast<float>(
                k(rows, var[static_cast<std::size_t>(a)], rows, var[static_cast<std::size_t>(b)]));
            right = right && c1[b] == expected;
        }
        CHECK(same);
        CHECK(right);
    }
}

TEST_CASE("q matrix: SvrQ columns follow swaps, and a column handed out again is still right") {
    const DenseMatrix X = random_rows(40, 3, 11);
    const KernelRows rows{Features(X)};
    const Kernel k = rbf(X);
    // A cache too small for more than two columns, so later requests recompute.
    SvrQ Q(rows, k, 1e-6, 1);
    const Index n = Q.size();
    REQUIRE(n == 80);
    std::vector<Index> var(static_cast<std::size_t>(n));
    for (Index p = 0; p < n; ++p) var[static_cast<std::size_t>(p)] = p;
    const auto swap = [&](Index i, Index j) {
        Q.swap_index(i, j);
        std::swap(var[static_cast<std::size_t>(i)], var[static_cast<std::size_t>(j)]);
    };
    check_column(Q, k, rows, var, 3, n);
    check_column(Q, k, rows, var, 3, 50);  // the same column again, a shorter prefix
    check_column(Q, k, rows, var, 45, n);  // α* of sample 5
    swap(3, 70);
    swap(10, 45);
    check_column(Q, k, rows, var, 3, n);  // the buffers held the old order
    check_column(Q, k, rows, var, 10, 60);
    CHECK(Q.diagonal()[3] == doctest::Approx(k(rows, 30, rows, 30)));

    // Two columns are held at a time: after i, j, i again and a third column, the
    // pointer to the second i is still valid (update_pair's pattern).
    const float* qi = Q.column(7, n);
    const std::vector<float> col_i(qi, qi + n);
    const float* qj = Q.column(12, n);
    const std::vector<float> col_j(qj, qj + n);
    const float* qi_again = Q.column(7, 40);
    CHECK(std::vector<float>(qj, qj + n) == col_j);
    const float* qk = Q.column(25, n);
    check_column(Q, k, rows, var, 25, n);
    CHECK(std::vector<float>(qi_again, qi_again + n) == col_i);
    (void)qk;
}

TEST_CASE("q matrix: SvrQ columns are the same with 1 and 2 threads") {
    // 3000 rows x 25 features: the kernel rows take the parallel path.
    const DenseMatrix X = random_rows(3000, 25, 12);
    const KernelRows rows{Features(X)};
    const Kernel k = rbf(X);
    SvrQ one(rows, k, 1.0, 1), two(rows, k, 1.0, 2);
    for (auto [i, j] : {std::pair<Index, Index>{5, 4000}, {100, 2999}, {3100, 17}}) {
        one.swap_index(i, j);
        two.swap_index(i, j);
    }
    for (Index a : {0, 5, 2999, 4000, 5999}) {
        CAPTURE(a);
        const float* c1 = one.column(a, 6000);
        const float* c2 = two.column(a, 6000);
        CHECK(std::vector<float>(c1, c1 + 6000) == std::vector<float>(c2, c2 + 6000));
    }
}

}  // TEST_SUITE

}  // namespace unit_svm_q_matrix_test
}  // namespace
