// A scaler fitted on dense rows and handed the same rows sparse (a LIBSVM file read dense
// for training, sparse by kestrel-predict): it densifies them and gives the dense rows'
// values bit for bit. A scaler fitted on sparse rows keeps refusing a centring.
#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/preprocess/transformer.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_preprocess_scaler_sparse_rows_test {

using namespace kestrel;

namespace {

// Three rows, two columns; the zeros are what a sparse file leaves absent.
DenseMatrix rows() {
    DenseMatrix m(3, 2);
    m << 1, 0, 0, 4, 3, 2;
    return m;
}

}  // namespace

TEST_SUITE("preprocess") {
    TEST_CASE("standard and minmax fitted on dense rows: sparse rows give the dense rows' values") {
        const DenseMatrix dense = rows();
        const SparseMatrix sparse = dense.sparseView();
        for (const char* kind : {"standard", "minmax"}) {
            CAPTURE(kind);
            auto t = make_transformer(kind);
            t->fit(Features(dense));
            const Features a = t->transform(Features(dense));
            const Features b = t->transform(Features(sparse));
            REQUIRE_FALSE(b.is_sparse());
            CHECK(a.dense_ref() == b.dense_ref());
            // Through the model file too (minmax records that it was fitted dense).
            auto loaded = transformer_from_json(t->to_json());
            CHECK(loaded->transform(Features(sparse)).dense_ref() == a.dense_ref());
        }
        // Hand-computed: column 0 has mean 4/3 and population sd sqrt(14/9); row 1's
        // absent 0 becomes (0 - 4/3) / sqrt(14/9) = -4/sqrt(14).
        auto s = make_transformer("standard");
        s->fit(Features(rows()));
        CHECK(s->transform(Features(SparseMatrix(rows().sparseView()))).dense_ref()(1, 0) ==
              doctest::Approx(-4.0 / std::sqrt(14.0)));
        // minmax maps column 1's [0, 4] to [-1, 1]: row 0's absent 0 is -1.
        auto mm = make_transformer("minmax");
        mm->fit(Features(rows()));
        CHECK(mm->transform(Features(SparseMatrix(rows().sparseView()))).dense_ref()(0, 1) == -1.0);
    }

    TEST_CASE("a scaler fitted on sparse rows: standard only rescales, minmax refuses to centre") {
        const SparseMatrix sparse = rows().sparseView();
        auto s = make_transformer("standard");
        s->fit(Features(sparse));
        CHECK(s->transform(Features(sparse)).is_sparse());
        auto mm = make_transformer("minmax");
        mm->fit(Features(sparse));
        CHECK_THROWS_AS((void)mm->transform(Features(sparse)), UsageError);
        // A minmax step from an older file (no fitted_dense) refuses as before.
        auto fitted = make_transformer("minmax");
        fitted->fit(Features(rows()));
        Json j = fitted->to_json();
        j.erase("fitted_dense");
        CHECK_THROWS_AS((void)transformer_from_json(j)->transform(Features(sparse)), UsageError);
    }
}

}  // namespace unit_preprocess_scaler_sparse_rows_test
}  // namespace
