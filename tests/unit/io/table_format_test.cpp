// The reader interface (kestrel/io/table_format.hpp): which format an input is, decided in
// one place, and the same table through each way in (whole file, streamed pieces, byte-range
// shards) for each of its two formats.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "io_test_util.hpp"
#include "kestrel/io/file_shard.hpp"
#include "kestrel/io/table_format.hpp"
#include "kestrel/io/table_stream.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_table_format_test {

using namespace kestrel;

namespace {

std::string write_format_fixture(const std::string& name, const std::string& text) {
    const auto path =
        std::filesystem::temp_directory_path() / ("kestrel_table_format_" + std::to_string(::getpid()) + "_" + name);
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

// A CSV (one field quoted) and a LIBSVM file of the same rows.
const std::string kFormatCsv =
    "label,a,b\n"
    "1,0.5,2\n"
    "0,\"1.5\",3\n"
    "1,2.5,4\n"
    "0,3.5,5\n"
    "1,4.5,6\n"
    "0,5.5,7\n"
    "1,6.5,8\n";
const std::string kFormatLibsvm =
    "1 1:0.5 2:2\n"
    "0 1:1.5 2:3\n"
    "1 1:2.5 2:4\n"
    "0 1:3.5 2:5\n"
    "1 1:4.5 2:6\n"
    "0 1:5.5 2:7\n"
    "1 1:6.5 2:8\n";

// Rows of several tables one after the other, as dense values and label texts.
struct RowsRead {
    std::vector<std::vector<double>> x;
    std::vector<std::string> labels;
    void add(const Table& t) {
        for (Index r = 0; r < t.X.rows(); ++r) x.push_back(io_test::row_of(t, r));
        if (t.labels) labels.insert(labels.end(), t.labels->text.begin(), t.labels->text.end());
    }
};

RowsRead rows_of(const Table& t) {
    RowsRead r;
    r.add(t);
    return r;
}

void check_same_rows(const RowsRead& a, const RowsRead& b) {
    REQUIRE(a.x.size() == b.x.size());
    for (std::size_t i = 0; i < a.x.size(); ++i) {
        CAPTURE(i);
        CHECK(a.x[i] == b.x[i]);
    }
    CHECK(a.labels == b.labels);
}

}  // namespace

TEST_SUITE("io") {
    TEST_CASE("table formats: the list, their names and ids, and --format's words") {
        REQUIRE(table_formats().size() == 2);
        CHECK(table_formats().back()->id() == FileFormat::csv);  // the default, asked last
        CHECK(table_format(FileFormat::csv).name() == "csv");
        CHECK(table_format(FileFormat::libsvm).name() == "libsvm");
        CHECK_THROWS_AS(table_format(FileFormat::automatic), InternalError);
        CHECK(table_format_names() == std::vector<std::string>{"auto", "csv", "libsvm"});
        CHECK(file_format_from_string("libsvm") == FileFormat::libsvm);
        CHECK(file_format_from_string("auto") == FileFormat::automatic);
        CHECK_THROWS_WITH_AS(file_format_from_string("arff"),
                             "unknown data format 'arff'; valid formats: auto, csv, libsvm", UsageError);
    }

    TEST_CASE("table formats: detection by extension, then by the first line of several tokens") {
        const TableFormat& csv = table_format(FileFormat::csv);
        const TableFormat& libsvm = table_format(FileFormat::libsvm);
        CHECK(csv.claims_extension(".tsv"));
        CHECK(libsvm.claims_extension(".svmlight"));
        CHECK_FALSE(libsvm.claims_extension(".csv"));
        CHECK(libsvm.claim_line("+1 3:0.5 7:-1", {"+1", "3:0.5", "7:-1"}).claimed);
        CHECK(libsvm.claim_line("2 qid:9 3:0.5", {"2", "qid:9", "3:0.5"}).claimed);
        // A line of entries has no label.
        CHECK(libsvm.claim_line("1:2 3:0.5", {"1:2", "3:0.5"}).why_not == "its first token \"1:2\" is not a label");
        CHECK(libsvm.claim_line("label,a b", {"label,a", "b"}).why_not == "token 2 \"b\" is not index:value");
        CHECK(csv.claim_line("label,a b", {"label,a", "b"}).claimed);
        CHECK(csv.claim_line("New York", {"New", "York"}).claimed);  // one field of text
        CHECK(csv.claim_line("1 2.5", {"1", "2.5"}).why_not ==
              "its tokens are separated by spaces, not by ',', ';' or a tab");
        // The extension wins over the content; without one the content decides.
        CHECK(detect_format("x.csv", kFormatLibsvm) == FileFormat::csv);
        CHECK(detect_format("x.txt", kFormatLibsvm) == FileFormat::libsvm);
        CHECK(detect_format("-", kFormatLibsvm) == FileFormat::libsvm);
        CHECK(detect_format("x",
                            "\xEF\xBB\xBF"
                            "1 1:2\n") == FileFormat::libsvm);  // after a byte order mark
        // A forced format is not detected.
        ReadOptions forced;
        forced.format = FileFormat::csv;
        CHECK(choose_table_format("x.libsvm", kFormatLibsvm, forced).id() == FileFormat::csv);
        CHECK(choose_table_format("x.txt", kFormatLibsvm, ReadOptions{}).id() == FileFormat::libsvm);
        CHECK(choose_table_format("-", kFormatCsv, ReadOptions{}).id() == FileFormat::csv);
    }

    TEST_CASE("table formats: a file's format peeked from its start; standard input is not looked at") {
        const std::string path = write_format_fixture("peek.txt", kFormatLibsvm);
        CHECK(peek_file_format(path, ReadOptions{}) == FileFormat::libsvm);
        ReadOptions forced;
        forced.format = FileFormat::csv;
        CHECK(peek_file_format(path, forced) == FileFormat::csv);
        CHECK(peek_file_format("-", ReadOptions{}) == FileFormat::automatic);
        CHECK(peek_file_format(path + ".absent.svm", ReadOptions{}) == FileFormat::libsvm);  // by its name alone
        std::remove(path.c_str());
    }

    TEST_CASE("table formats: each format's dialect, header record and quoting") {
        const TableFormat& csv = table_format(FileFormat::csv);
        const TableFormat& libsvm = table_format(FileFormat::libsvm);
        ReadOptions o;
        csv.settle(o, "a;b;c\n1;2;3\n");
        CHECK(o.format == FileFormat::csv);
        CHECK(o.delimiter == ';');
        CHECK(csv.has_header_record(o));
        CHECK(csv.header_end("\n\"a\nb\";c\n1;2\n", o) == 9);  // blank line, then a quoted line break
        CHECK(csv.header_end("a;b", o) == 0);                  // no whole record yet
        CHECK(csv.quotes_hold_line_breaks());
        o.header = false;
        CHECK_FALSE(csv.has_header_record(o));
        ReadOptions s;
        libsvm.settle(s, kFormatLibsvm);
        CHECK(s.format == FileFormat::libsvm);
        CHECK(s.delimiter == 0);
        CHECK_FALSE(libsvm.has_header_record(s));
        CHECK_FALSE(libsvm.quotes_hold_line_breaks());
    }

    TEST_CASE("table formats: whole, streamed and sharded reads give the same rows, CSV and LIBSVM") {
        struct Case {
            std::string name, text;
            std::size_t header;  // bytes of the header record
        };
        const Case cases[] = {{"rows.csv", kFormatCsv, 10}, {"rows.txt", kFormatLibsvm, 0}};
        for (const Case& c : cases) {
            CAPTURE(c.name);
            const std::string path = write_format_fixture(c.name, c.text);
            const Table whole = read_table(path, ReadOptions{});
            REQUIRE(whole.X.rows() == 7);
            CHECK(whole.X.cols() == 2);
            const RowsRead expected = rows_of(whole);
            check_same_rows(rows_of(read_table_from_buffer(c.text, c.name, ReadOptions{})), expected);

            for (std::size_t block : {1, 9, 25, 4096}) {
                CAPTURE(block);
                TableStream stream(path, ReadOptions{}, block);
                RowsRead streamed;
                TableStream::Piece piece;
                while (stream.next(piece)) {
                    CHECK(piece.text.substr(0, c.header) == c.text.substr(0, c.header));
                    const Table t = stream.parse(piece, 1);
                    stream.learn(t);
                    streamed.add(t);
                }
                CHECK(stream.format() == (c.header > 0 ? FileFormat::csv : FileFormat::libsvm));
                check_same_rows(streamed, expected);
            }

            for (int parts : {1, 3, 5}) {
                CAPTURE(parts);
                RowsRead sharded;
                std::uint64_t line = 1 + (c.header > 0 ? 1 : 0);
                for (int k = 0; k < parts; ++k) {
                    const FileShard s = read_file_shard(path, ReadOptions{}, k, parts);
                    CHECK(s.options.format == (c.header > 0 ? FileFormat::csv : FileFormat::libsvm));
                    sharded.add(parse_file_shard(s, line));
                    line += s.record_lines;
                }
                check_same_rows(sharded, expected);
            }
            std::remove(path.c_str());
        }
    }
}

}  // namespace unit_io_table_format_test
}  // namespace
