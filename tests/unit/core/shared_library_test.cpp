// Libraries loaded on first use (core/shared_library.hpp): a clear error when one is
// missing, and executables that do not link the heavy ones at all.
#include "kestrel/core/shared_library.hpp"

#include <doctest/doctest.h>

#include <string>

#include "cli/run_tool.hpp"
#include "kestrel/core/error.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_core_shared_library_test {

using namespace kestrel;

TEST_SUITE("core.shared_library") {
    TEST_CASE("a missing library is one error naming it, its user and its package") {
        try {
            const SharedLibrary lib("libkestrel-no-such-library.so.7", "the frobnicator", "kestrel-frob");
            FAIL("loading a missing library did not throw");
        } catch (const Error& e) {
            CHECK(e.code() == ExitCode::internal);
            const std::string what = e.what();
            CHECK(what.find("the frobnicator needs libkestrel-no-such-library.so.7 at run time") == 0);
            CHECK(what.find("(Debian package kestrel-frob)") != std::string::npos);
            CHECK(what.find('\n') == std::string::npos);
        }
    }

    TEST_CASE("a missing symbol is the same error, naming the symbol") {
        const SharedLibrary libm("libm.so.6", "a test", "libc6");
        double (*cosine)(double) = nullptr;
        libm.bind(cosine, "cos");
        REQUIRE(static_cast<bool>(cosine));
        CHECK(cosine(0.0) == 1.0);
        void (*absent)() = nullptr;
        CHECK_THROWS_WITH_AS(libm.bind(absent, "kestrel_no_such_symbol"),
                             doctest::Contains("libm.so.6 has no symbol kestrel_no_such_symbol"), Error);
    }

    // OpenBLAS and CLP cost every process that links them its start-up (relocations and
    // OpenBLAS's thread pool); they are opened by the solvers that use them instead.
    TEST_CASE("the executables do not link OpenBLAS, LAPACK or CLP") {
        for (const char* tool :
             {"kestrel-train", "kestrel-predict", "kestrel-cv", "kestrel-gridsearch", "kestrel-select", "kestrel-explain",
              "kestrel-auto"}) {
            CAPTURE(tool);
            const auto r = kestrel::test::run_tool(std::string("readelf -d '") + KESTREL_BIN_DIR + "/" + tool + "'");
            REQUIRE(r.exit_code == 0);
            CHECK(r.out.find("(NEEDED)") != std::string::npos);
            for (const char* lib : {"libopenblas", "liblapack", "libblas", "libClp", "libCoinUtils"}) {
                CAPTURE(lib);
                CHECK(r.out.find(lib) == std::string::npos);
            }
        }
    }
}

}  // namespace unit_core_shared_library_test
}  // namespace
