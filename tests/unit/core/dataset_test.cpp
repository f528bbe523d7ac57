#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/error.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_core_dataset_test {

using namespace kestrel;

namespace {

RawLabels labels(std::vector<std::string> text) {
    RawLabels l;
    l.source = "f.csv";
    for (std::size_t i = 0; i < text.size(); ++i) {
        char* end = nullptr;
        const double v = std::strtod(text[i].c_str(), &end);
        l.numeric.push_back(end && *end == '\0' && !text[i].empty() ? v : std::nan(""));
        l.line.push_back(i + 2);
    }
    l.text = std::move(text);
    return l;
}

}  // namespace

TEST_SUITE("core.dataset") {
    TEST_CASE("numeric class labels sort numerically, words lexicographically") {
        Dataset d;
        encode_classes(labels({"10", "2", "-1", "2"}), d);
        CHECK(d.classes == std::vector<std::string>{"-1", "2", "10"});
        CHECK(d.y[0] == 2);
        CHECK(d.y[1] == 1);
        CHECK(d.y[2] == 0);
        Dataset w;
        encode_classes(labels({"virginica", "setosa", "versicolor"}), w);
        CHECK(w.classes == std::vector<std::string>{"setosa", "versicolor", "virginica"});
        CHECK(w.y[0] == 2);
    }

    TEST_CASE("unknown labels at predict time become extra classes") {
        std::vector<std::string> classes{"a", "b"};
        const Vector y = encode_with_classes(labels({"b", "c", "a"}), classes);
        CHECK(classes == std::vector<std::string>{"a", "b", "c"});
        CHECK(y[0] == 1);
        CHECK(y[1] == 2);
        CHECK(y[2] == 0);
    }

    TEST_CASE("regression targets must be numbers; the error names file and line") {
        CHECK(numeric_targets(labels({"1.5", "-2"}), "f.csv")[1] == -2.0);
        CHECK_THROWS_WITH_AS(numeric_targets(labels({"1.5", "abc"}), "f.csv"),
                             "f.csv:3: regression target 'abc' is not a finite number", DataError);
    }

    TEST_CASE("subset keeps rows, targets and weights in order, dense and sparse") {
        DenseMatrix m(3, 2);
        m << 1, 2, 3, 4, 5, 6;
        Dataset d;
        d.X = m;
        d.y = Vector::LinSpaced(3, 0, 2);
        d.weights = Vector::Constant(3, 1.0);
        d.weights[2] = 7;
        const std::vector<Index> rows{2, 0};
        Dataset s = d.subset(rows);
        CHECK(s.X.dense_ref()(0, 1) == 6);
        CHECK(s.X.dense_ref()(1, 0) == 1);
        CHECK(s.y[0] == 2);
        CHECK(s.weights[0] == 7);

        SparseMatrix sp = m.sparseView();
        Features f(sp);
        Features fs = f.rows_subset(rows);
        CHECK(fs.is_sparse());
        CHECK(fs.to_dense() == s.X.dense_ref());
    }

    TEST_CASE("with_features keeps the rows' description and takes the new columns") {
        DenseMatrix m(2, 2);
        m << 1, 2, 3, 4;
        Dataset d;
        d.X = m;
        d.y = Vector::LinSpaced(2, 0, 1);
        d.weights = Vector::Constant(2, 3.0);
        d.qid = Vector::Constant(2, 9.0);
        d.classes = {"no", "yes"};
        d.task = Task::classification;
        d.source = "t.csv";
        d.label_column.name = "label";
        d.feature_names = {"a", "b"};
        DenseMatrix wider(2, 3);
        wider << 1, 2, 5, 3, 4, 6;
        const Dataset w = d.with_features(Features(wider));
        CHECK(w.X.dense_ref()(1, 2) == 6);
        CHECK(w.y == d.y);
        CHECK(w.weights == d.weights);
        CHECK(w.qid == d.qid);
        CHECK(w.classes == d.classes);
        CHECK(w.task == Task::classification);
        CHECK(w.source == "t.csv");
        CHECK(w.label_column.name == "label");
        CHECK(w.feature_names.empty());  // they named the old columns
    }

    TEST_CASE("with_cols pads sparse data with absent features") {
        DenseMatrix m(2, 2);
        m << 1, 0, 0, 2;
        Features f(SparseMatrix(m.sparseView()));
        Features wide = f.with_cols(4);
        CHECK(wide.cols() == 4);
        CHECK(wide.to_dense()(1, 1) == 2);
        CHECK(wide.to_dense()(1, 3) == 0);
    }

    TEST_CASE("products agree between dense and sparse storage") {
        DenseMatrix m(3, 3);
        m << 1, 0, 2, 0, 3, 0, 4, 0, 5;
        Features dense(m), sparse(SparseMatrix(m.sparseView()));
        Vector w(3);
        w << 1, -1, 2;
        CHECK((dense.multiply(w) - sparse.multiply(w)).norm() == 0.0);
        CHECK((dense.transpose_multiply(w) - sparse.transpose_multiply(w)).norm() == 0.0);
    }
}

TEST_SUITE("core.dataset") {
    TEST_CASE("moving sparse features keeps one buffer (no copy)") {
        SparseMatrix sp(3, 3);
        sp.insert(0, 1) = 2.0;
        sp.insert(2, 2) = 5.0;
        sp.makeCompressed();
        const double* values = sp.valuePtr();
        Features f(std::move(sp));
        CHECK(f.sparse_ref().valuePtr() == values);
        Features g(std::move(f));
        CHECK(g.sparse_ref().valuePtr() == values);
        Features h;
        h = std::move(g);
        CHECK(h.sparse_ref().valuePtr() == values);
        CHECK(h.to_dense()(2, 2) == 5.0);
        Features copy = h;  // copies stay copies
        CHECK(copy.sparse_ref().valuePtr() != values);
    }

    TEST_CASE("borrowed rows are read in place, never written, and owned by every copy") {
        std::vector<double> caller = {1, 2, 3, 4, 5, std::nan("")};  // 3 x 2, row-major
        const std::vector<double> before = caller;
        Features f = Features::borrowed(caller.data(), 3, 2);
        CHECK(f.is_borrowed());
        CHECK_FALSE(f.is_sparse());
        CHECK((f.rows() == 3 && f.cols() == 2));
        CHECK(f.dense_ref().data() == caller.data());  // no copy
        DenseMatrix scratch;
        CHECK(f.dense(scratch).data() == caller.data());
        CHECK(scratch.size() == 0);
        CHECK(f.dense_ref()(1, 1) == 4);
        CHECK(std::isnan(f.dense_ref()(2, 1)));  // NaN stays a missing cell
        CHECK(f.view().dense_ref().data() == caller.data());
        const Features moved = std::move(f);
        CHECK((moved.is_borrowed() && moved.dense_ref().data() == caller.data()));

        const Features copy = moved;  // a copy owns its values
        CHECK_FALSE(copy.is_borrowed());
        CHECK(copy.dense_ref().data() != caller.data());
        CHECK(copy.dense_ref().topRows(2) == moved.dense_ref().topRows(2));
        CHECK(std::isnan(copy.dense_ref()(2, 1)));

        Features written = moved.view();
        written.dense_mut()(0, 0) = 42;  // copy on write
        CHECK_FALSE(written.is_borrowed());
        CHECK(written.dense_ref()(0, 0) == 42);
        CHECK(std::memcmp(caller.data(), before.data(), caller.size() * sizeof(double)) == 0);  // NaN too
        Features own = moved.view();
        own.own();
        CHECK((!own.is_borrowed() && own.dense_ref().data() != caller.data()));
        CHECK(moved.rows_subset(std::vector<Index>{2, 0}).dense_ref()(1, 1) == 2);

        // view() of owned rows borrows them too; of sparse rows it copies.
        const Features owned(DenseMatrix(DenseMatrix::Ones(2, 2)));
        CHECK(owned.view().dense_ref().data() == owned.dense_ref().data());
        const Features sparse(SparseMatrix(DenseMatrix::Ones(2, 2).sparseView()));
        CHECK(sparse.view().is_sparse());
    }
}

}  // namespace unit_core_dataset_test
}  // namespace
