// The LIBSVM reader on inline fixtures: sparse rows, comments, labels, policies,
// and errors located at file:line:token (the label is token 1).
#include <cmath>

#include "io_test_util.hpp"
#include "kestrel/io/libsvm_format.hpp"

using namespace kestrel;
using io_test::row_of;

namespace {

Table read_svm(std::string_view text, const ReadOptions& opts = {}) {
    return read_libsvm(text, "t.libsvm", opts);
}

std::string svm_error(std::string_view text, const ReadOptions& opts = {}) {
    try {
        read_libsvm(text, "t.libsvm", opts);
    } catch (const DataError& e) {
        return e.what();
    }
    return "<no error>";
}

}  // namespace

TEST_SUITE("io") {

TEST_CASE("libsvm: sparse rows, width from the highest index, labels as read") {
    const Table t = read_svm("1 1:0.5 3:-2\n-1 2:1e-3\n");
    REQUIRE(t.X.is_sparse());
    const SparseMatrix& X = t.X.sparse_ref();
    CHECK(X.rows() == 2);
    CHECK(X.cols() == 3);
    CHECK(X.nonZeros() == 3);
    CHECK(X.coeff(0, 0) == 0.5);
    CHECK(X.coeff(0, 2) == -2);
    CHECK(X.coeff(1, 1) == 1e-3);
    CHECK(X.coeff(1, 0) == 0);
    CHECK(t.labels->text == std::vector<std::string>{"1", "-1"});
    CHECK(t.labels->numeric == std::vector<double>{1, -1});
    CHECK(t.labels->line == std::vector<std::uint64_t>{1, 2});
    CHECK(t.feature_names.empty());
    CHECK(t.source == "t.libsvm");
}

TEST_CASE("libsvm: comments, blank lines, tabs, repeated spaces and CRLF") {
    const Table t = read_svm("\xEF\xBB\xBF# a comment: 1:2\n\n+1\t1:1   4:2 # trailing 5:5\r\n  \n0 2:3\r\n");
    const SparseMatrix& X = t.X.sparse_ref();
    CHECK(X.rows() == 2);
    CHECK(X.cols() == 4);
    CHECK(row_of(t, 0) == std::vector<double>{1, 0, 0, 2});
    CHECK(row_of(t, 1) == std::vector<double>{0, 3, 0, 0});
    CHECK(t.labels->text == std::vector<std::string>{"+1", "0"});
    CHECK(t.labels->numeric == std::vector<double>{1, 0});
    CHECK(t.labels->line == std::vector<std::uint64_t>{3, 5});
}

TEST_CASE("libsvm: a line with only a label is an all-zero row; string labels") {
    const Table t = read_svm("cat\ndog 2:1\n");
    CHECK(t.X.rows() == 2);
    CHECK(t.X.sparse_ref().outerIndexPtr()[1] == 0);
    CHECK(row_of(t, 1) == std::vector<double>{0, 1});
    CHECK(t.labels->text == std::vector<std::string>{"cat", "dog"});
    CHECK(std::isnan(t.labels->numeric[0]));
}

TEST_CASE("libsvm: expected_features sets the width") {
    ReadOptions opts;
    opts.expected_features = 5;
    CHECK(read_svm("1 1:1\n", opts).X.cols() == 5);
    CHECK(svm_error("1 1:1 6:2\n", opts) == "t.libsvm:1:3: feature index 6 is beyond the model's 5 features");
}

TEST_CASE("libsvm: NaN values kept or rows dropped") {
    ReadOptions keep;
    keep.missing = MissingPolicy::keep;
    const Table k = read_svm("1 1:nan 2:3\n", keep);
    CHECK(std::isnan(k.X.sparse_ref().coeff(0, 0)));
    CHECK(k.X.sparse_ref().coeff(0, 1) == 3);

    ReadOptions drop;
    drop.missing = MissingPolicy::drop;
    const Table d = read_svm("1 1:1\n2 1:NaN 2:2\n3 2:?\n4 3:4\n", drop);
    const SparseMatrix& X = d.X.sparse_ref();
    CHECK(X.rows() == 2);
    CHECK(X.cols() == 3);
    CHECK(X.nonZeros() == 2);
    CHECK(row_of(d, 0) == std::vector<double>{1, 0, 0});
    CHECK(row_of(d, 1) == std::vector<double>{0, 0, 4});
    CHECK(d.labels->text == std::vector<std::string>{"1", "4"});
    CHECK(d.labels->line == std::vector<std::uint64_t>{1, 4});
    CHECK(d.dropped_rows == 2);
}

TEST_CASE("libsvm errors: indices, tokens, values and labels") {
    CHECK(svm_error("1 0:1\n") == "t.libsvm:1:2: feature index 0: indices are 1-based");
    CHECK(svm_error("1 1:1\n1 2:1 2:3\n") == "t.libsvm:2:3: feature index 2 after 2: indices must be strictly increasing");
    CHECK(svm_error("1 3:1 2:3\n") == "t.libsvm:1:3: feature index 2 after 3: indices must be strictly increasing");
    CHECK(svm_error("1 1:2 abc\n") == "t.libsvm:1:3: malformed feature \"abc\" (expected index:value)");
    CHECK(svm_error("1 3:\n") == "t.libsvm:1:2: malformed feature \"3:\" (expected index:value)");
    CHECK(svm_error("1 1:2:3\n") == "t.libsvm:1:2: malformed feature \"1:2:3\" (expected index:value)");
    CHECK(svm_error("1 x:1\n") == "t.libsvm:1:2: malformed feature \"x:1\" (expected index:value)");
    CHECK(svm_error("1 1:abc\n") == "t.libsvm:1:2: value \"abc\" of feature \"1:abc\" is not a number");
    CHECK(svm_error("1:2 3:4\n") == "t.libsvm:1:1: missing label: the line starts with the feature \"1:2\"");
    CHECK(svm_error("1 1:nan\n") ==
          "t.libsvm:1:2: missing value \"1:nan\" (use --missing=drop to skip such rows or --missing=mean to impute them)");
    CHECK(svm_error("1 1:inf\n") ==
          "t.libsvm:1:2: value \"1:inf\" is infinite or out of range; only finite numbers are allowed");
    CHECK(svm_error("") == "t.libsvm: empty file: no data lines");
    CHECK(svm_error("# only a comment\n\n") == "t.libsvm: empty file: no data lines");
}

}  // TEST_SUITE
