// read_file_shard (kestrel-train --shard): for any number of parts, every record of the
// file is in exactly one part, in file order, the header is in front of each part, and
// each part parses with the whole file's line numbers when the parts before it say how
// many lines they hold.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "io_test_util.hpp"
#include "kestrel/io/file_shard.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_file_shard_test {

using namespace kestrel;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / ("kestrel_shard_" + std::to_string(::getpid()) + name);
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

}  // namespace

TEST_CASE("file shards: every record once, in order, for 1 to 7 parts; line numbers of the whole file") {
    std::string csv = "y,a,b\n";
    for (int i = 0; i < 23; ++i)  // rows of varied lengths
        csv += std::to_string(i) + "," + std::string(static_cast<std::size_t>(1 + (i * 7) % 13), '1') + ",0.5\n";
    csv += "23,oops,1\n";  // line 25
    const std::string path = write_temp("a.csv", csv);
    ReadOptions numeric;
    numeric.numeric_columns = {"a"};  // else "oops" would make column a categorical
    for (int parts = 1; parts <= 7; ++parts) {
        CAPTURE(parts);
        std::string joined;
        std::uint64_t line = 2;  // the first record's line
        int bad_part = -1;
        for (int k = 0; k < parts; ++k) {
            const FileShard s = read_file_shard(path, numeric, k, parts);
            REQUIRE(s.text.rfind("y,a,b\n", 0) == 0);  // the header in front
            CHECK(s.header_lines == 1);
            joined += s.text.substr(6);
            try {
                const Table t = parse_file_shard(s, line);
                CHECK(t.X.cols() == 2);
            } catch (const DataError& e) {
                // The bad cell is reported at its line in the whole file, by its part.
                CHECK(std::string(e.what()).find(path + ":25:2:") == 0);
                bad_part = k;
            }
            line += s.record_lines;
        }
        CHECK(joined == csv.substr(6));
        CHECK(bad_part == parts - 1);  // the last record is in the last part
    }
    std::remove(path.c_str());
}

TEST_CASE("file shards: LIBSVM without a header; a part with no record start is empty; no final newline") {
    const std::string text = "1 1:0.5 3:2\n-1 2:1\n1 1:1 2:1 3:1 4:1 5:1 6:1 7:1 8:1 9:1 10:1 11:1 12:1";
    const std::string path = write_temp("b.libsvm", text);
    std::string joined;
    int empty = 0;
    Index rows = 0;
    std::uint64_t line = 1;
    for (int k = 0; k < 6; ++k) {
        const FileShard s = read_file_shard(path, ReadOptions{}, k, 6);
        CHECK(s.header_lines == 0);
        joined += s.text;
        empty += s.text.empty();
        const Table t = parse_file_shard(s, line);
        rows += t.X.rows();
        line += s.record_lines;
    }
    CHECK(joined == text);
    CHECK(rows == 3);
    CHECK(empty >= 3);
    std::remove(path.c_str());
    CHECK_THROWS_AS(read_file_shard("-", ReadOptions{}, 0, 2), UsageError);
}

}  // namespace unit_io_file_shard_test
}  // namespace
