// Hostile inputs to the commands and the data readers (issue 51): outputs that are not
// regular files, numbers past every sane bound, inputs that never end or never break a
// line, and untrusted text echoed into errors. Each case failed before its fix; the
// bad-input corpus (tests/bad-inputs/MANIFEST.tsv) holds those a manifest line can say.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/shown_text.hpp"
#include "kestrel/io/table_stream.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_hostile_input_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::run;
using kestrel::test::run_tool;
using kestrel::test::ScratchDir;
namespace fs = std::filesystem;

namespace {

// AddressSanitizer reserves terabytes of address space at start-up, so a process under
// `ulimit -v` cannot start: the sanitizer build runs these commands without that cap (the
// timeouts still bound them) and skips the test that needs the cap to make memory short.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitizedBuild = true;
const std::string kAddressCap;
#else
constexpr bool kSanitizedBuild = false;
const std::string kAddressCap = "ulimit -v 4000000; ";
#endif

std::string q(const std::string& s) { return "'" + s + "'"; }

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

std::string iris() { return test::repo_path("data/iris/train.csv"); }

// A tool by its full path, for command lines where it is not the first command.
std::string tool(const std::string& name) { return q(test::bin(name)); }

std::string train_iris_model(const ScratchDir& dir) {
    const auto model = dir / "m.json";
    REQUIRE(run_tool("kestrel-train -q -m logistic " + q(iris()) + " -o " + q(model)).exit_code == 0);
    return model;
}

}  // namespace

TEST_SUITE("cli.hostile") {
    TEST_CASE("shown_text: control bytes escaped, long text cut with its length") {
        CHECK(shown_text("ab\ncd\x1b[31m") == "ab\\x0acd\\x1b[31m");
        CHECK(shown_text(std::string(100, 'x')) == std::string(40, 'x') + "...(100 bytes)");
        CHECK(shown_text("\x7f\xc2\x9b ok \xc3\xa9") == "\\x7f\\xc2\\x9b ok \xc3\xa9");  // DEL, C1 CSI; é kept
        // The cut never splits a UTF-8 character.
        CHECK(shown_text(std::string(39, 'a') + "\xc3\xa9" + "zz", 40) == std::string(39, 'a') + "...(43 bytes)");
        CHECK(safe_message(std::string(5000, 'y')).size() < 2100);
    }

    TEST_CASE("-o through a link to /proc/self/fd/1 (as /dev/stdout is) writes in place; the link stays") {
        // /dev/stdout itself is never touched here: a link of the same shape in a scratch
        // directory stands for it (before the fix, the temporary file was renamed over it).
        ScratchDir dir("hostile_stdout");
        const auto model = train_iris_model(dir);
        const auto link = dir / "stdout_link";
        fs::create_symlink("/proc/self/fd/1", link);
        const auto out = dir / "out.csv";
        auto r = run_tool("kestrel-predict " + q(model) + " " + q(iris()) + " -o " + q(link) + " > " + q(out));
        CHECK(r.exit_code == 0);
        CHECK(fs::is_symlink(link));
        CHECK(fs::read_symlink(link) == "/proc/self/fd/1");
        const std::string got = test::slurp(out);
        CHECK(lines(got) == 121);
        CHECK(got.rfind("prediction\n", 0) == 0);
        // Appended where stdout's offset is (>>), after what was there.
        std::ofstream(dir / "app.csv") << "first\n";
        r = run_tool("kestrel-predict " + q(model) + " " + q(iris()) + " -o " + q(link) + " >> " + q(dir / "app.csv"));
        CHECK(r.exit_code == 0);
        CHECK(test::slurp(dir / "app.csv") == "first\n" + got);
        // /dev/fd/1 and /proc/self/fd/1 as given.
        for (const char* target : {"/dev/fd/1", "/proc/self/fd/1"}) {
            CAPTURE(target);
            r = run_tool("kestrel-predict " + q(model) + " " + q(iris()) + " -o " + target + " > " + q(dir / "fd.csv"));
            CHECK(r.exit_code == 0);
            CHECK(test::slurp(dir / "fd.csv") == got);
        }
        CHECK(fs::is_symlink("/dev/stdout"));
    }

    TEST_CASE("-o on a FIFO writes through it; a link to a regular file replaces that file and keeps the link") {
        ScratchDir dir("hostile_fifo");
        const auto model = train_iris_model(dir);
        const auto expected = run_tool("kestrel-predict " + q(model) + " " + q(iris())).out;
        REQUIRE(lines(expected) == 121);
        const auto fifo = dir / "fifo";
        REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
        // The reader is bounded: a predict that fails before it opens the FIFO would leave a
        // plain `cat` waiting for a writer for ever. The exit code is predict's.
        auto r = run_tool("timeout 60 cat " + q(fifo) + " > " + q(dir / "got.csv") + " & " + tool("kestrel-predict") + " " +
                          q(model) + " " + q(iris()) + " -o " + q(fifo) + "; rc=$?; wait; exit $rc");
        CHECK(r.exit_code == 0);
        CHECK(fs::is_fifo(fifo));
        CHECK(test::slurp(dir / "got.csv") == expected);

        std::ofstream(dir / "real.csv") << "old\n";
        fs::create_symlink("real.csv", dir / "link.csv");
        r = run_tool("kestrel-predict " + q(model) + " " + q(iris()) + " -o " + q(dir / "link.csv"));
        CHECK(r.exit_code == 0);
        CHECK(fs::is_symlink(dir / "link.csv"));
        CHECK(test::slurp(dir / "real.csv") == expected);
        // A dangling link: the file it names is made.
        fs::create_symlink("made.csv", dir / "dangling.csv");
        r = run_tool("kestrel-predict " + q(model) + " " + q(iris()) + " -o " + q(dir / "dangling.csv"));
        CHECK(r.exit_code == 0);
        CHECK(fs::is_symlink(dir / "dangling.csv"));
        CHECK(test::slurp(dir / "made.csv") == expected);
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(dir.path)) names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        CHECK(names == std::vector<std::string>{"dangling.csv", "fifo", "got.csv", "link.csv", "m.json", "made.csv",
                                                "real.csv"});  // no temporary file left
    }

    TEST_CASE("integers past int's range are usage errors naming the parameter and its range") {
        auto r = run(run_train, "kestrel-train", {"-m", "logistic", "-p", "max_iter=1000000000000", iris(), "-o", "-"});
        CHECK(r.code == 1);
        CHECK(r.err == "kestrel-train: parameter max_iter=1000000000000 of model logistic is out of range (valid: [1, "
                       "2147483647])\n");
        r = run(run_train, "kestrel-train", {"-m", "tree", "-p", "max_depth=-5000000000", iris(), "-o", "-"});
        CHECK(r.code == 1);
        CHECK(r.err.find("parameter max_depth=-5000000000 of model tree is out of range") != std::string::npos);
    }

    TEST_CASE("counts that size splits, repeats and threads are range-checked (exit 1, never 3)") {
        const std::string data = iris();
        struct Case {
            Command body;
            const char* program;
            std::vector<std::string> args;
            const char* message;
        };
        ScratchDir dir("hostile_counts");
        const auto model = train_iris_model(dir);
        const std::vector<Case> cases = {
            {run_cv, "kestrel-cv", {"-m", "logistic", "-k", "-3", data},
             "kestrel-cv: -k -3: expected a number of folds from 2 to 2147483647, or n for one per row\n"},
            {run_cv, "kestrel-cv", {"-m", "logistic", "-k", "1", data}, "-k 1: expected a number of folds from 2"},
            {run_cv, "kestrel-cv", {"-m", "logistic", "--shuffle-split", "1000000000", data},
             "--shuffle-split: 1000000000 is not a whole number from 1 to 100000"},
            {run_cv, "kestrel-cv", {"-m", "logistic", "--repeat", "1000000000", data},
             "--repeat: 1000000000 is not a whole number from 1 to 10000"},
            {run_cv, "kestrel-cv", {"-m", "logistic", "--threads", "65330", data},
             "--threads: 65330 is not 0 (all cores) or a number of threads from 1 to 1024"},
            {run_explain, "kestrel-explain", {model, data, "--importance", "--repeats", "1000000000"},
             "--repeats: 1000000000 is not a whole number from 1 to 10000"},
            {run_select, "kestrel-select", {"--method", "permutation", "-m", model, "--heldout", data, "--repeats", "0"},
             "--repeats: 0 is not a whole number from 1 to 10000"},
            {run_select, "kestrel-select", {"-m", "logistic", "-k", "-3", data}, "--folds: -3 is not a whole number from 2"},
            {run_gridsearch, "kestrel-gridsearch", {"-m", "logistic", "--n-iter", "1000000000000", data},
             "--n-iter: 1000000000000 is not a whole number from 1 to 1000000"},
            {run_cv, "kestrel-cv", {"-m", "logistic", "-k", "1000000000", data},
             "-k 1000000000: more folds than rows (120)"},
            {run_select, "kestrel-select", {"-m", "logistic", "-k", "1000000000", data},
             "-k 1000000000: more folds than rows (120)"},
            {run_gridsearch, "kestrel-gridsearch", {"-m", "logistic", "-g", "C=1,2", "--outer-k", "1000000000", data},
             "--outer-k: 1000000000 is not a whole number from 2 to 100000"},
            {run_auto, "kestrel-auto", {data, "--max-evals", "-1"},
             "--max-evals: -1 is not a whole number from 1 to 2147483647 (see --help)\n"},
            // Ranges are said compactly, never as DBL_MAX's 309 digits.
            {run_cv, "kestrel-cv", {"-m", "logistic", "--max-rows", "-1", data},
             "--max-rows: -1 is not a whole number >= 0 (see --help)\n"},
            {run_cv, "kestrel-cv", {"-m", "logistic", "--min-frequency", "-1", data},
             "--min-frequency: -1 is not a number >= 0 (see --help)\n"},
            {run_train, "kestrel-train", {"-m", "logistic", "--poly", "0", data, "-o", "-"},
             "--poly: 0 is not a whole number from 1 to 2147483647"},
        };
        for (const auto& c : cases) {
            const std::string message = c.message;
            CAPTURE(message);
            const auto r = run(c.body, c.program, c.args);
            CHECK(r.code == 1);
            CHECK(r.err.find(c.message) != std::string::npos);
            CHECK(lines(r.err) == 1);
            CHECK(r.err.size() < 200);
        }
    }

    TEST_CASE("names, values and headers reach stderr cut and escaped, one line") {
        // A forged second line and a colour escape in a model name and a parameter value.
        auto r = run(run_train, "kestrel-train", {"-m", "bad\nkestrel-train: forged\x1b[31m", iris(), "-o", "-"});
        CHECK(r.code == 1);
        CHECK(r.err.rfind("kestrel-train: unknown model 'bad\\x0akestrel-train: forged\\x1b[31m' (valid: ", 0) == 0);
        CHECK(lines(r.err) == 1);
        r = run(run_train, "kestrel-train", {"-m", "logistic", "-p", "C=1\n2\x1b", iris(), "-o", "-"});
        CHECK(r.code == 1);
        CHECK(r.err.find("parameter C='1\\x0a2\\x1b' is not a number") != std::string::npos);
        CHECK(lines(r.err) == 1);
        // A name far too long: cut with its length.
        r = run(run_train, "kestrel-train", {"-m", std::string(45'000'000, 'x'), iris(), "-o", "-"});
        CHECK(r.code == 1);
        CHECK(r.err.find("unknown model '" + std::string(40, 'x') + "...(45000000 bytes)' (valid: ") != std::string::npos);
        CHECK(r.err.size() < 600);
        // A header with an escape code, echoed in the list of a file's columns.
        ScratchDir dir("hostile_names");
        const auto model = train_iris_model(dir);
        const auto csv = dir.file("esc.csv", "label,\x1b]0;title\x07x\n0,1\n");
        const auto t = run_tool("kestrel-predict " + q(model) + " " + q(csv));
        CHECK(t.exit_code == 2);
        CHECK(t.err.find("the columns are: label, \\x1b]0;title\\x07x") != std::string::npos);
        CHECK(t.err.find('\x1b') == std::string::npos);
        CHECK(lines(t.err) == 1);
        // A model file of a 45 MB model name.
        std::ofstream(dir / "huge_name.json")
            << R"({"format": "kestrel-model", "version": 1, "model": ")" << std::string(45'000'000, 'y') << R"("})";
        const auto h = run_tool("kestrel-predict " + q(dir / "huge_name.json") + " " + q(iris()));
        CHECK(h.exit_code == 2);
        CHECK(h.err.size() < 2100);
        CHECK(lines(h.err) == 1);
    }

    TEST_CASE("/dev/zero, /dev/urandom and binary pipes are refused at their first block") {
        ScratchDir dir("hostile_devices");
        const auto model = train_iris_model(dir);
        const std::string limits = kAddressCap + "timeout 20 ";
        for (const char* device_name : {"/dev/zero", "/dev/urandom"}) {
            const std::string device = device_name;
            CAPTURE(device);
            for (const std::string& cmd : std::vector<std::string>{tool("kestrel-predict") + " " + q(model) + " " + device,
                                          tool("kestrel-train") + " -m logistic " + device + " -o " + q(dir / "x.json"),
                                          tool("kestrel-predict") + " " + q(model) + " - < " + device}) {
                CAPTURE(cmd);
                const auto start = std::chrono::steady_clock::now();
                const auto r = run_tool("true; (" + limits + cmd + ")");
                const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                CHECK(r.exit_code == 2);
                CHECK(r.err.find(": is a binary file (a NUL byte at offset ") != std::string::npos);
                CHECK(seconds < 10);
            }
        }
        // Text first, then NULs: refused when the NULs come, not at the end of the input.
        const auto r = run_tool("true; (" + kAddressCap + "cat " + q(iris()) + " " + q(iris()) + " /dev/zero | timeout 20 " +
                                tool("kestrel-predict") + " " +
                                q(model) + " -)");
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("<stdin>: is a binary file") != std::string::npos);
        CHECK_FALSE(fs::exists(dir / "x.json"));
    }

    TEST_CASE("a pipe without a line break is read in one pass and refused past the record limit") {
        ScratchDir dir("hostile_noline");
        const auto model = train_iris_model(dir);
        // 300 MB of one line: past the 256 MB record limit. Quadratic scanning took minutes.
        const auto start = std::chrono::steady_clock::now();
        const auto r = run_tool("head -c 300000000 /dev/zero | tr '\\0' a | (" + kAddressCap + "timeout 60 " + tool("kestrel-predict") + " " +
                                q(model) + " -)");
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        CHECK(r.exit_code == 2);
        CHECK(r.err == "kestrel-predict: <stdin>:1: a record longer than 256.0 MB (no line break): not CSV or LIBSVM "
                       "text, or a line too long to stream\n");
        CHECK(seconds < 30);
    }

    TEST_CASE("TableStream: a long record is refused at the limit, with its line") {
        // Past the 64 KB the start reads, so that the record is still being read at the limit.
        ScratchDir dir("hostile_stream");
        std::string text = "label,a\n0,1\n1,";
        text += std::string(200000, '7');
        const auto path = dir.file("long.csv", text + "\n0,2\n");
        ReadOptions opts;
        opts.format = FileFormat::csv;
        TableStream stream(path, opts, 4096, 100000);
        TableStream::Piece piece;
        CHECK_THROWS_WITH_AS(stream.next(piece),
                             (path + ":3: a record longer than 97.7 KB (no line break): not CSV or LIBSVM text, or a "
                                     "line too long to stream")
                                 .c_str(),
                             DataError);
        // Under the limit the same record streams: the pieces end after it and at the end.
        TableStream roomy(path, opts, 4096, 1 << 20);
        std::size_t pieces = 0;
        while (roomy.next(piece)) ++pieces;
        CHECK(pieces == 2);
        CHECK(piece.text == "label,a\n0,2\n");
    }

    TEST_CASE("a forest on a million columns says what it needs (exit 2), not out of memory (exit 3)" *
              doctest::skip(kSanitizedBuild)) {
        ScratchDir dir("hostile_million");
        {
            std::ofstream out(dir / "wide.csv");
            out << "label";
            for (int j = 0; j < 1000000; ++j) out << ",c" << j;
            out << "\n";
            for (int i = 0; i < 4; ++i) {
                out << i % 2;
                for (int j = 0; j < 1000000; ++j) out << ",1";
                out << "\n";
            }
        }
        const auto r = run_tool("true; (ulimit -v 3000000; timeout 120 " + tool("kestrel-train") +
                                " -m forest --threads 1 " + q(dir / "wide.csv") + " -o " + q(dir / "f.json") + ")");
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("kestrel-train: growing a tree on 1000000 features (rank buckets of every feature) needs about "
                         "3.8 GB, more than the ") != std::string::npos);
        CHECK_FALSE(fs::exists(dir / "f.json"));
    }

    TEST_CASE("gbdt on a small LIBSVM file of 500000 features says what its bin codes need (exit 2)" *
              doctest::skip(kSanitizedBuild)) {
        ScratchDir dir("hostile_wide_codes");
        {
            // 1,200 rows of one entry each, the last at feature 500000: 15 kB of text, 600 MB of
            // one-byte codes (gbdt reads an absent entry as missing: every cell has a code).
            std::ofstream out(dir / "wide.libsvm");
            for (int i = 0; i < 1200; ++i) out << i % 2 << " " << (i == 1199 ? 500000 : 1 + i % 7) << ":" << i << "\n";
        }
        const auto r = run_tool("true; (ulimit -v 600000; timeout 120 " + tool("kestrel-train") +
                                " -m gbdt -p n_estimators=2 --threads 1 " + q(dir / "wide.libsvm") + " -o " +
                                q(dir / "g.json") + ")");
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("kestrel-train: gbdt: the bin codes of 1200 rows x 500000 features needs about ") !=
              std::string::npos);
        CHECK_FALSE(fs::exists(dir / "g.json"));
    }

    TEST_CASE("a model of 300000 columns is matched to its file by name in linear time") {
        ScratchDir dir("hostile_wide");
        const int n = 300000;
        {
            std::ofstream out(dir / "wide.csv");
            out << "label";
            for (int j = 0; j < n; ++j) out << ",c" << j;
            out << "\n";
            for (int i = 0; i < 4; ++i) {
                out << i % 2;
                for (int j = 0; j < n; ++j) out << "," << (j + i) % 3;
                out << "\n";
            }
        }
        REQUIRE(run_tool("kestrel-train -q -m logistic " + q(dir / "wide.csv") + " -o " + q(dir / "w.json")).exit_code == 0);
        const auto start = std::chrono::steady_clock::now();
        const auto r = run_tool("timeout 60 kestrel-predict " + q(dir / "w.json") + " " + q(dir / "wide.csv"));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        CHECK(r.exit_code == 0);
        CHECK(lines(r.out) == 5);
        CHECK(seconds < 20);  // a scan of the header per column took minutes
    }
}

}  // namespace cli_hostile_input_test
}  // namespace
