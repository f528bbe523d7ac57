// Query ids in LIBSVM files (SVMrank / XGBoost's `label qid:N idx:val ...`): read into
// RawLabels::qid, not counted as features, and the errors of a file whose queries are
// not contiguous or whose lines lack a qid, each at file:line.
#include "io_test_util.hpp"
#include "kestrel/io/libsvm_format.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_libsvm_qid_test {

using namespace kestrel;
using io_test::contains;

namespace {

std::string qid_error(std::string_view text) {
    ReadOptions libsvm;
    libsvm.format = FileFormat::libsvm;
    return io_test::error_of(text, libsvm, "q.libsvm");
}

}  // namespace

TEST_SUITE("io") {

TEST_CASE("libsvm qid: the query ids are kept per row and are not features") {
    const Table t = read_libsvm("2 qid:7 1:0.5 3:1\n0 qid:7 2:4\n1 qid:3 1:1 # a comment\n1 qid:3\n", "q.libsvm", {});
    REQUIRE(t.labels);
    CHECK(t.labels->qid == std::vector<double>{7, 7, 3, 3});
    CHECK(t.labels->numeric == std::vector<double>{2, 0, 1, 1});
    CHECK(t.X.rows() == 4);
    CHECK(t.X.cols() == 3);
    const DenseMatrix X = t.X.to_dense();
    CHECK(X(0, 0) == 0.5);
    CHECK(X(0, 2) == 1);
    CHECK(X(1, 1) == 4);
    CHECK(X(3, 0) == 0);
}

TEST_CASE("libsvm qid: a dense read keeps them too; a file without qid has none") {
    ReadOptions dense;
    dense.densify = true;
    const Table t = read_libsvm("1 qid:1 1:1 2:2\n0 qid:2 1:3 2:4\n", "q.libsvm", dense);
    CHECK_FALSE(t.X.is_sparse());
    CHECK(t.labels->qid == std::vector<double>{1, 2});
    CHECK(read_libsvm("1 1:1\n", "q.libsvm", {}).labels->qid.empty());
}

TEST_CASE("libsvm qid: rows dropped for missing values drop their query ids") {
    ReadOptions drop;
    drop.missing = MissingPolicy::drop;
    const Table t = read_libsvm("1 qid:1 1:1\n0 qid:1 1:nan\n2 qid:2 1:3\n", "q.libsvm", drop);
    CHECK(t.labels->qid == std::vector<double>{1, 2});
    CHECK(t.labels->line == std::vector<std::uint64_t>{1, 3});
}

TEST_CASE("libsvm qid: a query that reappears after another, at its file:line") {
    const std::string e = qid_error("1 qid:1 1:1\n0 qid:2 1:2\n\n1 qid:1 1:3\n");
    CHECK(contains(e, "q.libsvm:4: query 1 reappears after other queries (first on line 1)"));
}

TEST_CASE("libsvm qid: a line without qid in a file with them, and a malformed qid") {
    CHECK(contains(qid_error("1 qid:1 1:1\n0 1:2\n"), "q.libsvm:2:2: no qid:"));
    CHECK(contains(qid_error("0 1:2\n1 qid:1 1:1\n"), "q.libsvm:1:2: no qid:"));
    CHECK(contains(qid_error("1 qid:x 1:1\n"), "q.libsvm:1:2: malformed query id \"qid:x\""));
    CHECK(contains(qid_error("1 qid:-3 1:1\n"), "q.libsvm:1:2: malformed query id"));
    CHECK(contains(qid_error("1 qid: 1:1\n"), "q.libsvm:1:2: malformed query id"));
}

}  // TEST_SUITE

}  // namespace unit_io_libsvm_qid_test
}  // namespace
