// The CSV reader on small inline fixtures: dialects, labels, missing-value policies
// and predict-time column alignment. Expected values are read off the fixtures.
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "io_test_util.hpp"
#include "kestrel/io/csv.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_csv_test {

using namespace kestrel;
using io_test::read;
using io_test::row_of;

TEST_SUITE("io") {

TEST_CASE("csv: header, label column named label, dense row-major features") {
    const std::string text = "label,a,b\n1,2.5,3\n0,-1,4e2\n";
    const Table t = read(text);
    REQUIRE_FALSE(t.X.is_sparse());
    CHECK(t.X.rows() == 2);
    CHECK(t.X.cols() == 2);
    CHECK(row_of(t, 0) == std::vector<double>{2.5, 3});
    CHECK(row_of(t, 1) == std::vector<double>{-1, 400});
    REQUIRE(t.labels);
    CHECK(t.labels->text == std::vector<std::string>{"1", "0"});
    CHECK(t.labels->numeric == std::vector<double>{1, 0});
    CHECK(t.labels->line == std::vector<std::uint64_t>{2, 3});
    CHECK(t.labels->source == "t.csv");
    CHECK(t.feature_names == std::vector<std::string>{"a", "b"});
    CHECK(t.label_name == "label");
    CHECK(t.source == "t.csv");
    CHECK(t.dropped_rows == 0);
    CHECK(t.bytes == text.size());
}

TEST_CASE("csv: label column chosen by name, by index, or column 0 by default") {
    const std::string text = "x,y,z\n1,2,3\n4,5,6\n";
    const Table t0 = read(text);
    CHECK(t0.label_name == "x");
    CHECK(t0.labels->text == std::vector<std::string>{"1", "4"});
    CHECK(row_of(t0, 1) == std::vector<double>{5, 6});

    ReadOptions by_name;
    by_name.label_col = "y";
    const Table t1 = read(text, by_name);
    CHECK(t1.label_name == "y");
    CHECK(t1.feature_names == std::vector<std::string>{"x", "z"});
    CHECK(row_of(t1, 0) == std::vector<double>{1, 3});

    ReadOptions by_index;
    by_index.label_col = "2";
    const Table t2 = read(text, by_index);
    CHECK(t2.label_name == "z");
    CHECK(t2.labels->numeric == std::vector<double>{3, 6});
    CHECK(row_of(t2, 1) == std::vector<double>{4, 5});

    const Table t3 = read("a,label,b\n7,8,9\n");
    CHECK(t3.label_name == "label");
    CHECK(row_of(t3, 0) == std::vector<double>{7, 9});
}

TEST_CASE("csv: no header row") {
    ReadOptions opts;
    opts.header = false;
    const Table t = read("1,2,3\n4,5,6\n", opts);
    CHECK(t.feature_names.empty());
    CHECK(t.label_name.empty());
    CHECK(t.labels->line == std::vector<std::uint64_t>{1, 2});
    CHECK(row_of(t, 1) == std::vector<double>{5, 6});
    opts.label_col = std::string("1");
    CHECK(read("1,2,3\n", opts).labels->text == std::vector<std::string>{"2"});
}

TEST_CASE("csv: RFC 4180 quoting with doubled quotes, delimiters and newlines inside") {
    const std::string text =
        "label,a,b\n"
        "\"cat, \"\"the\"\" big\",1,\"2.5\"\n"
        "\"multi\nline\",3,4\n"
        "dog,5,6\n";
    const Table t = read(text);
    CHECK(t.labels->text == std::vector<std::string>{"cat, \"the\" big", "multi\nline", "dog"});
    CHECK(t.labels->line == std::vector<std::uint64_t>{2, 3, 5});
    CHECK(row_of(t, 0) == std::vector<double>{1, 2.5});
    CHECK(row_of(t, 2) == std::vector<double>{5, 6});
    CHECK(read("\"label\",\"a b\"\n1,2\n").feature_names == std::vector<std::string>{"a b"});
}

TEST_CASE("csv: CRLF line ends, blank lines and a UTF-8 byte order mark") {
    const Table crlf = read("label,a\r\n1,2\r\n\r\n3,\"4\"\r\n");
    CHECK(crlf.labels->text == std::vector<std::string>{"1", "3"});
    CHECK(crlf.labels->line == std::vector<std::uint64_t>{2, 4});
    CHECK(row_of(crlf, 1) == std::vector<double>{4});

    const Table blanks = read("\n\nlabel,a\n\n1,2\n   \n3,4");
    CHECK(blanks.labels->line == std::vector<std::uint64_t>{5, 7});
    CHECK(row_of(blanks, 1) == std::vector<double>{4});

    const Table bom = read("\xEF\xBB\xBFlabel,a\n1,2\n");
    CHECK(bom.label_name == "label");
    CHECK(bom.feature_names == std::vector<std::string>{"a"});
}

TEST_CASE("csv: delimiter detection among comma, semicolon and tab") {
    CHECK(detect_delimiter("a,b,c\n1,2,3\n") == ',');
    CHECK(detect_delimiter("a;b;c\n1;2;3\n") == ';');
    CHECK(detect_delimiter("a\tb\n1\t2\n") == '\t');
    CHECK(detect_delimiter("\xEF\xBB\xBF" "a;b\n1;2\n") == ';');
    // Decimal commas: only ';' splits every record the same way.
    CHECK(detect_delimiter("x;y\n1,5;2,5\n") == ';');
    // A ';' inside quotes is data.
    CHECK(detect_delimiter("\"a;b\",c\n1,2\n") == ',');
    CHECK(detect_delimiter("single\n1\n") == ',');

    const Table semi = read("label;a;b\n1;2;3\n");
    CHECK(row_of(semi, 0) == std::vector<double>{2, 3});
    const Table tab = read("label\ta\tb\n1\t2\t3\n");
    CHECK(tab.feature_names == std::vector<std::string>{"a", "b"});
    ReadOptions forced;
    forced.delimiter = ';';
    CHECK(read("label;a,b\n1;2\n", forced).feature_names == std::vector<std::string>{"a,b"});
}

TEST_CASE("csv: number syntax, surrounding spaces and string labels") {
    const Table t = read("label, a , b ,c\n setosa , +1.5 ,.5,-2E-3\nvirginica,1e2,\" 7 \",0\n");
    CHECK(t.feature_names == std::vector<std::string>{"a", "b", "c"});
    CHECK(row_of(t, 0) == std::vector<double>{1.5, 0.5, -0.002});
    CHECK(row_of(t, 1) == std::vector<double>{100, 7, 0});
    CHECK(t.labels->text == std::vector<std::string>{"setosa", "virginica"});
    CHECK(std::isnan(t.labels->numeric[0]));
    CHECK(std::isnan(t.labels->numeric[1]));
    // Verbatim: "1.0" stays "1.0" (a different class from "1").
    CHECK(read("label,a\n1.0,2\n").labels->text == std::vector<std::string>{"1.0"});
}

TEST_CASE("csv: missing values kept as NaN or rows dropped") {
    // (A column whose every cell is missing is an error: csv_types_test.cpp.)
    const std::string text = "label,a,b\n1,,2\n0,NA,?\n1,nan,3\n0,4,5\n";
    ReadOptions keep;
    keep.missing = MissingPolicy::keep;
    const Table k = read(text, keep);
    CHECK(k.X.rows() == 4);
    CHECK(std::isnan(row_of(k, 0)[0]));
    CHECK(row_of(k, 0)[1] == 2);
    CHECK(std::isnan(row_of(k, 1)[0]));
    CHECK(std::isnan(row_of(k, 1)[1]));
    CHECK(std::isnan(row_of(k, 2)[0]));
    CHECK(k.dropped_rows == 0);

    ReadOptions drop;
    drop.missing = MissingPolicy::drop;
    const Table d = read(text, drop);
    CHECK(d.X.rows() == 1);
    CHECK(d.dropped_rows == 3);
    CHECK(row_of(d, 0) == std::vector<double>{4, 5});
    CHECK(d.labels->text == std::vector<std::string>{"0"});
    CHECK(d.labels->line == std::vector<std::uint64_t>{5});

    // A missing label drops the row too.
    const Table dl = read("label,a\n,1\n2,3\n", drop);
    CHECK(dl.labels->text == std::vector<std::string>{"2"});
    CHECK(dl.dropped_rows == 1);
}

TEST_CASE("csv: predict-time feature_columns select and reorder by name") {
    ReadOptions opts;
    opts.feature_columns = std::vector<std::string>{"c", "a"};
    const Table t = read("label,a,b,c\n1,2,3,4\n0,5,6,7\n", opts);
    CHECK(t.feature_names == std::vector<std::string>{"c", "a"});
    CHECK(row_of(t, 0) == std::vector<double>{4, 2});
    CHECK(row_of(t, 1) == std::vector<double>{7, 5});
    CHECK(t.labels->text == std::vector<std::string>{"1", "0"});

    // No label column at all: fine when labels are optional.
    opts.feature_columns = std::vector<std::string>{"a", "b"};
    opts.labels_optional = true;
    const Table u = read("b,a\n3,2\n", opts);
    CHECK_FALSE(u.labels);
    CHECK(row_of(u, 0) == std::vector<double>{2, 3});

    // Column 0 outside the model's features is the label, as at training time.
    const Table v = read("y,b,a\n9,3,2\n", opts);
    REQUIRE(v.labels);
    CHECK(v.label_name == "y");
    CHECK(row_of(v, 0) == std::vector<double>{2, 3});
}

TEST_CASE("csv: predict-time expected_features by position") {
    ReadOptions opts;
    opts.header = false;
    opts.expected_features = 2;
    const Table no_label = read("1,2\n3,4\n", opts);
    CHECK_FALSE(no_label.labels);
    CHECK(row_of(no_label, 1) == std::vector<double>{3, 4});
    const Table with_label = read("0,1,2\n", opts);
    CHECK(with_label.labels->text == std::vector<std::string>{"0"});
    CHECK(row_of(with_label, 0) == std::vector<double>{1, 2});
    opts.label_col = std::string("2");
    CHECK(row_of(read("1,2,0\n", opts), 0) == std::vector<double>{1, 2});
}

TEST_CASE("csv: labels_optional with a header and an absent named label") {
    ReadOptions opts;
    opts.label_col = "target";
    opts.labels_optional = true;
    const Table t = read("a,b\n1,2\n", opts);
    CHECK_FALSE(t.labels);
    CHECK(row_of(t, 0) == std::vector<double>{1, 2});
}

TEST_CASE("csv: numbers are parsed exactly as strtod rounds them") {
    // Mantissas of 1 to 20 digits, exponents from -40 to 40, point anywhere: the
    // reader's fast path and its fast_float fallback must both round correctly.
    std::uint64_t state = 2024;
    const auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state >> 33;
    };
    std::vector<std::string> numbers;
    std::string text = "label,x\n";
    for (int i = 0; i < 4000; ++i) {
        std::string s;
        if (next() % 2) s.push_back('-');
        const int n = 1 + static_cast<int>(next() % 20);
        const int point = next() % 2 ? static_cast<int>(next() % static_cast<std::uint64_t>(n + 1)) : -1;
        for (int k = 0; k < n; ++k) {
            if (k == point) s.push_back('.');
            s.push_back(static_cast<char>('0' + next() % 10));
        }
        if (point == n) s.push_back('.');
        if (next() % 3 == 0) {
            s.push_back('e');
            s.append(std::to_string(static_cast<int>(next() % 81) - 40));
        }
        numbers.push_back(s);
        text.append("0,").append(s).push_back('\n');
    }
    const Table t = read(text);
    REQUIRE(t.X.rows() == 4000);
    int mismatches = 0;
    for (std::size_t i = 0; i < numbers.size(); ++i)
        if (t.X.dense_ref()(static_cast<Index>(i), 0) != std::strtod(numbers[i].c_str(), nullptr)) ++mismatches;
    CHECK(mismatches == 0);
}

}  // TEST_SUITE

}  // namespace unit_io_csv_test
}  // namespace
