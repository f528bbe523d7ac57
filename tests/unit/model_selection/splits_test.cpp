#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "command_error.hpp"
#include "kestrel/common/splits.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_model_selection_splits_test {

using namespace kestrel;

namespace {

// Every fold: sorted test and train, disjoint, together exactly 0..n-1; and the
// tests of all folds partition 0..n-1.
void check_partition(const std::vector<Fold>& folds, Index n) {
    std::vector<int> times_tested(static_cast<std::size_t>(n), 0);
    for (const auto& f : folds) {
        CHECK(std::is_sorted(f.test.begin(), f.test.end()));
        CHECK(std::is_sorted(f.train.begin(), f.train.end()));
        std::vector<Index> all;
        std::merge(f.test.begin(), f.test.end(), f.train.begin(), f.train.end(), std::back_inserter(all));
        REQUIRE(all.size() == static_cast<std::size_t>(n));
        for (Index i = 0; i < n; ++i) CHECK(all[static_cast<std::size_t>(i)] == i);  // disjoint and covering
        for (Index row : f.test) ++times_tested[static_cast<std::size_t>(row)];
    }
    for (int t : times_tested) CHECK(t == 1);
}

std::vector<int> class_counts(const Fold& f, const Vector& y, int n_classes) {
    std::vector<int> counts(static_cast<std::size_t>(n_classes), 0);
    for (Index row : f.test) ++counts[static_cast<std::size_t>(y[row])];
    return counts;
}

Vector labels(std::initializer_list<double> v) {
    Vector y(static_cast<Index>(v.size()));
    Index i = 0;
    for (double x : v) y[i++] = x;
    return y;
}

}  // namespace

TEST_SUITE("model_selection") {

TEST_CASE("kfold: sizes differ by at most one, larger folds first (as sklearn KFold)") {
    const auto folds = kfold(10, 3, 7);
    REQUIRE(folds.size() == 3);
    CHECK(folds[0].test.size() == 4);
    CHECK(folds[1].test.size() == 3);
    CHECK(folds[2].test.size() == 3);
    for (int i = 0; i < 3; ++i) {
        CHECK(folds[static_cast<std::size_t>(i)].index == i);
        CHECK(folds[static_cast<std::size_t>(i)].repeat == 0);
    }
    check_partition(folds, 10);
}

TEST_CASE("kfold: same seed same folds, other seed other folds, rows shuffled") {
    const auto a = kfold(40, 5, 123), b = kfold(40, 5, 123), c = kfold(40, 5, 124);
    bool all_equal_c = true, contiguous = true;
    for (std::size_t f = 0; f < a.size(); ++f) {
        CHECK(a[f].test == b[f].test);
        CHECK(a[f].train == b[f].train);
        all_equal_c = all_equal_c && a[f].test == c[f].test;
        contiguous = contiguous && a[f].test.back() - a[f].test.front() == 7;
    }
    CHECK_FALSE(all_equal_c);
    CHECK_FALSE(contiguous);  // unshuffled folds would be the blocks 0-7, 8-15, ...
}

TEST_CASE("kfold: leave-one-out when k == n") {
    const auto folds = kfold(4, 4, 1);
    REQUIRE(folds.size() == 4);
    for (const auto& f : folds) CHECK(f.test.size() == 1);
    check_partition(folds, 4);
}

TEST_CASE("kfold: k < 2 or k > n is a usage error naming -k") {
    CHECK_COMMAND_THROWS_WITH_AS(kfold(10, 1, 1), doctest::Contains("-k 1"), UsageError);
    CHECK_COMMAND_THROWS_WITH_AS(kfold(10, 0, 1), doctest::Contains("-k 0"), UsageError);
    CHECK_COMMAND_THROWS_WITH_AS(kfold(3, 4, 1), doctest::Contains("-k 4"), UsageError);
    CHECK_THROWS_AS(stratified_kfold(labels({0, 1, 0}), 2, 4, 1), UsageError);
    CHECK_THROWS_AS(stratified_kfold(labels({0, 1, 0}), 2, 1, 1), UsageError);
}

TEST_CASE("stratified_kfold: each class dealt evenly; exact per-fold counts") {
    // 7 rows of class 0, 5 of class 1, 3 of class 2, interleaved in the input.
    const Vector y = labels({0, 1, 2, 0, 1, 0, 0, 2, 1, 0, 1, 0, 2, 1, 0});
    const auto folds = stratified_kfold(y, 3, 4, 99);
    REQUIRE(folds.size() == 4);
    check_partition(folds, y.size());
    // Rows sorted by class and dealt round-robin (sklearn's allocation
    // bincount(y_sorted[i::k])): class 0 -> folds 0,1,2,3,0,1,2; class 1 -> 3,0,1,2,3;
    // class 2 -> 0,1,2.
    CHECK(class_counts(folds[0], y, 3) == std::vector<int>{2, 1, 1});
    CHECK(class_counts(folds[1], y, 3) == std::vector<int>{2, 1, 1});
    CHECK(class_counts(folds[2], y, 3) == std::vector<int>{2, 1, 1});
    CHECK(class_counts(folds[3], y, 3) == std::vector<int>{1, 2, 0});
    for (std::size_t f = 0; f < 4; ++f) CHECK(folds[f].test.size() == (f < 3 ? 4u : 3u));
}

TEST_CASE("stratified_kfold: per-class counts per fold differ by at most one; seed decides rows") {
    Vector y(103);
    for (Index i = 0; i < y.size(); ++i) y[i] = static_cast<double>((i * 7 + i / 5) % 4);
    const auto a = stratified_kfold(y, 4, 5, 2024);
    check_partition(a, y.size());
    for (int c = 0; c < 4; ++c) {
        int lo = 1 << 30, hi = 0;
        for (const auto& f : a) {
            const int count = class_counts(f, y, 4)[static_cast<std::size_t>(c)];
            lo = std::min(lo, count);
            hi = std::max(hi, count);
        }
        CHECK(hi - lo <= 1);
    }
    std::size_t lo = 1000, hi = 0;
    for (const auto& f : a) {
        lo = std::min(lo, f.test.size());
        hi = std::max(hi, f.test.size());
    }
    CHECK(hi - lo <= 1);

    const auto b = stratified_kfold(y, 4, 5, 2024), c = stratified_kfold(y, 4, 5, 2025);
    bool same_c = true;
    for (std::size_t f = 0; f < a.size(); ++f) {
        CHECK(a[f].test == b[f].test);
        same_c = same_c && a[f].test == c[f].test;
    }
    CHECK_FALSE(same_c);
}

TEST_CASE("stratified_kfold: a class smaller than k still gives a partition") {
    const Vector y = labels({0, 0, 0, 0, 0, 1});  // sklearn warns here; we proceed silently
    const auto folds = stratified_kfold(y, 2, 3, 5);
    check_partition(folds, 6);
    for (const auto& f : folds) CHECK(f.test.size() == 2);
}

TEST_CASE("repeated_kfold: repetitions use derived seeds and each is a partition") {
    Vector y(30);
    for (Index i = 0; i < 30; ++i) y[i] = static_cast<double>(i % 3);
    const auto folds = repeated_kfold(y, 3, 5, 3, 77);
    REQUIRE(folds.size() == 15);
    for (int r = 0; r < 3; ++r) {
        const std::vector<Fold> rep(folds.begin() + r * 5, folds.begin() + (r + 1) * 5);
        check_partition(rep, 30);
        const auto expected = stratified_kfold(y, 3, 5, derive_seed(77, static_cast<std::uint64_t>(r)));
        for (int f = 0; f < 5; ++f) {
            CHECK(rep[static_cast<std::size_t>(f)].repeat == r);
            CHECK(rep[static_cast<std::size_t>(f)].index == f);
            CHECK(rep[static_cast<std::size_t>(f)].test == expected[static_cast<std::size_t>(f)].test);
        }
    }
    CHECK(folds[0].test != folds[5].test);

    // n_classes == 0: plain k-fold on the row count.
    const auto plain = repeated_kfold(y, 0, 4, 2, 77);
    REQUIRE(plain.size() == 8);
    CHECK(plain[4].test == kfold(30, 4, derive_seed(77, 1))[0].test);
    CHECK_THROWS_AS(repeated_kfold(y, 3, 5, 0, 77), UsageError);
}

}  // TEST_SUITE

}  // namespace unit_model_selection_splits_test
}  // namespace
