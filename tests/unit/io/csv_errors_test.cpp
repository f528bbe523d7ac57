// Every CSV error names the file and, where there is one, the line and the 1-based
// column: the messages are asserted whole.
#include "io_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_csv_errors_test {

using namespace kestrel;
using io_test::error_of;

namespace {

ReadOptions label_at(const char* label_col, bool header = true) {
    ReadOptions opts;
    opts.label_col = std::string(label_col);
    opts.header = header;
    return opts;
}

}  // namespace

TEST_SUITE("io") {

TEST_CASE("csv errors: ragged rows name the line and both field counts") {
    CHECK(error_of("label,a,b\n1,2,3\n4,5\n") == "t.csv:3: expected 3 fields (as in the header), found 2");
    CHECK(error_of("label,a\n1,2\n3,4,5\n") == "t.csv:3: expected 2 fields (as in the header), found 3");
    ReadOptions no_header;
    no_header.header = false;
    CHECK(error_of("1,2\n\n3\n", no_header) == "t.csv:3: expected 2 fields (as in the first row), found 1");
}

TEST_CASE("csv errors: a non-numeric cell of a numeric column quotes the field and names its column") {
    // Without --numeric such a column is categorical (csv_types_test.cpp).
    ReadOptions numeric;
    numeric.numeric_columns = {"a", "b"};
    CHECK(error_of("label,a,b\n1,2,x7\n", numeric) == "t.csv:2:3: \"x7\" in column 'b' is not a number (a numeric column)");
    CHECK(error_of("label,a,b\n1,1.5e,2\n", numeric) ==
          "t.csv:2:2: \"1.5e\" in column 'a' is not a number (a numeric column)");
    ReadOptions no_header;
    no_header.header = false;
    no_header.numeric_columns = {"1"};
    CHECK(error_of("0,1\n0,abc\n", no_header) == "t.csv:2:2: \"abc\" is not a number");
    // The line counts the newlines inside quoted fields before it.
    ReadOptions a;
    a.numeric_columns = {"a"};
    CHECK(error_of("label,a\n\"x\ny\",1\nz,bad\n", a) == "t.csv:4:2: \"bad\" in column 'a' is not a number (a numeric column)");
}

TEST_CASE("csv errors: missing values without a policy") {
    const std::string hint = " (use --missing=drop to skip such rows, or auto, keep or an imputer)";
    CHECK(error_of("label,a,b\n1,,3\n") == "t.csv:2:2: missing value in column 'a'" + hint);
    CHECK(error_of("label,a,b\n1,3,NA\n") == "t.csv:2:3: missing value in column 'b'" + hint);
    CHECK(error_of("label,a,b\n1,3,4\n1,?,4\n") == "t.csv:3:2: missing value in column 'a'" + hint);
    CHECK(error_of("label,a,b\n1,NaN,4\n") == "t.csv:2:2: missing value in column 'a'" + hint);
    CHECK(error_of("label,a,b\n1,2,nan") == "t.csv:2:3: missing value in column 'b'" + hint);
    CHECK(error_of("label,a,b\n1,2,") == "t.csv:2:3: missing value in column 'b'" + hint);
    CHECK(error_of("label,a\n,1\n") == "t.csv:2:1: missing label in column 'label' (use --missing=drop to skip such rows)");
}

TEST_CASE("csv errors: infinities are not data") {
    const std::string tail = " is infinite or out of range; only finite numbers are allowed";
    CHECK(error_of("label,a\n1,inf\n") == "t.csv:2:2: \"inf\" in column 'a'" + tail);
    CHECK(error_of("label,a\n1,-Inf\n") == "t.csv:2:2: \"-Inf\" in column 'a'" + tail);
    CHECK(error_of("label,a\n1,1e999\n") == "t.csv:2:2: \"1e999\" in column 'a'" + tail);
}

TEST_CASE("csv errors: the label column is not found") {
    CHECK(error_of("label,a\n1,2\n", label_at("y")) == "t.csv: label column 'y' not found; the columns are: label, a");
    CHECK(error_of("label,a\n1,2\n", label_at("5")) ==
          "t.csv: label column 5 is out of range: the file has 2 columns (indices from 0)");
    CHECK(error_of("1,2\n", label_at("y", false)) ==
          "t.csv: label column 'y' is given by name but the file has no header row");
}

TEST_CASE("csv errors: empty file and header only") {
    CHECK(error_of("") == "t.csv: empty file: no header and no data rows");
    CHECK(error_of("\n  \r\n\n") == "t.csv: empty file: no header and no data rows");
    CHECK(error_of("label,a\n") == "t.csv: no data rows after the header");
    CHECK(error_of("label,a\n\n\n") == "t.csv: no data rows after the header");
    ReadOptions no_header;
    no_header.header = false;
    CHECK(error_of("", no_header) == "t.csv: empty file: no data rows");
}

TEST_CASE("csv errors: malformed quoting") {
    CHECK(error_of("label,a\n1,\"2\n") == "t.csv:2:2: quoted field is never closed");
    CHECK(error_of("label,a\n1,\"2\"x\n") ==
          "t.csv:2:2: unexpected character after a closing quote (a quote inside a quoted field is written \"\")");
    CHECK(error_of("label,a\n1,2\"3\n") ==
          "t.csv:2:2: quote inside an unquoted field (quote the whole field and double the inner quote)");
    CHECK(error_of("label,\"a\n") == "t.csv:1:2: quoted field is never closed");
}

TEST_CASE("csv errors: predict-time alignment") {
    ReadOptions names;
    names.feature_columns = std::vector<std::string>{"a", "z"};
    CHECK(error_of("label,a\n1,2\n", names) ==
          "t.csv: feature column 'z' (used by the model) not found; the columns are: label, a");
    ReadOptions count;
    count.header = false;
    count.expected_features = 2;
    CHECK(error_of("1,2,3,4\n", count) ==
          "t.csv: the file has 4 columns but the model expects 2 features (2 columns, or 3 with a label column)");
    ReadOptions drop;
    drop.missing = MissingPolicy::drop;
    CHECK(error_of("label,a\n1,NA\n2,\n", drop) == "t.csv: all 2 rows have missing values and were dropped");
}

}  // TEST_SUITE

}  // namespace unit_io_csv_errors_test
}  // namespace
