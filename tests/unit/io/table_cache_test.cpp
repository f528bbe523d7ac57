// The table cache (kestrel/io/table_cache.hpp) through read_table's ReadOptions::cache: the
// same table as the parse (dense with categories and names, sparse with query ids), read
// from the cache when it is valid, and rebuilt with a note naming the rule it failed when
// its input changed, when other read options were given, when another kestrel version or
// layout wrote it, and when it is corrupt or truncated; the byte-level errors of its decoder.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "cli/run_tool.hpp"
#include "io_test_util.hpp"
#include "kestrel/io/table_cache.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_table_cache_test {

using namespace kestrel;
using io_test::contains;

namespace {

const std::string kMixed =
    "label,colour,x,y\n"
    "yes,red,1.5,2\n"
    "no,blue,NA,3\n"
    "yes,red,4.25,-1\n";

const std::string kRanking =
    "2 qid:7 1:0.5 3:1 # d1\n"
    "0 qid:7 2:4\n"
    "1 qid:9 1:1\n";

void write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string slurp_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Read options with a cache, whose notes are collected in `notes`.
ReadOptions cached(const std::string& cache, std::vector<std::string>& notes) {
    ReadOptions o;
    o.missing = MissingPolicy::keep;
    o.cache = cache;
    o.cache_note = [&notes](const std::string& m) { notes.push_back(m); };
    return o;
}

void check_same_table(const Table& a, const Table& b) {
    REQUIRE(a.X.rows() == b.X.rows());
    REQUIRE(a.X.cols() == b.X.cols());
    CHECK(a.X.is_sparse() == b.X.is_sparse());
    const DenseMatrix da = a.X.to_dense(), db = b.X.to_dense();
    for (Index r = 0; r < da.rows(); ++r)
        for (Index c = 0; c < da.cols(); ++c) {
            CAPTURE(r);
            CAPTURE(c);
            CHECK((da(r, c) == db(r, c) || (std::isnan(da(r, c)) && std::isnan(db(r, c)))));
        }
    CHECK(a.feature_names == b.feature_names);
    CHECK(a.categories == b.categories);
    CHECK(a.label_name == b.label_name);
    CHECK(a.fields == b.fields);
    REQUIRE(a.labels.has_value() == b.labels.has_value());
    if (a.labels) {
        CHECK(a.labels->text == b.labels->text);
        CHECK(a.labels->line == b.labels->line);
        CHECK(a.labels->qid == b.labels->qid);
    }
}

}  // namespace

TEST_SUITE("io") {
    TEST_CASE("table cache: a CSV table with categories is written, then read back as the parse gave it") {
        test::ScratchDir dir("table_cache_csv");
        const std::string data = dir.file("mixed.csv", kMixed), cache = dir / "mixed.cache";
        std::vector<std::string> notes;
        const Table parsed = read_table(data, cached(cache, notes));
        CHECK(notes.empty());  // no note for a cache not there yet
        REQUIRE(std::filesystem::exists(cache));
        CHECK(slurp_file(cache).substr(0, 8) == "KSTRLTAB");
        CHECK(parsed.categories == CategoryLists{{"blue", "red"}, {}, {}});
        const Table again = read_table(data, cached(cache, notes));
        CHECK(notes.empty());
        check_same_table(parsed, again);
        CHECK(again.source == data);
        CHECK(io_test::row_of(again, 0) == std::vector<double>{1, 1.5, 2});
        CHECK(std::isnan(io_test::row_of(again, 1)[1]));
    }

    TEST_CASE("table cache: a valid cache is read instead of the file") {
        test::ScratchDir dir("table_cache_instead");
        const std::string data = dir.file("mixed.csv", kMixed), cache = dir / "c.bin";
        std::vector<std::string> notes;
        ReadOptions o = cached(cache, notes);
        // A cache made for this very file and options, but of other rows: what is read is it.
        Table other = read_table_from_buffer("label,colour,x,y\nno,green,9,8\n", data, o);
        write(cache, encode_table_cache(table_cache_key(data, o), other));
        const Table t = read_table(data, o);
        CHECK(notes.empty());
        REQUIRE(t.X.rows() == 1);
        CHECK(io_test::row_of(t, 0) == std::vector<double>{0, 9, 8});
        CHECK(t.categories[0] == std::vector<std::string>{"green"});
    }

    TEST_CASE("table cache: a sparse LIBSVM table keeps its query ids") {
        test::ScratchDir dir("table_cache_svm");
        const std::string data = dir.file("train.rank", kRanking), cache = dir / "r.cache";
        std::vector<std::string> notes;
        const Table parsed = read_table(data, cached(cache, notes));
        REQUIRE(parsed.X.is_sparse());
        const Table again = read_table(data, cached(cache, notes));
        check_same_table(parsed, again);
        CHECK(again.labels->qid == std::vector<double>{7, 7, 9});
        CHECK(io_test::row_of(again, 1) == std::vector<double>{0, 4, 0});
        CHECK(notes.empty());
    }

    TEST_CASE("table cache: rebuilt with a note when the input changed, the options differ, or the version") {
        test::ScratchDir dir("table_cache_stale");
        const std::string data = dir.file("mixed.csv", kMixed), cache = dir / "c.bin";
        std::vector<std::string> notes;
        (void)read_table(data, cached(cache, notes));
        // The input changed: one more row.
        write(data, kMixed + "no,blue,7,7\n");
        Table t = read_table(data, cached(cache, notes));
        CHECK(t.X.rows() == 4);
        REQUIRE(notes.size() == 1);
        CHECK(notes[0] == cache + ": rebuilt from " + data + ": its input changed since it was written");
        (void)read_table(data, cached(cache, notes));
        CHECK(notes.size() == 1);  // the rebuilt cache is valid
        // Same size, same bytes, another modification time: changed too.
        std::filesystem::last_write_time(data, std::filesystem::last_write_time(data) + std::chrono::seconds(5));
        (void)read_table(data, cached(cache, notes));
        REQUIRE(notes.size() == 2);
        CHECK(contains(notes[1], "its input changed"));
        // Other read options: the label column.
        ReadOptions by_colour = cached(cache, notes);
        by_colour.label_col = "colour";
        t = read_table(data, by_colour);
        REQUIRE(notes.size() == 3);
        CHECK(contains(notes[2], ": it was written with other read options"));
        CHECK(t.label_name == "colour");
        // Another kestrel version: the version string's first byte, at 64 + 4.
        std::string bytes = slurp_file(cache);
        bytes[68] = '9';
        write(cache, bytes);
        (void)read_table(data, by_colour);
        REQUIRE(notes.size() == 4);
        CHECK(contains(notes[3], ": it was written by kestrel 9"));
        // Another layout version.
        bytes = slurp_file(cache);
        const std::uint32_t seven = 7;
        std::memcpy(bytes.data() + 12, &seven, 4);
        write(cache, bytes);
        (void)read_table(data, by_colour);
        REQUIRE(notes.size() == 5);
        CHECK(contains(notes[4], ": it is in layout version 7, this kestrel's is 1"));
    }

    TEST_CASE("table cache: a truncated or damaged cache is rebuilt, naming the byte") {
        test::ScratchDir dir("table_cache_corrupt");
        const std::string data = dir.file("mixed.csv", kMixed), cache = dir / "c.bin";
        std::vector<std::string> notes;
        const Table parsed = read_table(data, cached(cache, notes));
        const std::string whole = slurp_file(cache);
        write(cache, whole.substr(0, whole.size() - 10));
        check_same_table(read_table(data, cached(cache, notes)), parsed);
        REQUIRE(notes.size() == 1);
        CHECK(contains(notes[0], ": it is corrupt (" + cache + ": byte " + std::to_string(whole.size() - 10) +
                                     ": the file has " + std::to_string(whole.size() - 10) + " bytes, its header says " +
                                     std::to_string(whole.size()) + ": truncated or grown)"));
        CHECK(slurp_file(cache) == whole);  // written anew, whole
        write(cache, "not a cache at all, but long enough to hold a header of sixty-four bytes.....");
        (void)read_table(data, cached(cache, notes));
        REQUIRE(notes.size() == 2);
        CHECK(contains(notes[1], "byte 0: not a kestrel table cache"));
    }

    TEST_CASE("table cache: the decoder's errors name the byte") {
        ReadOptions keep;
        keep.missing = MissingPolicy::keep;
        const Table t = read_table_from_buffer(kMixed, "m.csv", keep);
        const std::string bytes = encode_table_cache(TableCacheKey{}, t);
        check_same_table(decode_table_cache(bytes, "c"), t);
        CHECK_THROWS_WITH_AS(decode_table_cache(bytes.substr(0, 10), "c"),
                             "c: byte 10: it ends inside the 64-byte header: not a table cache, or truncated",
                             DataError);
        std::string big_count = bytes;
        // A row count far beyond what the file holds (the meta block's first 8 bytes equal to
        // the row count 3, after the zero key).
        const std::uint64_t rows = 3, huge = std::uint64_t{1} << 60;
        const auto at = big_count.find(std::string(reinterpret_cast<const char*>(&rows), 8), 64);
        REQUIRE(at != std::string::npos);
        std::memcpy(big_count.data() + at, &huge, 8);
        CHECK_THROWS_AS(decode_table_cache(big_count, "c"), DataError);
        std::string meta_size = bytes;
        const std::uint64_t too_big = bytes.size();
        std::memcpy(meta_size.data() + 16, &too_big, 8);
        CHECK_THROWS_WITH_AS(decode_table_cache(meta_size, "c"), "c: byte 16: the header's sizes do not add up to the file's",
                             DataError);
    }

    TEST_CASE("table cache: the labels' texts of a long table read back in row order; a damaged length names its byte") {
        std::string text = "label,x\n";
        for (int i = 0; i < 12000; ++i) text += "class_" + std::to_string(i % 37) + "_" + std::string(static_cast<std::size_t>(i % 19), 'z') + "," + std::to_string(i) + "\n";
        ReadOptions keep;
        keep.missing = MissingPolicy::keep;
        const Table t = read_table_from_buffer(text, "long.csv", keep);
        REQUIRE(t.labels->text.size() == 12000);
        const std::string bytes = encode_table_cache(TableCacheKey{}, t);
        const Table back = decode_table_cache(bytes, "c");
        check_same_table(back, t);
        CHECK(back.labels->text[11999] == "class_11_" + std::string(10, 'z'));
        // A label's length past the meta block is still the byte it is at, not a crash.
        std::string cut = bytes;
        const std::string last = back.labels->text[11999];
        const auto at = cut.find(last);
        REQUIRE(at != std::string::npos);
        const std::uint32_t huge = 1u << 30;
        std::memcpy(cut.data() + at - 4, &huge, 4);
        CHECK_THROWS_WITH_AS(decode_table_cache(cut, "c"),
                             ("c: byte " + std::to_string(at) + ": a string of 1073741824 bytes past the end of the meta block").c_str(),
                             DataError);
    }

    TEST_CASE("table cache: a table of 19 MB comes back from the file bit for bit (arrays advised to 2 MB pages)") {
        test::ScratchDir dir("table_cache_large");
        const std::string data = dir.file("small.csv", kMixed), cache = dir / "large.cache";
        std::vector<std::string> notes;
        const ReadOptions o = cached(cache, notes);
        // Made here rather than parsed (faster): the matrix and the label texts' vector are
        // above 4 MB, so each holds whole 2 MB pages to advise before pread fills them.
        constexpr Index kRows = 300000, kCols = 8;
        Table big;
        DenseMatrix X(kRows, kCols);
        for (Index r = 0; r < kRows; ++r)
            for (Index c = 0; c < kCols; ++c) X(r, c) = static_cast<double>(r * kCols + c) / 7.0 - 1000.0;
        X(kRows - 1, kCols - 1) = std::numeric_limits<double>::quiet_NaN();
        big.X = std::move(X);
        RawLabels& L = big.labels.emplace();
        for (Index r = 0; r < kRows; ++r) {
            L.text.push_back(r % 3 == 0 ? "class_" + std::to_string(r) + "_with_a_long_name" : std::to_string(r % 3));
            L.numeric.push_back(r % 3 == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(r % 3));
            L.line.push_back(static_cast<std::uint64_t>(r) + 2);
        }
        big.feature_names = {"a", "b", "c", "d", "e", "f", "g", "h"};
        big.label_name = "label";
        write_table_cache(cache, table_cache_key(data, o), big);
        const Table back = read_table(data, o);
        CHECK(notes.empty());
        REQUIRE(back.X.rows() == kRows);
        REQUIRE(back.X.cols() == kCols);
        const DenseView a = big.X.dense_ref(), b = back.X.dense_ref();
        CHECK(std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(double)) == 0);
        REQUIRE(back.labels.has_value());
        CHECK(back.labels->text == L.text);
        CHECK(std::memcmp(back.labels->numeric.data(), L.numeric.data(), L.numeric.size() * sizeof(double)) == 0);
        CHECK(back.labels->line == L.line);
        CHECK(back.feature_names == big.feature_names);
    }

    TEST_CASE("table cache: refused for standard input and for the data file itself; limits still apply") {
        test::ScratchDir dir("table_cache_refuse");
        const std::string data = dir.file("mixed.csv", kMixed);
        ReadOptions o;
        o.missing = MissingPolicy::keep;
        o.cache = dir / "c.bin";
        CHECK_THROWS_AS(read_table("-", o), UsageError);
        ReadOptions self = o;
        self.cache = data;
        CHECK_THROWS_AS(read_table(data, self), UsageError);
        CHECK(slurp_file(data) == kMixed);
        (void)read_table(data, o);
        o.max_rows = 2;
        CHECK_THROWS_WITH_AS(read_table(data, o), (data + ": 3 data rows, more than max_rows 2").c_str(), DataError);
    }
}

}  // namespace unit_io_table_cache_test
}  // namespace
