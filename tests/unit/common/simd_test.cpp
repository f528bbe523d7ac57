// common/simd: every path of each dispatched loop against the order simd.hpp documents
// (hand-computed sums whose value depends on that order), against each other bit for
// bit on random rows of every length up to 70 and some long ones (zeros, signed zeros
// and sparse-like rows included), and within the rounding bound of an exact sum.
#include <doctest/doctest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kestrel/common/simd.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_common_simd_test {

using namespace kestrel;

namespace {

std::vector<SimdPath> runnable_paths() {
    std::vector<SimdPath> out{SimdPath::generic};
    if (simd_supported(SimdPath::avx2)) out.push_back(SimdPath::avx2);
    if (simd_supported(SimdPath::avx512)) out.push_back(SimdPath::avx512);
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

    TEST_CASE("simd: every path of add_weighted_rows gives the running sums of the rows in order") {
        if (!simd_supported(SimdPath::avx2)) MESSAGE("this CPU has no AVX2: only the generic path is checked");
        Rng rng(29);
        for (Index d : {0, 1, 3, 4, 5, 7, 16, 20, 31, 32, 33, 35, 50, 64, 67, 130}) {
            CAPTURE(d);
            for (Index n : {0, 1, 5, 70}) {
                CAPTURE(n);
                const std::vector<double> a = random_row(rng, n, 0.2);
                const std::vector<double> rows = random_row(rng, n * d, 0.3);
                const std::vector<double> start = random_row(rng, d, 0.0);
                // The definition: each column a running sum over the rows, product then add.
                std::vector<double> want = start;
                for (Index j = 0; j < n; ++j)
                    for (Index c = 0; c < d; ++c) {
                        const double p = a[static_cast<std::size_t>(j)] * rows[static_cast<std::size_t>(j * d + c)];
                        want[static_cast<std::size_t>(c)] = want[static_cast<std::size_t>(c)] + p;
                    }
                for (SimdPath path : runnable_paths()) {
                    CAPTURE(to_string(path));
                    std::vector<double> got = start;
                    simd_loops(path).add_weighted_rows(a.data(), rows.data(), n, d, got.data());
                    for (Index c = 0; c < d; ++c)
                        CHECK(bits(got[static_cast<std::size_t>(c)]) == bits(want[static_cast<std::size_t>(c)]));
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

    TEST_CASE("simd: exp_inplace is within 2 ulp of exp and gives the same bits on every path") {
        Rng rng(3);
        std::vector<double> x;
        for (int k = 0; k < 5000; ++k) x.push_back(rng.uniform(-709.78, 709.78));
        for (int k = 0; k < 2000; ++k) x.push_back(rng.uniform(-1, 1) * std::pow(10.0, rng.uniform(-12, 0)));
        for (double v : {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 709.0, -709.0, 1e-300, -1e-300}) x.push_back(v);
        double worst = 0;
        for (const Index n : {Index{0}, Index{1}, Index{3}, Index{4}, Index{5}, static_cast<Index>(x.size())}) {
            CAPTURE(n);
            std::vector<std::vector<double>> got;
            for (SimdPath path : runnable_paths()) {
                std::vector<double> v(x.begin(), x.begin() + n);
                simd_loops(path).exp_inplace(v.data(), n);
                got.push_back(v);
            }
            for (std::size_t p = 1; p < got.size(); ++p)
                for (Index j = 0; j < n; ++j) CHECK(bits(got[p][static_cast<std::size_t>(j)]) == bits(got[0][static_cast<std::size_t>(j)]));
            for (Index j = 0; j < n; ++j) {
                const double want = std::exp(x[static_cast<std::size_t>(j)]);
                const double ulp = std::nextafter(want, INFINITY) - want;
                worst = std::max(worst, std::abs(got[0][static_cast<std::size_t>(j)] - want) / ulp);
            }
        }
        CHECK(worst <= 2.0);
        // exp(0) is 1 exactly; the documented edges.
        for (SimdPath path : runnable_paths()) {
            CAPTURE(to_string(path));
            std::vector<double> v = {0.0, INFINITY, -INFINITY, NAN, 800.0, -800.0};
            simd_loops(path).exp_inplace(v.data(), static_cast<Index>(v.size()));
            CHECK(v[0] == 1.0);
            CHECK(v[1] == INFINITY);
            const double floor_value = std::exp(-709.784);
            CHECK(v[2] == doctest::Approx(floor_value).epsilon(1e-12));
            CHECK(std::isnan(v[3]));
            CHECK(v[4] == INFINITY);  // past log(DBL_MAX) = 709.78, as exp
            CHECK(v[5] == v[2]);
        }
    }

    TEST_CASE("simd: SMO's gradient update is G + (Qi·dai + Qj·daj), bit for bit on every path") {
        Rng rng(9);
        for (const Index n : {0, 1, 3, 4, 5, 9, 100, 1003}) {
            CAPTURE(n);
            const auto u = static_cast<std::size_t>(n);
            std::vector<double> G(u);
            std::vector<float> Qi(u), Qj(u);
            for (std::size_t k = 0; k < u; ++k) {
                G[k] = rng.normal() * std::pow(10.0, rng.uniform(-3, 3));
                Qi[k] = static_cast<float>(rng.uniform(-1, 1));
                Qj[k] = static_cast<float>(rng.uniform(-1, 1));
            }
            const double dai = 0.1234567, daj = -3.3e-4;
            std::vector<double> want = G;
            for (std::size_t k = 0; k < u; ++k) {
                const double step = static_cast<double>(Qi[k]) * dai + static_cast<double>(Qj[k]) * daj;
                want[k] = G[k] + step;
            }
            for (SimdPath path : runnable_paths()) {
                CAPTURE(to_string(path));
                std::vector<double> got = G;
                simd_loops(path).smo_gradient_update(got.data(), Qi.data(), Qj.data(), dai, daj, n);
                for (std::size_t k = 0; k < u; ++k) CHECK(bits(got[k]) == bits(want[k]));
            }
        }
        // By hand: 1 + (0.5·2 + 0.25·(-4)) = 1.
        std::vector<double> g = {1.0};
        const std::vector<float> qi = {0.5f}, qj = {0.25f};
        for (SimdPath path : runnable_paths()) {
            g = {1.0};
            simd_loops(path).smo_gradient_update(g.data(), qi.data(), qj.data(), 2.0, -4.0, 1);
            CHECK(g[0] == 1.0);
        }
    }

    TEST_CASE("simd: SMO's selection passes on a hand-worked problem, ties to the later variable") {
        // t: y, status, G -> in I_up (value -yG) / in I_low (yG)
        // 0: +1 free   G -1   -> up 1   / low -1;  1: -1 upper G 3   -> up 3 / -
        // 2: +1 lower  G -3   -> up 3   / -     ;  3: -1 free  G 0.5 -> up 0.5 / low -0.5
        // 4: +1 upper  G -1   -> -      / low -1
        // i: 3 at t = 1 and t = 2, the later: 2 (gmax 3). j against i = 2 (qd_i 1, 2y_i = 2),
        // QD = 1, Q_2t = (0.5, 0.25, 1, 0.75, 0.5): t = 0: diff 3 - 1 = 2, a = 2 - 1 = 1,
        // obj -4; t = 3: diff 3 - 0.5 = 2.5, a = 2 + 1.5, obj -6.25 / 3.5; t = 4: diff 2,
        // a = 1, obj -4, a tie with t = 0: the later, 4. gmax2 = max(-1, -0.5, -1) = -0.5.
        const std::vector<double> G = {-1, 3, -3, 0.5, -1}, QD = {1, 1, 1, 1, 1};
        const std::vector<std::int8_t> y = {1, -1, 1, -1, 1}, status = {2, 1, 0, 2, 1};
        const std::vector<float> Qi = {0.5f, 0.25f, 1.0f, 0.75f, 0.5f};
        for (SimdPath path : runnable_paths()) {
            CAPTURE(to_string(path));
            const SmoPickI i = simd_loops(path).smo_pick_i(G.data(), y.data(), status.data(), 5);
            CHECK(i.at == 2);
            CHECK(i.value == 3.0);
            const SmoPickJ j =
                simd_loops(path).smo_pick_j(G.data(), y.data(), status.data(), QD.data(), Qi.data(), 5, 3.0, 1.0, 2.0);
            CHECK(j.at == 4);
            CHECK(j.obj == -4.0);
            CHECK(j.gmax2 == -0.5);
            // Nothing in I_up or I_low: the empty picks.
            const std::vector<std::int8_t> all_upper_pos = {1, 1, 1, 1, 1}, ones = {1, 1, 1, 1, 1};
            const SmoPickI none = simd_loops(path).smo_pick_i(G.data(), ones.data(), all_upper_pos.data(), 5);
            CHECK(none.at == -1);
            CHECK(none.value == -INFINITY);
        }
    }

    TEST_CASE("simd: SMO's selection passes give the same pair and bits on every path (random, with ties)") {
        Rng rng(11);
        for (const Index n : {0, 1, 3, 4, 5, 8, 13, 64, 67, 1001}) {
            CAPTURE(n);
            const auto u = static_cast<std::size_t>(n);
            std::vector<double> G(u), QD(u);
            std::vector<float> Qi(u);
            std::vector<std::int8_t> y(u), status(u);
            for (std::size_t t = 0; t < u; ++t) {
                // Few distinct values so that ties (and signed zeros) happen often.
                const double pool[] = {0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 3.0};
                G[t] = rng.uniform() < 0.5 ? pool[rng.below(7)] : rng.normal();
                QD[t] = rng.uniform() < 0.2 ? 0.0 : rng.uniform(0.1, 2);
                Qi[t] = static_cast<float>(rng.uniform() < 0.3 ? 1.0 : rng.uniform(-1, 1));
                y[t] = rng.uniform() < 0.5 ? 1 : -1;
                status[t] = static_cast<std::int8_t>(rng.below(3));
            }
            // The definition, written out once more here.
            double want_value = -INFINITY;
            Index want_i = -1;
            for (Index t = 0; t < n; ++t) {
                const auto k = static_cast<std::size_t>(t);
                if (y[k] == 1 ? status[k] == 1 : status[k] == 0) continue;
                const double v = y[k] == 1 ? -G[k] : G[k];
                if (v >= want_value) want_value = v, want_i = t;
            }
            for (SimdPath path : runnable_paths()) {
                CAPTURE(to_string(path));
                const SmoPickI i = simd_loops(path).smo_pick_i(G.data(), y.data(), status.data(), n);
                CHECK(i.at == want_i);
                CHECK(bits(i.value) == bits(want_value));
            }
            if (want_i < 0) continue;
            const double gmax = want_value, qd_i = QD[static_cast<std::size_t>(want_i)],
                         two_yi = 2.0 * y[static_cast<std::size_t>(want_i)];
            double want_gmax2 = -INFINITY, want_obj = INFINITY;
            Index want_j = -1;
            for (Index t = 0; t < n; ++t) {
                const auto k = static_cast<std::size_t>(t);
                if (y[k] == 1 ? status[k] == 0 : status[k] == 1) continue;
                want_gmax2 = std::max(want_gmax2, y[k] == 1 ? G[k] : -G[k]);
                const double diff = y[k] == 1 ? gmax + G[k] : gmax - G[k];
                if (!(diff > 0)) continue;
                const double sum = qd_i + QD[k], p = two_yi * static_cast<double>(Qi[k]);
                const double a = y[k] == 1 ? sum - p : sum + p;
                const double obj = -(diff * diff) / (a > 0 ? a : 1e-12);
                if (obj <= want_obj) want_obj = obj, want_j = t;
            }
            for (SimdPath path : runnable_paths()) {
                CAPTURE(to_string(path));
                const SmoPickJ j = simd_loops(path).smo_pick_j(G.data(), y.data(), status.data(), QD.data(), Qi.data(),
                                                               n, gmax, qd_i, two_yi);
                CHECK(j.at == want_j);
                CHECK(bits(j.obj) == bits(want_obj));
                CHECK(j.gmax2 == want_gmax2);  // its sign of zero never matters (it is added to gmax)
            }
        }
    }

    TEST_CASE("simd: the path in use is a supported one, and its loops are that path's") {
        CHECK(simd_supported(simd_path()));
        CHECK(simd_supported(SimdPath::generic));
        CHECK(&simd_loops() == &simd_loops(simd_path()));
        if (!simd_supported(SimdPath::avx2)) CHECK_THROWS_AS(simd_loops(SimdPath::avx2), InternalError);
        if (!simd_supported(SimdPath::avx512)) CHECK_THROWS_AS(simd_loops(SimdPath::avx512), InternalError);
        // AVX-512 needs what AVX2 needs (it runs AVX2's loops); only it walks level tables.
        if (simd_supported(SimdPath::avx512)) CHECK(simd_supported(SimdPath::avx2));
        for (SimdPath path : runnable_paths()) {
            CAPTURE(to_string(path));
            const SimdLoops& loops = simd_loops(path);
            CHECK((loops.walk_levels != nullptr) == (path == SimdPath::avx512));
            CHECK((loops.walk_levels_rows != nullptr) == (path == SimdPath::avx512));
        }
        CHECK(std::string(to_string(SimdPath::avx512)) == "avx512");
    }

    // The level tables' walk against a row-by-row reading of simd.hpp's WalkLevels, on
    // random tables of every depth (NaN either way, ties, ±0, ±inf, dummy +inf nodes) and
    // row counts around the vectors of 8 and the chunks of 512; the row-offset form too.
    TEST_CASE("simd: walk_levels and walk_levels_rows reach the position the tables' rule gives") {
        if (!simd_supported(SimdPath::avx512)) {
            MESSAGE("this CPU has no AVX-512: walk_levels not checked (no other path has it)");
            return;
        }
        const SimdLoops& loops = simd_loops(SimdPath::avx512);
        Rng rng(71);
        const double values[] = {-1.5, -0.0, 0.0, 0.25, 1.0, std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()};
        const Index d = 6, stride = 9;
        for (int depth = 1; depth <= kWalkLevels; ++depth) {
            CAPTURE(depth);
            std::vector<double> threshold(static_cast<std::size_t>(kWalkLevelOffset[kWalkLevels]));
            std::vector<std::int32_t> key(threshold.size());
            for (std::size_t e = 0; e < threshold.size(); ++e) {
                threshold[e] = rng.uniform() < 0.1 ? std::numeric_limits<double>::infinity() : values[rng.below(7)];
                key[e] = 2 * static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(d))) + (rng.uniform() < 0.5 ? 1 : 0);
            }
            std::vector<std::int32_t> bottom(std::size_t{1} << depth);
            for (std::int32_t& b : bottom) b = static_cast<std::int32_t>(rng.below(1000));
            const WalkLevels levels{threshold.data(), key.data(), bottom.data(), depth};
            for (Index n : {1, 7, 8, 9, 64, 511, 512, 513, 1030}) {
                CAPTURE(n);
                std::vector<double> x(static_cast<std::size_t>(n * stride));
                for (double& v : x) v = values[rng.below(8)];
                std::vector<std::int32_t> want(static_cast<std::size_t>(n));
                for (Index r = 0; r < n; ++r) {
                    std::size_t p = 0;
                    for (int l = 0; l < depth; ++l) {
                        const std::size_t e = static_cast<std::size_t>(kWalkLevelOffset[l]) + p;
                        const double v = x[static_cast<std::size_t>(r * stride + key[e] / 2)];
                        const bool left = v <= threshold[e] || (std::isnan(v) && key[e] % 2 == 1);
                        p = 2 * p + (left ? 0 : 1);
                    }
                    want[static_cast<std::size_t>(r)] = bottom[p];
                }
                std::vector<std::int32_t> at(static_cast<std::size_t>(n) + 1, -1);
                loops.walk_levels(levels, x.data(), stride, n, at.data());
                CHECK(at.back() == -1);
                at.pop_back();
                CHECK(at == want);
                // The rows in reverse order, by their offsets.
                std::vector<std::int64_t> offsets(static_cast<std::size_t>(n));
                for (Index i = 0; i < n; ++i) offsets[static_cast<std::size_t>(i)] = (n - 1 - i) * stride;
                std::vector<std::int32_t> out(static_cast<std::size_t>(n) + 1, -1);
                loops.walk_levels_rows(levels, x.data(), offsets.data(), n, out.data());
                CHECK(out.back() == -1);
                int wrong = 0;
                for (Index i = 0; i < n; ++i) wrong += out[static_cast<std::size_t>(i)] != want[static_cast<std::size_t>(n - 1 - i)];
                CHECK(wrong == 0);
            }
        }
    }
}

}  // namespace unit_common_simd_test
}  // namespace
