// Replays the fuzz seed corpora and every input a fuzzer ever crashed on
// (tests/fuzz/corpus/<target>/, tests/fuzz/regressions/<target>/) through the same
// entry functions the libFuzzer targets call, in the normal test binary. An input may
// be rejected with a kestrel error (the entries swallow those); any other exception,
// a crash or an input that takes seconds is a failure.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz/fuzz_entries.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_fuzz_replay_test {

namespace {

namespace fs = std::filesystem;

// Generous: the sanitizer build runs these too, several times slower.
constexpr double kMaxSecondsPerInput = 10.0;

std::vector<fs::path> inputs_of(const std::string& target) {
    std::vector<fs::path> files;
    for (const char* kind : {"corpus", "regressions"}) {
        const fs::path dir = fs::path(KESTREL_SOURCE_DIR) / "tests" / "fuzz" / kind / target;
        if (!fs::is_directory(dir)) continue;
        for (const auto& e : fs::recursive_directory_iterator(dir))
            if (e.is_regular_file() && e.path().filename().string().front() != '.') files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

void replay(const std::string& target) {
    const auto& all = kestrel::fuzz::targets();
    const auto it = std::find_if(all.begin(), all.end(), [&](const auto& t) { return target == t.name; });
    REQUIRE(it != all.end());
    const auto files = inputs_of(target);
    CHECK_MESSAGE(!files.empty(), "no seed corpus for fuzz target " << target);
    for (const auto& f : files) {
        const std::string input = slurp(f);
        const std::string name = fs::relative(f, KESTREL_SOURCE_DIR).string();
        INFO("input: " << name);
        const auto start = std::chrono::steady_clock::now();
        try {
            it->entry(input);
        } catch (const std::exception& e) {
            FAIL_CHECK(name << ": " << e.what());
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        CHECK_MESSAGE(seconds < kMaxSecondsPerInput, name << " took " << seconds << " s");
    }
}

}  // namespace

TEST_SUITE("fuzz replay") {
    TEST_CASE("fuzz replay: csv_reader") { replay("csv_reader"); }
    TEST_CASE("fuzz replay: libsvm_reader") { replay("libsvm_reader"); }
    TEST_CASE("fuzz replay: model_json") { replay("model_json"); }
    TEST_CASE("fuzz replay: libsvm_model") { replay("libsvm_model"); }
    TEST_CASE("fuzz replay: grid") { replay("grid"); }
    TEST_CASE("fuzz replay: kernel_spec") { replay("kernel_spec"); }
    TEST_CASE("fuzz replay: params") { replay("params"); }
    TEST_CASE("fuzz replay: compressed_input") { replay("compressed_input"); }
    TEST_CASE("fuzz replay: table_cache") { replay("table_cache"); }
}

}  // namespace unit_fuzz_replay_test
}  // namespace
