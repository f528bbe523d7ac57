// TableStream's pieces: for any piece size, the pieces hold every record once, in order,
// each after the header, and none ends inside a quoted field, however the quotes, commas
// and line breaks fall against the size.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "kestrel/io/table_stream.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_table_stream_test {

using namespace kestrel;

TEST_SUITE("io") {

TEST_CASE("TableStream: pieces of every size end on records, never inside quotes") {
    const std::string header = "id,note,label\n";
    const std::string body =
        "1,plain,a\n"
        "2,\"a, comma\",b\n"
        "3,\"two\nlines\",a\n"
        "4,\"\"\"quoted\"\"\nand\nthree\",b\n"
        "5,,a\n"
        "6,\"\",b\n"
        "7,\"x\ny\",a\n";
    const auto path = std::filesystem::temp_directory_path() / ("kestrel_table_stream_" + std::to_string(::getpid()) + ".csv");
    std::ofstream(path) << header << body;
    // The records' ends: where a piece may stop.
    const std::vector<std::size_t> ends = {10, 25, 41, 68, 73, 80, 90};
    for (std::size_t block = 1; block <= body.size() + 2; ++block) {
        CAPTURE(block);
        ReadOptions opts;
        opts.format = FileFormat::csv;
        TableStream stream(path.string(), opts, block);
        TableStream::Piece piece;
        std::string joined;
        while (stream.next(piece)) {
            REQUIRE(piece.text.rfind(header, 0) == 0);
            joined += piece.text.substr(header.size());
            // The piece ends at the first record end at or past the block size.
            std::size_t expected = body.size();
            for (std::size_t e : ends)
                if (e >= joined.size() - (piece.text.size() - header.size()) + block) {
                    expected = e;
                    break;
                }
            CHECK(joined.size() == expected);
        }
        CHECK(joined == body);
    }
    std::filesystem::remove(path);
}

}

}  // namespace unit_io_table_stream_test
}  // namespace
