// The memory limits' arithmetic: byte sizes as written on the command line, sizes
// as written in messages, and the checks that turn a too-large allocation into a
// DataError naming what was needed.
#include <doctest/doctest.h>

#include "command_error.hpp"
#include "kestrel/core/dataset.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_core_memory_test {

using namespace kestrel;

TEST_SUITE("core.memory") {
    TEST_CASE("parse_byte_size: bytes and binary suffixes") {
        CHECK(parse_byte_size("1000", "--max-memory") == 1000);
        CHECK(parse_byte_size("64k", "--max-memory") == 64 * 1024);
        CHECK(parse_byte_size("512M", "--max-memory") == 512ull << 20);
        CHECK(parse_byte_size("512MB", "--max-memory") == 512ull << 20);
        CHECK(parse_byte_size("2G", "--max-memory") == 2ull << 30);
        CHECK(parse_byte_size("1.5g", "--max-memory") == 3ull << 29);
        CHECK(parse_byte_size("1T", "--max-memory") == 1ull << 40);
        for (const char* bad : {"", "G", "-1", "0", "1.5X", "12 G", "1e9", "99999999999999999999T", "0.1"}) {
            CAPTURE(bad);
            CHECK_THROWS_WITH_AS(parse_byte_size(bad, "--max-memory"), doctest::Contains("--max-memory must be a size"),
                                 UsageError);
        }
    }

    TEST_CASE("format_bytes: one decimal, powers of 1024, no locale") {
        CHECK(format_bytes(0) == "0 bytes");
        CHECK(format_bytes(1) == "1 byte");
        CHECK(format_bytes(1023) == "1023 bytes");
        CHECK(format_bytes(1024) == "1.0 KB");
        CHECK(format_bytes(1536) == "1.5 KB");
        CHECK(format_bytes(3ull << 29) == "1.5 GB");
        CHECK(format_bytes(5ull << 40) == "5.0 TB");
    }

    TEST_CASE("check_memory: a user limit, then the memory available") {
        CHECK_NOTHROW(check_memory(100, 100, "x"));
        CHECK_COMMAND_THROWS_WITH_AS(check_memory(101, 100, "reading t.csv"),
                             "reading t.csv needs about 101 bytes, more than --max-memory 100 bytes", DataError);
        const std::uint64_t available = available_memory();
        CHECK(available > 0);  // Linux: /proc/meminfo at least
        CHECK_NOTHROW(check_memory(1 << 20, 0, "small"));
        CHECK_THROWS_WITH_AS(check_memory(available * 4 + (1ull << 40), 0, "densifying"),
                             doctest::Contains("of memory available"), DataError);
    }

    TEST_CASE("densifying a sparse matrix checks the memory before allocating") {
        // Two rows, an index of 2 billion: 29.8 GB dense. Refused before any allocation
        // (a LIBSVM file with one huge index given to a model without a sparse path).
        // Reserved per row: Eigen's plain insert() reserves twice the width, and
        // setFromTriplets goes through a column-major copy as wide as the matrix.
        SparseMatrix m(2, 2000000000);
        m.reserve(Eigen::VectorXi::Constant(2, 1));
        m.insert(0, 1999999999) = 1.0;
        m.makeCompressed();
        const Features X(std::move(m));
        if (available_memory() < (30ull << 30)) {
            CHECK_THROWS_WITH_AS(X.to_dense(), doctest::Contains("densifying 2 rows x 2000000000 features"), DataError);
            DenseMatrix scratch;
            CHECK_THROWS_AS(X.dense(scratch), DataError);
        }
    }
}

}  // namespace unit_core_memory_test
}  // namespace
