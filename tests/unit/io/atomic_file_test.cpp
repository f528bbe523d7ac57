// Atomic output files: the content lands whole, no temporary file is left behind,
// and failures throw OutputError naming the path.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "io_test_util.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/io/data_reader.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_io_atomic_file_test {

using namespace kestrel;

namespace {

std::filesystem::path scratch_dir() {
    const auto dir = std::filesystem::temp_directory_path() / ("kestrel-atomic-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

std::vector<std::string> entries(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

TEST_SUITE("io") {

TEST_CASE("atomic_file: writes the content, replaces the old file, leaves no temp file") {
    for (const Durability durability : {Durability::renamed, Durability::synced}) {
        CAPTURE(static_cast<int>(durability));
        const auto dir = scratch_dir();
        const std::string path = (dir / "model.json").string();
        write_file_atomically(path, "first version, longer than the second\n", durability);
        write_file_atomically(path, std::string("second\0with nul", 15), durability);
        CHECK(read_whole_file(path) == std::string("second\0with nul", 15));
        CHECK(entries(dir) == std::vector<std::string>{"model.json"});
        std::filesystem::remove_all(dir);
    }
}

TEST_CASE("atomic_file: an unwritable path throws OutputError and leaves nothing") {
    const auto dir = scratch_dir();
    const std::string missing_dir = (dir / "no" / "such" / "out.txt").string();
    CHECK_THROWS_WITH_AS(write_file_atomically(missing_dir, "x"),
                         ("cannot write " + missing_dir + ": No such file or directory").c_str(), OutputError);
    // A directory in the way: the rename fails, the temporary file is removed.
    std::filesystem::create_directories(dir / "taken");
    const std::string taken = (dir / "taken").string();
    CHECK_THROWS_AS(write_file_atomically(taken, "x"), OutputError);
    CHECK(entries(dir) == std::vector<std::string>{"taken"});
    std::filesystem::remove_all(dir);
}

TEST_CASE("atomic_file: read_whole_file errors name the file") {
    CHECK_THROWS_WITH_AS(read_whole_file("/nonexistent/kestrel/file"),
                         "/nonexistent/kestrel/file: cannot read: No such file or directory", DataError);
    CHECK_THROWS_WITH_AS(read_whole_file("/"), "/: is a directory, not a file", DataError);
}

TEST_CASE("atomic_file: \"-\" is standard output, and standard input for the readers") {
    const auto dir = scratch_dir();
    const std::string path = (dir / "stream.txt").string();
    // Standard output redirected to a file for the duration of the write.
    std::fflush(stdout);
    const int saved_out = ::dup(STDOUT_FILENO);
    const int out = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(out >= 0);
    ::dup2(out, STDOUT_FILENO);
    write_file_atomically("-", "label,a\n1,2.5\n");
    std::fflush(stdout);
    ::dup2(saved_out, STDOUT_FILENO);
    ::close(out);
    ::close(saved_out);
    CHECK(read_whole_file(path) == "label,a\n1,2.5\n");

    // The same file as standard input: read_table("-") names it <stdin>.
    const int saved_in = ::dup(STDIN_FILENO);
    const int in = ::open(path.c_str(), O_RDONLY);
    REQUIRE(in >= 0);
    ::dup2(in, STDIN_FILENO);
    const Table t = read_table("-", {});
    ::dup2(saved_in, STDIN_FILENO);
    ::close(in);
    ::close(saved_in);
    CHECK(t.source == "<stdin>");
    CHECK(t.labels->source == "<stdin>");
    CHECK(t.bytes == 14);
    CHECK(t.X.dense_ref()(0, 0) == 2.5);
    std::filesystem::remove_all(dir);
}

}  // TEST_SUITE

}  // namespace unit_io_atomic_file_test
}  // namespace
