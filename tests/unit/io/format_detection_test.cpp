// Format detection by content (kestrel/io/table_format.hpp, detect_format) on the inputs that
// are easy to get wrong: LETOR / SVMrank lines with qid: and a '#' comment, a one-column CSV
// of numbers, a CSV header holding colons, blank and comment lines before the first that
// decides, a LIBSVM line of a label alone, CRLF line ends, a head cut inside a line, and an
// input of neither format, refused with a message that names the option "format".
#include <doctest/doctest.h>

#include "io_test_util.hpp"
#include "kestrel/io/table_format.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_format_detection_test {

using namespace kestrel;
using io_test::contains;

namespace {

// The library's own message for `text` read with default options as `source`.
std::string library_error(std::string_view text, const std::string& source) {
    try {
        read_table_from_buffer(text, source, ReadOptions{});
    } catch (const DataError& e) {
        return e.what();
    }
    return "<no error>";
}

}  // namespace

TEST_SUITE("io") {
    TEST_CASE("format detection: LETOR lines with qid and a '#' comment are LIBSVM with query ids") {
        const std::string letor =
            "0 qid:3 1:0.2380 2:0.5442 # docid = GX000-00-0000000\n"
            "2 qid:3 1:0.1 2:0.25 # docid = GX000-00-0000001\n"
            "1 qid:4 2:1.5\n";
        CHECK(detect_format("train.rank", letor) == FileFormat::libsvm);
        CHECK(detect_format("train.txt", letor) == FileFormat::libsvm);
        CHECK(detect_format("-", letor) == FileFormat::libsvm);
        const Table t = io_test::read(letor, {}, "train.rank");
        REQUIRE(t.labels);
        CHECK(t.labels->qid == std::vector<double>{3, 3, 4});
        CHECK(t.labels->numeric == std::vector<double>{0, 2, 1});
        REQUIRE(t.X.cols() == 2);  // qid is no feature
        CHECK(io_test::row_of(t, 0) == std::vector<double>{0.2380, 0.5442});
        CHECK(io_test::row_of(t, 2) == std::vector<double>{0, 1.5});
        // A malformed query id is still LIBSVM's: its reader names the token.
        CHECK(detect_format("x", "1 qid:a 1:2\n") == FileFormat::libsvm);
        CHECK(contains(io_test::error_of("1 qid:a 1:2\n", {}, "x"), "x:1:2:"));
    }

    TEST_CASE("format detection: a one-column CSV of numbers, with its header or without") {
        CHECK(detect_format("y.txt", "y\n1\n2.5\n3\n") == FileFormat::csv);
        // Lone numbers fit both formats: nothing decides, and CSV is the default.
        CHECK(detect_format("y.txt", "1\n2.5\n3\n") == FileFormat::csv);
        ReadOptions o;
        o.labels_optional = true;
        o.label_col = "label";  // absent: the column is a feature
        const Table t = io_test::read("y\n1\n2.5\n3\n", o, "y.txt");
        REQUIRE(t.X.cols() == 1);
        CHECK(t.feature_names == std::vector<std::string>{"y"});
        CHECK(io_test::row_of(t, 1) == std::vector<double>{2.5});
        CHECK_FALSE(t.labels);
    }

    TEST_CASE("format detection: a CSV whose header holds colons, and text with spaces") {
        CHECK(detect_format("h.txt", "time:start,score:x,label\n1,2,0\n") == FileFormat::csv);
        CHECK(detect_format("h.txt", "start time: s,end: e,label\n1,2,0\n") == FileFormat::csv);
        // "1:2,b" is no LIBSVM entry: its value holds the delimiter.
        CHECK(detect_format("h.txt", "a 1:2,b\n") == FileFormat::csv);
        CHECK(detect_format("h.txt", "label\tf 1:x\n0\t1\n") == FileFormat::csv);
        CHECK(detect_format("n.txt", "name\nNew York\nSan Jose\n") == FileFormat::csv);
        const Table t = io_test::read("time:start,score:x,label\n1,2,0\n4,5,1\n", {}, "h.txt");
        CHECK(t.feature_names == std::vector<std::string>{"time:start", "score:x"});
        CHECK(io_test::row_of(t, 1) == std::vector<double>{4, 5});
    }

    TEST_CASE("format detection: blank and comment lines before the line that decides") {
        CHECK(detect_format("d", "\n1 1:0.5\n") == FileFormat::libsvm);
        CHECK(detect_format("d", "\r\n\nlabel,a\n1,2\n") == FileFormat::csv);
        const std::string commented = "# written by svm-scale\n#\n  # indented\n1 1:0.5 2:1\n0 2:3 # c\n";
        CHECK(detect_format("d", commented) == FileFormat::libsvm);
        const Table l = io_test::read(commented, {}, "d");
        REQUIRE(l.X.rows() == 2);
        CHECK(io_test::row_of(l, 0) == std::vector<double>{0.5, 1});
        CHECK(io_test::row_of(l, 1) == std::vector<double>{0, 3});
        CHECK(l.labels->text == std::vector<std::string>{"1", "0"});
        // CSV skips blank lines before its header.
        const Table c = io_test::read("\n\nlabel,a\n1,2\n", {}, "d");
        CHECK(c.feature_names == std::vector<std::string>{"a"});
        CHECK(io_test::row_of(c, 0) == std::vector<double>{2});
    }

    TEST_CASE("format detection: a LIBSVM file whose first line is a label alone") {
        const std::string text = "1\n0 1:0.5 3:2\n";
        CHECK(detect_format("z", text) == FileFormat::libsvm);
        const Table t = io_test::read(text, {}, "z");
        REQUIRE(t.X.rows() == 2);
        REQUIRE(t.X.cols() == 3);
        CHECK(io_test::row_of(t, 0) == std::vector<double>{0, 0, 0});
        CHECK(io_test::row_of(t, 1) == std::vector<double>{0.5, 0, 2});
    }

    TEST_CASE("format detection: Windows line ends") {
        const std::string letor = "1 qid:1 1:0.5\r\n0 qid:1 2:1\r\n";
        CHECK(detect_format("w", letor) == FileFormat::libsvm);
        const Table l = io_test::read(letor, {}, "w");
        CHECK(l.labels->qid == std::vector<double>{1, 1});
        CHECK(io_test::row_of(l, 1) == std::vector<double>{0, 1});
        CHECK(detect_format("w", "label,a\r\n1,2\r\n") == FileFormat::csv);
    }

    TEST_CASE("format detection: a line of neither format is refused, naming the option format") {
        const std::string e = library_error("# c\n\n1 a:0.5 b:1\n", "v.txt");
        CHECK(e ==
              "v.txt:3: \"1 a:0.5 b:1\" looks like no format tried (libsvm: token 2 \"a:0.5\" is not index:value; "
              "csv: its tokens are separated by spaces, not by ',', ';' or a tab); if it is one of them, say which "
              "with format (libsvm, csv)");
        CHECK(contains(io_test::error_of("1 2 3\r\n4 5 6\n", {}, "m.txt"),
                       "m.txt:1: \"1 2 3\" looks like no format tried (libsvm: token 2 \"2\" is not index:value; csv: "
                       "its tokens are separated by spaces, not by ',', ';' or a tab); if it is one of them, say "
                       "which with --format (libsvm, csv)"));
        CHECK_THROWS_AS(detect_format("-", "1 2 3\n"), DataError);
        CHECK(contains(library_error("0.5 0.25\n", "-"), "<stdin>:1:"));
        // A format given is not detected, and an extension decides before the content.
        ReadOptions forced;
        forced.format = FileFormat::csv;
        CHECK(choose_table_format("m.txt", "1 2 3\n", forced).id() == FileFormat::csv);
        CHECK(detect_format("m.csv", "1 2 3\n") == FileFormat::csv);
    }

    TEST_CASE("format detection: a last line cut short by the sniffed head is not judged") {
        std::string head;
        while (head.size() + 2 < kFormatSniffBytes) head += "5\n";
        head += "1 2";  // the start of a line the head cut (its end could be anything)
        REQUIRE(head.size() >= kFormatSniffBytes);
        CHECK(detect_format("cut", head) == FileFormat::csv);
        // The same line ending a whole input is judged.
        CHECK_THROWS_AS(detect_format("cut", "5\n1 2"), DataError);
    }
}

}  // namespace unit_io_format_detection_test
}  // namespace
