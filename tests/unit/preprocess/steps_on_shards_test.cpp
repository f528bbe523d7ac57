// The preprocessing steps fitted on rows spread over MPI ranks (Transformer::fit_on_shards,
// kestrel-train --shard) take the one-process fit's decisions: the same moments, the same
// fallbacks for columns whose squares overflow or underflow, NaN skipped, a sparse row's
// absent entries counted as zeros. A one-rank group stands in for MPI here, so every
// branch is compared with fit() to 1e-12 relative per number; the multi-rank runs (where
// the sums are split) are in tests/cli/mpi_shard_test.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "kestrel/preprocess/transformer.hpp"
#include "one_rank_group.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_preprocess_steps_on_shards_test {

using namespace kestrel;

namespace {

// The largest relative difference between two steps' JSON numbers (same shape).
double step_difference(const Json& a, const Json& b) {
    if (a.is_number() && b.is_number()) {
        const double u = a.get<double>(), v = b.get<double>();
        if (u == v) return 0;
        return std::abs(u - v) / std::max(std::abs(u), std::abs(v));
    }
    REQUIRE(a.type() == b.type());
    REQUIRE(a.size() == b.size());
    double worst = 0;
    if (a.is_object()) {
        for (auto it = a.begin(); it != a.end(); ++it) worst = std::max(worst, step_difference(it.value(), b.at(it.key())));
    } else if (a.is_array()) {
        for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, step_difference(a[i], b[i]));
    } else {
        CHECK(a == b);
    }
    return worst;
}

// Columns: ordinary; huge (squares overflow); tiny and varying (squares underflow);
// constant; tiny and constant.
DenseMatrix awkward_rows() {
    DenseMatrix m(6, 5);
    for (Index i = 0; i < m.rows(); ++i) {
        const double t = static_cast<double>(i);
        m(i, 0) = 3.5 + 1.25 * t - 0.5 * t * t;
        m(i, 1) = (1 + 0.1 * t) * 1e300;
        m(i, 2) = (2 + t) * 1e-300;
        m(i, 3) = 5.0;
        m(i, 4) = 7e-301;
    }
    return m;
}

}  // namespace

TEST_SUITE("preprocess") {
    TEST_CASE("fit_on_shards equals fit: standard, minmax, mean and constant imputation, poly") {
        test::OneRank group;
        test::GroupScope scope(&group);
        const DenseMatrix plain = awkward_rows();
        DenseMatrix holes = plain.leftCols(1);
        holes.conservativeResize(Eigen::NoChange, 3);
        holes.col(1) << 1, std::nan(""), 4, 2, std::nan(""), 8;
        holes.col(2).setConstant(std::numeric_limits<double>::quiet_NaN());  // no value at all
        DenseMatrix partly = plain;
        partly(2, 0) = 0;  // a zero stored or not: sparse rows leave it absent
        const std::vector<Features> inputs = {Features(plain), Features(holes), Features(SparseMatrix(partly.sparseView())),
                                              Features(SparseMatrix(plain.leftCols(3).sparseView()))};
        const std::vector<std::string> kinds = {"standard", "minmax", "impute:mean,indicator", "impute:constant=3,indicator",
                                                "poly:degree=2"};
        for (std::size_t k = 0; k < inputs.size(); ++k) {
            const Features& X = inputs[k];
            for (const std::string& kind : kinds) {
                CAPTURE(k);
                CAPTURE(kind);
                auto one = make_transformer(kind), shards = make_transformer(kind);
                REQUIRE(shards->fits_on_shards());
                // With roles (numeric, and one indicator column the scalers leave alone) and without.
                for (const bool with_roles : {false, true}) {
                    CAPTURE(with_roles);
                    std::vector<Index> roles;
                    if (with_roles) {
                        roles.assign(static_cast<std::size_t>(X.cols()), kNumericColumn);
                        roles.back() = kIndicatorColumn;
                    }
                    one->fit(X, roles);
                    shards->fit_on_shards(X, roles);
                    CHECK(step_difference(shards->to_json(), one->to_json()) < 1e-12);
                }
            }
        }
        // The fallbacks are taken (the test has teeth): the huge column gets a finite scale,
        // the tiny varying one a scale near 1e300, the constant ones 1.
        auto s = make_transformer("standard");
        s->fit_on_shards(Features(plain), {});
        const auto scale = s->to_json().at("scale").get<std::vector<double>>();
        CHECK(scale[1] > 0);
        CHECK(scale[1] < 1e-299);
        CHECK(scale[2] > 1e299);
        CHECK(scale[3] == 1.0);
        CHECK(scale[4] == 1.0);
    }

    TEST_CASE("fit_on_shards equals fit for the median, to the bit: odd and even counts, NaN, signs, extremes") {
        test::OneRank group;
        test::GroupScope scope(&group);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        DenseMatrix m(7, 5);
        // odd count; even count (two middles averaged); negatives and huge magnitudes; all
        // missing but one; ties at the middle.
        m << 3, 1, -1e300, nan, 2,   //
            -7, 4, 5e-310, nan, 2,   //
            0.5, nan, -2.5, nan, 2,  //
            11, 8, 1e300, 4.25, 9,   //
            2, 16, -0.0, nan, -1,    //
            -1, 2, 3, nan, 2,        //
            9, 32, -4, nan, 7;
        for (const char* kind : {"impute:median", "impute:median,indicator"}) {
            CAPTURE(kind);
            auto one = make_transformer(kind), many = make_transformer(kind);
            one->fit(Features(m), {});
            many->fit_on_shards(Features(m), {});
            CHECK(many->to_json() == one->to_json());
        }
        auto fitted = make_transformer("impute:median");
        fitted->fit_on_shards(Features(m), {});
        const auto fill = fitted->to_json().at("fill").get<std::vector<double>>();
        CHECK(fill[0] == 2.0);    // -7 -1 0.5 2 3 9 11
        CHECK(fill[1] == 6.0);    // 1 2 4 8 16 32: (4 + 8) / 2
        CHECK(fill[3] == 4.25);   // the one value
        CHECK(fill[4] == 2.0);
    }

    TEST_CASE("fit_on_shards equals fit for most_frequent and one-hot: ties, signed zeros, categories") {
        test::OneRank group;
        test::GroupScope scope(&group);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        // Columns: numbers with a tie of counts (2.5 and 7, twice each: the smaller wins);
        // −0 and +0 (one value of count 3, named −0, the first of the doubles' order); a
        // categorical column of 4 categories (codes 1 and 3 tie; code 0 never seen);
        // every cell missing.
        DenseMatrix m(7, 4);
        m << 7, 0.0, 3, nan,  //
            2.5, -0.0, 1, nan,  //
            nan, 1, 1, nan,     //
            7, 0.0, nan, nan,   //
            2.5, 5, 3, nan,     //
            9, nan, 2, nan,     //
            nan, 5, nan, nan;
        const std::vector<Index> roles = {kNumericColumn, kNumericColumn, 4, kNumericColumn};
        for (const char* kind : {"impute:most_frequent", "impute:most_frequent,indicator", "impute:median", "impute:mean",
                                 "onehot", "onehot:max_categories=2", "onehot:min_frequency=2", "onehot:min_frequency=0.3,sparse"}) {
            CAPTURE(kind);
            auto one = make_transformer(kind), many = make_transformer(kind);
            REQUIRE(many->fits_on_shards());
            one->fit(Features(m), roles);
            many->fit_on_shards(Features(m), roles);
            CHECK(many->to_json() == one->to_json());
        }
        auto fitted = make_transformer("impute:most_frequent");
        fitted->fit_on_shards(Features(m), roles);
        const auto fill = fitted->to_json().at("fill").get<std::vector<double>>();
        CHECK(fill[0] == 2.5);
        CHECK(fill[1] == 0.0);
        CHECK(std::signbit(fill[1]));
        CHECK(fill[2] == 1.0);  // codes 1 and 3 seen twice each: the first category
        CHECK(fill[3] == 0.0);  // no value: 0, as fit
        // The median imputer fills a categorical column with its most frequent category too.
        auto median = make_transformer("impute:median");
        median->fit_on_shards(Features(m), roles);
        CHECK(median->to_json().at("fill")[2] == 1.0);
        // max_categories=2: code 3 (count 2, the later of the tie with code 1) keeps its own
        // column; codes 1 and 2 share the infrequent one.
        auto capped = make_transformer("onehot:max_categories=2");
        capped->fit_on_shards(Features(m), roles);
        CHECK(capped->to_json().at("columns")[0].at("slot") == Json::array({-1, 1, 1, 0}));
    }
}

}  // namespace unit_preprocess_steps_on_shards_test
}  // namespace
