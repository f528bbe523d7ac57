// The LIBSVM reader on inline fixtures: sparse rows, comments, labels, policies,
// and errors located at file:line:token (the label is token 1).
#include <cmath>

#include "io_test_util.hpp"
#include "kestrel/io/libsvm_format.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_libsvm_test {

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
        return cli::command_message(e);  // messages as the commands print them
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
    CHECK(t.labels->text == std::vector<std::string>{"1", "0"});  // LIBSVM labels are numbers: "+1" is 1
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

TEST_CASE("libsvm densify: dense when no larger than CSR, absent entries zero, same values") {
    ReadOptions dense_ok;
    dense_ok.densify = true;
    // 5 entries of 6 cells: 48 bytes dense against 5 x 12 + 4 x 4 = 76 bytes of CSR.
    const std::string_view text = "1 1:0.5 2:1\n0 2:3\n1 1:-2 2:4 # c\n";
    const Table d = read_svm(text, dense_ok);
    REQUIRE_FALSE(d.X.is_sparse());
    CHECK(d.X.cols() == 2);
    CHECK(row_of(d, 0) == std::vector<double>{0.5, 1});
    CHECK(row_of(d, 1) == std::vector<double>{0, 3});
    CHECK(row_of(d, 2) == std::vector<double>{-2, 4});
    CHECK(d.labels->line == std::vector<std::uint64_t>{1, 2, 3});
    CHECK(read_svm(text).X.is_sparse());  // not asked for

    // Sparser than CSR would store: stays sparse.
    CHECK(read_svm("1 1:1\n0\n0\n0 3:1\n", dense_ok).X.is_sparse());
    // A feature absent from every record (svm-scale leaves out constant ones) is a zero
    // column: the width is the highest index that ends a record.
    const Table gap = read_svm("1 2:1 3:1\n0 2:2 3:2\n", dense_ok);
    REQUIRE_FALSE(gap.X.is_sparse());
    CHECK(row_of(gap, 1) == std::vector<double>{0, 2, 2});
    // Wider than it is full: CSR.
    CHECK(read_svm("1 1:1\n0 5:2\n", dense_ok).X.is_sparse());
    // A record out of order goes past the counted width mid-parse: the dense attempt
    // gives way to the CSR parse, which reports the error.
    const std::string_view disorder = "1 1:1 2:1 3:1\n0 1:1 9:2 3:1\n";
    CHECK(svm_error(disorder, dense_ok) == svm_error(disorder));
    CHECK(svm_error(disorder) == "t.libsvm:2:4: feature index 3 after 9: indices must be strictly increasing");

    // At predict time the width is the model's.
    ReadOptions model = dense_ok;
    model.expected_features = 3;
    const Table p = read_svm("1 1:1 3:2\n0 2:1 3:1\n", model);
    REQUIRE_FALSE(p.X.is_sparse());
    CHECK(row_of(p, 0) == std::vector<double>{1, 0, 2});
    CHECK(svm_error("1 1:1 4:2\n", model) == "t.libsvm:1:3: feature index 4 is beyond the model's 3 features");

    // Dropped rows close up; errors are located as in a CSR read.
    ReadOptions drop = dense_ok;
    drop.missing = MissingPolicy::drop;
    const Table kept = read_svm("1 1:1 2:2\n0 1:? 2:1\n1 1:3 2:4\n", drop);
    REQUIRE_FALSE(kept.X.is_sparse());
    CHECK(kept.X.rows() == 2);
    CHECK(row_of(kept, 1) == std::vector<double>{3, 4});
    CHECK(kept.labels->line == std::vector<std::uint64_t>{1, 3});
    CHECK(kept.dropped_rows == 1);
    CHECK(svm_error("1 1:1 2:2\n0 1:1 2:x\n", dense_ok) == svm_error("1 1:1 2:2\n0 1:1 2:x\n"));
}

TEST_CASE("libsvm densify: a file of many chunks reads the same dense or CSR") {
    // ~1.4 MB: several 256 KB chunks parsed in parallel, with drops in some of them.
    std::string text;
    for (int r = 0; r < 20000; ++r) {
        text += std::to_string(r % 3);
        for (int j = 1; j <= 8; ++j)
            if ((r + j) % 11 != 0)
                text += " " + std::to_string(j) + ":" + (r % 997 == 5 && j == 2 ? "?" : std::to_string(r * j % 89));
        text += "\n";
    }
    for (int threads : {1, 2, 3}) {
        CAPTURE(threads);
        ReadOptions csr;
        csr.threads = threads;
        csr.missing = MissingPolicy::drop;
        ReadOptions dense_ok = csr;
        dense_ok.densify = true;
        const Table a = read_svm(text, csr);
        const Table b = read_svm(text, dense_ok);
        REQUIRE(a.X.is_sparse());
        REQUIRE_FALSE(b.X.is_sparse());
        CHECK(b.dropped_rows == a.dropped_rows);
        CHECK(b.dropped_rows > 0);
        CHECK(b.labels->line == a.labels->line);
        CHECK(b.labels->text == a.labels->text);
        CHECK(b.X.dense_ref() == a.X.to_dense());
    }
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

}  // namespace unit_io_libsvm_test
}  // namespace
