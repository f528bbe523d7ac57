// read_table / read_table_from_buffer: format detection, files and their errors,
// the reference datasets, and thread-count independence on multi-megabyte inputs.
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include "io_test_util.hpp"
#include "kestrel/io/atomic_file.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_data_reader_test {

using namespace kestrel;
using io_test::row_of;

namespace {

// Deterministic pseudo-random stream (PCG-style LCG) for generated fixtures.
struct Lcg {
    std::uint64_t state;
    std::uint64_t next() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state >> 33;
    }
};

void append_fixed3(std::string& s, std::int64_t thousandths) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(thousandths) / 1000.0,
                                 std::chars_format::fixed, 3);
    s.append(buf, r.ptr);
}

// ~3 MB of CSV with blank lines, optional quoted (and multi-line) labels and
// optional missing cells, so that several chunks and every code path are involved.
std::string make_csv(int rows, bool quoted, bool missing, const std::string& bad_early = "",
                     const std::string& bad_late = "") {
    Lcg rng{42};
    std::string s = "label,f1,f2,f3,f4,f5,f6,f7,f8\n";
    for (int r = 0; r < rows; ++r) {
        if (r % 97 == 0) s += "\n";
        if (quoted && r % 211 == 0) s += "\"multi\nline, " + std::to_string(r % 3) + "\"";
        else if (quoted && r % 13 == 0) s += "\"c,\"\"" + std::to_string(r % 3) + "\"\"\"";
        else s += std::to_string(r % 3);
        for (int c = 0; c < 8; ++c) {
            s += ',';
            if (missing && c == 2 && r % 101 == 5) continue;
            if (r == rows / 4 && c == 5 && !bad_early.empty()) s += bad_early;
            else if (r == 3 * rows / 4 && c == 1 && !bad_late.empty()) s += bad_late;
            else append_fixed3(s, static_cast<std::int64_t>(rng.next() % 200000) - 100000);
        }
        s += r % 5 == 0 ? "\r\n" : "\n";
    }
    return s;
}

std::string make_libsvm(int rows, bool missing) {
    Lcg rng{7};
    std::string s = "# generated\n";
    for (int r = 0; r < rows; ++r) {
        if (r % 89 == 0) s += "\n# comment line\n";
        s += std::to_string(static_cast<int>(r % 4) - 1);
        for (int j = 1; j <= 30; ++j) {
            if (rng.next() % 3 != 0) continue;
            s += ' ' + std::to_string(j) + ':';
            if (missing && r % 103 == 7 && j > 25) s += "nan";
            else append_fixed3(s, static_cast<std::int64_t>(rng.next() % 2000) - 1000);
        }
        s += r % 7 == 0 ? " # tail\n" : "\n";
    }
    return s;
}

void check_same_labels(const RawLabels& a, const RawLabels& b) {
    CHECK(a.text == b.text);
    CHECK(a.line == b.line);
    CHECK(std::equal(a.numeric.begin(), a.numeric.end(), b.numeric.begin(), b.numeric.end(),
                     [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); }));
}

void check_same_tables(const Table& a, const Table& b) {
    CHECK(a.X.rows() == b.X.rows());
    CHECK(a.X.cols() == b.X.cols());
    CHECK(a.dropped_rows == b.dropped_rows);
    REQUIRE(a.X.is_sparse() == b.X.is_sparse());
    if (a.X.is_sparse()) {
        const SparseMatrix& x = a.X.sparse_ref();
        const SparseMatrix& y = b.X.sparse_ref();
        REQUIRE(x.nonZeros() == y.nonZeros());
        CHECK(std::equal(x.outerIndexPtr(), x.outerIndexPtr() + x.rows() + 1, y.outerIndexPtr()));
        CHECK(std::equal(x.innerIndexPtr(), x.innerIndexPtr() + x.nonZeros(), y.innerIndexPtr()));
        CHECK(std::equal(x.valuePtr(), x.valuePtr() + x.nonZeros(), y.valuePtr()));
    } else {
        CHECK(a.X.dense_ref() == b.X.dense_ref());
    }
    check_same_labels(*a.labels, *b.labels);
}

ReadOptions with_threads(int threads, MissingPolicy missing = MissingPolicy::error) {
    ReadOptions o;
    o.threads = threads;
    o.missing = missing;
    return o;
}

std::filesystem::path scratch_dir(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("kestrel-io-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace

TEST_SUITE("io") {

TEST_CASE("detect_format: by extension, else by sniffing the first data line") {
    CHECK(detect_format("a.csv", "1 1:2\n") == FileFormat::csv);
    CHECK(detect_format("A.TSV", "") == FileFormat::csv);
    CHECK(detect_format("x.libsvm", "label,a\n") == FileFormat::libsvm);
    CHECK(detect_format("a9a.t", "") == FileFormat::libsvm);
    CHECK(detect_format("dir/heart.scale", "") == FileFormat::libsvm);
    CHECK(detect_format("heart_scale", "# c\n\n+1 1:0.7 3:-1\n") == FileFormat::libsvm);
    CHECK(detect_format("data.txt", "1 2:1e-3 7:nan\n") == FileFormat::libsvm);
    CHECK(detect_format("data.txt", "label,a\n1,2\n") == FileFormat::csv);
    CHECK(detect_format("-", "1;2;3\n") == FileFormat::csv);
    CHECK(detect_format("data", "1\n2 1:5\n") == FileFormat::libsvm);
    CHECK(detect_format("data", "") == FileFormat::csv);
    CHECK(file_format_from_string("libsvm") == FileFormat::libsvm);
    CHECK(file_format_from_string("auto") == FileFormat::automatic);
    CHECK_THROWS_AS(file_format_from_string("parquet"), UsageError);

    ReadOptions forced;
    forced.format = FileFormat::libsvm;
    CHECK(read_table_from_buffer("1 2:3\n", "x.csv", forced).X.is_sparse());
    CHECK(read_table_from_buffer("1 2:3\n", "buffer", {}).X.is_sparse());
}

TEST_CASE("read_table: missing file, directory, real files") {
    const auto dir = scratch_dir("read");
    const std::string missing = (dir / "nope.csv").string();
    CHECK_THROWS_WITH_AS(read_table(missing, {}), (missing + ": cannot read: No such file or directory").c_str(),
                         DataError);
    CHECK_THROWS_WITH_AS(read_table(dir.string(), {}), (dir.string() + ": is a directory, not a data file").c_str(),
                         DataError);
    const std::string empty = (dir / "empty.csv").string();
    write_file_atomically(empty, "");
    CHECK_THROWS_WITH_AS(read_table(empty, {}), (empty + ": empty file: no header and no data rows").c_str(),
                         DataError);
    const std::string text = "label,a\n1,2\n";
    const std::string small = (dir / "small.data").string();
    write_file_atomically(small, text);
    const Table t = read_table(small, {});
    CHECK(t.source == small);
    CHECK(t.bytes == text.size());
    CHECK(row_of(t, 0) == std::vector<double>{2});
    std::filesystem::remove_all(dir);
}

TEST_CASE("read_table: a pipe is read whole instead of mapped") {
    const auto dir = scratch_dir("fifo");
    const std::string fifo = (dir / "data.fifo").string();
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::thread writer([&] { std::ofstream(fifo) << "1 2:5\n0 1:-1\n"; });
    const Table t = read_table(fifo, {});
    writer.join();
    CHECK(t.X.is_sparse());
    CHECK(row_of(t, 0) == std::vector<double>{0, 5});
    CHECK(row_of(t, 1) == std::vector<double>{-1, 0});
    CHECK(t.source == fifo);
    std::filesystem::remove_all(dir);
}

TEST_CASE("read_table: iris/train.csv from the shared data") {
    const Table t = read_table(KESTREL_SHARED_DATA "/iris/train.csv", {});
    CHECK(t.X.rows() == 120);
    CHECK(t.X.cols() == 4);
    CHECK(t.feature_names == std::vector<std::string>{"f1", "f2", "f3", "f4"});
    CHECK(t.label_name == "label");
    // First and last lines of the file: "0,4.4,2.9,1.4,0.2" and "0,4.6,3.1,1.5,0.2".
    CHECK(row_of(t, 0) == std::vector<double>{4.4, 2.9, 1.4, 0.2});
    CHECK(row_of(t, 119) == std::vector<double>{4.6, 3.1, 1.5, 0.2});
    CHECK(t.labels->text[1] == "2");
    CHECK(t.labels->line[119] == 121);
    CHECK(t.labels->all_integer());
}

TEST_CASE("read_table: heart_scale/train.libsvm equals its CSV twin") {
    const Table s = read_table(KESTREL_SHARED_DATA "/heart_scale/train.libsvm", {});
    REQUIRE(s.X.is_sparse());
    CHECK(s.X.rows() == 216);
    CHECK(s.X.cols() == 13);
    CHECK(s.X.sparse_ref().nonZeros() == 2701);  // awk '{n+=NF-1} END{print n}'
    // First line: "0 1:-0.458333 2:-1 3:0.333333 ... 10:-1 12:-1 13:-1" (no feature 11).
    CHECK(s.X.sparse_ref().coeff(0, 0) == -0.458333);
    CHECK(s.X.sparse_ref().coeff(0, 7) == 0.557252);
    CHECK(s.X.sparse_ref().coeff(0, 10) == 0);
    CHECK(std::count(s.labels->text.begin(), s.labels->text.end(), "1") == 96);
    const Table d = read_table(KESTREL_SHARED_DATA "/heart_scale/train.csv", {});
    CHECK(d.X.to_dense() == s.X.to_dense());
    CHECK(d.labels->text == s.labels->text);
}

TEST_CASE("parallel CSV reading gives the same table as one thread") {
    for (const bool quoted : {false, true}) {
        CAPTURE(quoted);
        const std::string text = make_csv(36000, quoted, true);
        REQUIRE(text.size() > 2'000'000);
        const auto drop = MissingPolicy::drop;
        const Table one = read_table_from_buffer(text, "g.csv", with_threads(1, drop));
        CHECK(one.X.rows() == 36000 - 357);  // rows with r % 101 == 5 are dropped
        CHECK(one.dropped_rows == 357);
        check_same_tables(one, read_table_from_buffer(text, "g.csv", with_threads(2, drop)));
        check_same_tables(one, read_table_from_buffer(text, "g.csv", with_threads(3, drop)));
    }
}

TEST_CASE("parallel reading reports the first error of the file whatever the threads") {
    const std::string text = make_csv(30000, false, false, "oops_early", "oops_late");
    std::string first, second;
    ReadOptions one = with_threads(1), two = with_threads(2);
    one.numeric_columns = two.numeric_columns = {"f2", "f6"};  // else their words make them categorical
    try { read_table_from_buffer(text, "g.csv", one); } catch (const DataError& e) { first = e.what(); }
    try { read_table_from_buffer(text, "g.csv", two); } catch (const DataError& e) { second = e.what(); }
    CHECK(first.find("\"oops_early\" in column 'f6' is not a number") != std::string::npos);
    CHECK(first == second);
}

TEST_CASE("parallel LIBSVM reading gives the same table as one thread, from a file too") {
    const std::string text = make_libsvm(40000, true);
    REQUIRE(text.size() > 2'000'000);
    const auto drop = MissingPolicy::drop;
    const Table one = read_table_from_buffer(text, "g.libsvm", with_threads(1, drop));
    CHECK(one.X.cols() == 30);
    CHECK(one.dropped_rows > 0);
    check_same_tables(one, read_table_from_buffer(text, "g.libsvm", with_threads(2, drop)));

    // The memory-mapped path (with pages released as chunks finish) agrees too.
    const auto dir = scratch_dir("parallel");
    const std::string path = (dir / "g.libsvm").string();
    write_file_atomically(path, text);
    check_same_tables(one, read_table(path, with_threads(2, drop)));
    const std::string csv = make_csv(30000, true, false);
    const std::string csv_path = (dir / "g.csv").string();
    write_file_atomically(csv_path, csv);
    check_same_tables(read_table_from_buffer(csv, "g.csv", with_threads(1)), read_table(csv_path, with_threads(2)));
    std::filesystem::remove_all(dir);
}

}  // TEST_SUITE

}  // namespace unit_io_data_reader_test
}  // namespace
