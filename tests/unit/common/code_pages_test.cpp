// Where a BinnedMatrix's codes live (common/code_pages.hpp, docs/large-data.md "Pages on
// disk"): heap memory or a mapped temporary file, unlinked at once, zero-filled, its failures
// a DataError naming the directory; a matrix in a file holds the codes of one in memory.
#include "kestrel/common/code_pages.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/run_tool.hpp"
#include "kestrel/common/bin_cuts.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_common_code_pages_test {

using namespace kestrel;

TEST_SUITE("common.code_pages") {
    TEST_CASE("code pages: a mapped file of zeros, written and read, no file left in its directory") {
        const test::ScratchDir dir("code_pages_file");
        CodePages pages = CodePages::in_file(10000, dir.path.string());
        CHECK(pages.in_file());
        CHECK(pages.directory() == dir.path.string());
        REQUIRE(pages.size() == 10000);
        bool zero = true;
        for (std::size_t i = 0; i < pages.size(); ++i) zero = zero && pages.data()[i] == std::byte{0};
        CHECK(zero);
        for (std::size_t i = 0; i < pages.size(); ++i) pages.data()[i] = static_cast<std::byte>(i % 251);
        pages.advise(CodePages::Access::random);
        // Unlinked as soon as it was made: nothing in the directory while the pages are alive.
        CHECK(std::filesystem::is_empty(dir.path));
        const std::byte* at = pages.data();
        CodePages moved = std::move(pages);
        CHECK(moved.data() == at);
        CHECK(moved.in_file());
        CHECK(pages.size() == 0);  // NOLINT(bugprone-use-after-move): the moved-from state is the point
        bool same = true;
        for (std::size_t i = 0; i < moved.size(); ++i) same = same && moved.data()[i] == static_cast<std::byte>(i % 251);
        CHECK(same);
        CHECK(CodePages::in_file(0, dir.path.string()).size() == 0);
    }

    TEST_CASE("code pages: will_need is advice only: any range, in a file or in memory, leaves the bytes as written") {
        const test::ScratchDir dir("code_pages_will_need");
        for (const bool file : {true, false}) {
            CodePages pages =
                file ? CodePages::in_file(3 * 4096 + 100, dir.path.string()) : CodePages::in_memory(3 * 4096 + 100);
            for (std::size_t i = 0; i < pages.size(); ++i) pages.data()[i] = static_cast<std::byte>(i % 253);
            pages.advise(CodePages::Access::random);
            // An unaligned start, a range past the end, a start past the end, an empty range.
            pages.will_need(4097, 10);
            pages.will_need(2 * 4096 + 1, 1 << 20);
            pages.will_need(pages.size() + 5, 100);
            pages.will_need(0, 0);
            bool same = true;
            for (std::size_t i = 0; i < pages.size(); ++i)
                same = same && pages.data()[i] == static_cast<std::byte>(i % 253);
            CHECK_MESSAGE(same, (file ? "in a file" : "in memory"));
        }
    }

    TEST_CASE("code pages: a directory that cannot hold the file is a DataError naming it") {
        const std::string missing = "/nonexistent-kestrel-directory";
        try {
            (void)CodePages::in_file(4096, missing);
            FAIL("no error");
        } catch (const DataError& e) {
            const std::string what = e.what();
            CHECK(what.rfind(missing + ": cannot hold 4.0 KB of the quantized store on disk: cannot make a temporary file: ", 0) == 0);
        }
    }

    TEST_CASE("code pages: the default directory is TMPDIR, else /tmp") {
        const char* old = std::getenv("TMPDIR");
        const std::string kept = old ? old : "";
        ::setenv("TMPDIR", "/var/tmp", 1);
        CHECK(CodePages::default_directory() == "/var/tmp");
        ::unsetenv("TMPDIR");
        CHECK(CodePages::default_directory() == "/tmp");
        if (old) ::setenv("TMPDIR", kept.c_str(), 1);
    }

    TEST_CASE("code pages: a binned matrix in a mapped file holds the codes of the one in memory, both widths") {
        const test::ScratchDir dir("code_pages_matrix");
        Rng rng(3);
        DenseMatrix X(700, 3);
        for (Index i = 0; i < X.rows(); ++i)
            for (Index j = 0; j < X.cols(); ++j) X(i, j) = i % 11 == 0 ? std::nan("") : rng.normal();
        const Features F(X);
        for (const int max_bins : {255, 1000}) {
            CAPTURE(max_bins);
            const BinCuts cuts = BinCuts::fit(F, {}, max_bins, 1, 2);
            CHECK(cuts.fits_byte() == (max_bins == 255));
            const BinnedMatrix memory(cuts, F, {}, 2);
            const std::uint64_t bytes = BinnedMatrix::code_bytes(cuts, 700, 3);
            CHECK(bytes == 700 * 3 * (max_bins == 255 ? 1U : 2U));
            BinnedMatrix file(cuts, 700, 3, CodePages::in_file(bytes, dir.path.string()));
            CHECK(file.pages().in_file());
            CHECK_FALSE(memory.pages().in_file());
            // Two blocks, as the store's read writes them.
            file.fill_rows(cuts, Features(DenseMatrix(X.topRows(300))), 0, 2);
            file.fill_rows(cuts, Features(DenseMatrix(X.bottomRows(400))), 300, 2);
            CHECK(file.wide() == memory.wide());
            bool same = true;
            for (Index f = 0; f < 3; ++f)
                for (Index i = 0; i < 700; ++i) same = same && file.bin(f, i) == memory.bin(f, i);
            CHECK(same);
            const std::vector<Index> some{5, 0, 699};
            const BinnedMatrix subset = file.rows_subset(some);
            CHECK_FALSE(subset.pages().in_file());
            for (Index f = 0; f < 3; ++f)
                for (Index i = 0; i < 3; ++i) CHECK(subset.bin(f, i) == memory.bin(f, some[static_cast<std::size_t>(i)]));
            CHECK_THROWS_AS(BinnedMatrix(cuts, 700, 3, CodePages::in_memory(bytes - 1)), InternalError);
        }
        CHECK(std::filesystem::is_empty(dir.path));
    }
}

}  // namespace unit_common_code_pages_test
}  // namespace
