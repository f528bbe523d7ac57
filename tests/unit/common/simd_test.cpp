// common/simd: every path of each dispatched loop against the order simd.hpp documents
// (hand-computed sums whose value depends on that order), against each other bit for
// bit on random rows of every length up to 70 and some long ones (zeros, signed zeros
// and sparse-like rows included), and within the rounding bound of an exact sum.
#include <doctest/doctest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kestrel/common/simd.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

using namespace kestrel;

namespace {

std::vector<SimdPath> runnable_paths() {
    std::vector<SimdPath> out{SimdPath::generic};
    if (simd_supported(SimdPath::avx2)) out.push_back(SimdPath::avx2);
    return out;
}

// A row of random values; `zero_share` of the entries are 0 or -0 (sparse-like rows).
std::vector<double> random_row(Rng& rng, Index d, double zero_share) {
    std::vector<double> v(static_cast<std::size_t>(d));
    for (auto& x : v) {
        if (rng.uniform() < zero_share) x = rng.uniform() < 0.5 ? 0.0 : -0.0;
        else x = rng.normal() * std::pow(10.0, rng.uniform(-3, 3));
    }
    return v;
}

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

}  // namespace

TEST_SUITE("unit") {
    TEST_CASE("simd: dot follows the documented order on every path (hand-computed)") {
        for (SimdPath path : runnable_paths()) {
            CAPTURE(to_string(path));
            const auto dot = simd_loops(path).dot;
            // 1 + 2 + ... + d squared: integers, exact in any order.
            for (Index d : {0, 1, 3, 4, 5, 15, 16, 17, 33, 100}) {
                std::vector<double> a(static_cast<std::size_t>(d));
                for (Index c = 0; c < d; ++c) a[static_cast<std::size_t>(c)] = static_cast<double>(c + 1);
                CHECK(dot(a.data(), a.data(), d) == static_cast<double>(d * (d + 1) * (2 * d + 1) / 6));
            }
            // Element 16 joins partial sum 0 with element 0, where 1e16 + 1 rounds to 1e16
            // (its spacing is 2); element 8's -1e16 joins it only in the reduction: 0.
            // Summed left to right the result would be 1.
            std::vector<double> a(17, 0.0), ones(17, 1.0);
            a[0] = 1e16;
            a[8] = -1e16;
            a[16] = 1.0;
            CHECK(dot(a.data(), ones.data(), 17) == 0.0);
            // Four elements are u_0..u_3 themselves: (u_0 + u_2) + (u_1 + u_3) is
            // (1e16 - 1e16) + (1 + 0) = 1, where left to right, or (u_0 + u_1) + (u_2 + u_3),
            // would lose the 1 in 1e16 + 1 and give 0.
            const std::vector<double> b{1e16, 1.0, -1e16, 0.0};
            CHECK(dot(b.data(), ones.data(), 4) == 1.0);
        }
    }

    TEST_CASE("simd: every path of dot and dot_rows gives the same bits on random rows") {
        if (!simd_supported(SimdPath::avx2)) MESSAGE("this CPU has no AVX2: only the generic path is checked");
        Rng rng(23);
        std::vector<Index> lengths;
        for (Index d = 0; d <= 70; ++d) lengths.push_back(d);
        for (Index d : {127, 128, 129, 1000, 1023}) lengths.push_back(d);
        for (Index d : lengths) {
            CAPTURE(d);
            for (double zero_share : {0.0, 0.5, 0.95}) {
                const Index n = 7;
                const std::vector<double> x = random_row(rng, d, zero_share);
                const std::vector<double> rows = random_row(rng, n * d, zero_share);
                std::vector<double> want(static_cast<std::size_t>(n));
                simd_loops(SimdPath::generic).dot_rows(x.data(), rows.data(), n, d, want.data());
                for (Index j = 0; j < n; ++j) {
                    // dot_rows is dot row by row.
                    const double one = simd_loops(SimdPath::generic).dot(x.data(), rows.data() + j * d, d);
                    CHECK(bits(want[static_cast<std::size_t>(j)]) == bits(one));
                    // Within the rounding bound of the exact sum: |error| <= γ_d Σ|a_c b_c|.
                    long double exact = 0, mag = 0;
                    for (Index c = 0; c < d; ++c) {
                        const long double p = static_cast<long double>(x[static_cast<std::size_t>(c)]) *
                                              rows[static_cast<std::size_t>(j * d + c)];
                        exact += p;
                        mag += std::fabs(p);
                    }
                    const double gamma = static_cast<double>(d) * DBL_EPSILON / 2 / (1 - static_cast<double>(d) * DBL_EPSILON / 2);
                    CHECK(std::fabs(static_cast<double>(exact - one)) <= gamma * static_cast<double>(mag) + 1e-300);
                }
                for (SimdPath path : runnable_paths()) {
                    CAPTURE(to_string(path));
                    std::vector<double> got(static_cast<std::size_t>(n));
                    simd_loops(path).dot_rows(x.data(), rows.data(), n, d, got.data());
                    for (Index j = 0; j < n; ++j) {
                        CHECK(bits(got[static_cast<std::size_t>(j)]) == bits(want[static_cast<std::size_t>(j)]));
                        CHECK(bits(simd_loops(path).dot(x.data(), rows.data() + j * d, d)) ==
                              bits(want[static_cast<std::size_t>(j)]));
                    }
                }
            }
        }
    }

    TEST_CASE("simd: non-finite values propagate alike on every path") {
        std::vector<double> a(21, 1.0), b(21, 2.0);
        a[19] = INFINITY;  // in the tail, in the last partial sum register
        for (SimdPath path : runnable_paths()) {
            CAPTURE(to_string(path));
            CHECK(simd_loops(path).dot(a.data(), b.data(), 21) == INFINITY);
            b[3] = -INFINITY;
            CHECK(std::isnan(simd_loops(path).dot(a.data(), b.data(), 21)));
            b[3] = 2.0;
        }
    }

    TEST_CASE("simd: signed_gather is (s * sign[j]) * data[index[j]] on every path, bit for bit") {
        Rng rng(5);
        std::vector<float> data(300);
        for (float& x : data) x = static_cast<float>(rng.normal() * std::pow(10.0, rng.uniform(-3, 3)));
        data[7] = 0.0f;
        data[8] = -0.0f;
        for (const Index n : {0, 1, 7, 8, 9, 16, 23, 600}) {
            CAPTURE(n);
            std::vector<std::int32_t> index(static_cast<std::size_t>(n));
            std::vector<float> sign(static_cast<std::size_t>(n));
            for (Index j = 0; j < n; ++j) {
                index[static_cast<std::size_t>(j)] = static_cast<std::int32_t>(rng.below(300));
                // ±1 as the SVR's signs, and other scales too: the order of the two multiplies is the rule.
                sign[static_cast<std::size_t>(j)] = j % 5 == 4 ? static_cast<float>(rng.uniform(-3, 3)) : (j % 2 ? 1.0f : -1.0f);
            }
            for (const float s : {1.0f, -1.0f, 0.7f}) {
                std::vector<float> want(static_cast<std::size_t>(n));
                for (Index j = 0; j < n; ++j) {
                    const auto u = static_cast<std::size_t>(j);
                    want[u] = (s * sign[u]) * data[static_cast<std::size_t>(index[u])];
                }
                for (SimdPath path : runnable_paths()) {
                    CAPTURE(to_string(path));
                    std::vector<float> out(static_cast<std::size_t>(n), 99.0f);
                    simd_loops(path).signed_gather(data.data(), index.data(), sign.data(), s, n, out.data());
                    for (std::size_t j = 0; j < out.size(); ++j)
                        CHECK(std::bit_cast<std::uint32_t>(out[j]) == std::bit_cast<std::uint32_t>(want[j]));
                }
            }
        }
    }

    TEST_CASE("simd: the path in use is a supported one, and its loops are that path's") {
        CHECK(simd_supported(simd_path()));
        CHECK(simd_supported(SimdPath::generic));
        CHECK(&simd_loops() == &simd_loops(simd_path()));
        if (!simd_supported(SimdPath::avx2)) CHECK_THROWS_AS(simd_loops(SimdPath::avx2), InternalError);
    }
}
