// kestrel-predict reads its input in pieces: the output is the same bytes as the
// whole-input path at any piece size and thread count, a bad row mid-stream is the
// usual one-line error, memory stays bounded, and every write error is exit 2.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <fstream>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_predict_stream_test {

using namespace kestrel::test;

namespace {
const std::string iris_train = repo_path("data/iris/train.csv");
const std::string iris_test = repo_path("data/iris/test.csv");
const std::string heart_train = repo_path("data/heart_scale/train.libsvm");
const std::string heart_test = repo_path("data/heart_scale/test.libsvm");
const std::string diabetes_train = repo_path("data/diabetes/train.csv");
const std::string diabetes_test = repo_path("data/diabetes/test.csv");

// The data rows of `path` repeated `times` times (after its header, if `header`).
std::string repeated(const std::string& path, int times, bool header) {
    const std::string text = slurp(path);
    const auto nl = text.find('\n');
    const std::string head = header ? text.substr(0, nl + 1) : "";
    const std::string body = header ? text.substr(nl + 1) : text;
    std::string out = head;
    for (int i = 0; i < times; ++i) out += body;
    return out;
}

std::string q(const std::string& s) { return "'" + s + "'"; }

// Peak resident set of a command run to its end (the child's getrusage), in KB.
long peak_rss_kb(const std::string& command, int* exit_code) {
    const std::string full = "PATH='" + std::string(KESTREL_BIN_DIR) + "':\"$PATH\" exec " + command;
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::execl("/bin/sh", "sh", "-c", full.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    struct rusage ru {};
    ::wait4(pid, &status, 0, &ru);
    *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return ru.ru_maxrss;
}
}  // namespace

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitizedBuild = true;
#else
constexpr bool kSanitizedBuild = false;
#endif

TEST_SUITE("cli.predict_stream") {
    TEST_CASE("pieces of any size and any thread count give the whole-input bytes") {
        ScratchDir dir("stream_same");
        const auto iris_model = dir / "iris.json";
        const auto forest_model = dir / "forest.json";
        const auto svc_model = dir / "svc.json";
        const auto ridge_model = dir / "ridge.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic " + q(iris_train) + " -o " + q(iris_model)).exit_code == 0);
        REQUIRE(run_tool("kestrel-train -q -m forest -p n_estimators=20 " + q(iris_train) + " -o " + q(forest_model)).exit_code == 0);
        REQUIRE(run_tool("kestrel-train -q -m svc " + q(heart_train) + " -o " + q(svc_model)).exit_code == 0);
        REQUIRE(run_tool("kestrel-train -q -m ridge " + q(diabetes_train) + " -o " + q(ridge_model)).exit_code == 0);
        const auto gbdt_model = dir / "gbdt.json";
        const auto gbdt_heart = dir / "gbdt_heart.json";
        REQUIRE(run_tool("kestrel-train -q -m gbdt -p n_estimators=10 " + q(diabetes_train) + " -o " + q(gbdt_model)).exit_code == 0);
        REQUIRE(run_tool("kestrel-train -q -m gbdt -p n_estimators=10 " + q(heart_train) + " -o " + q(gbdt_heart)).exit_code == 0);
        const auto iris_big = dir.file("iris_big.csv", repeated(iris_test, 40, true));        // 1200 rows
        const auto heart_big = dir.file("heart_big.libsvm", repeated(heart_test, 40, false));  // 2160 rows
        const auto diabetes_big = dir.file("diabetes_big.csv", repeated(diabetes_test, 20, true));
        struct Case {
            std::string model, data, flags;
        };
        const Case cases[] = {{iris_model, iris_big, "--proba"},
                              {forest_model, iris_big, "--proba"},
                              {svc_model, heart_big, "--decision"},
                              {ridge_model, diabetes_big, ""},
                              {forest_model, iris_big, "--proba --contrib"},
                              {gbdt_model, diabetes_big, "--contrib --output-format jsonl"},
                              {gbdt_heart, heart_big, "--decision --contrib"},
                              {ridge_model, diabetes_big, "--contrib --output-format tsv"}};
        for (const auto& c : cases) {
            const auto whole = run_tool("kestrel-predict " + q(c.model) + " " + q(c.data) + " " + c.flags + " --chunk-bytes 0");
            REQUIRE(whole.exit_code == 0);
            CHECK(std::count(whole.out.begin(), whole.out.end(), '\n') > 1000);
            for (const char* chunk : {"1", "100", "4096", "1048576"})
                for (const char* threads : {"1", "2", "3"}) {
                    CAPTURE(c.model);
                    CAPTURE(chunk);
                    CAPTURE(threads);
                    const auto s = run_tool("kestrel-predict " + q(c.model) + " " + q(c.data) + " " + c.flags +
                                            " --chunk-bytes " + chunk + " --threads " + threads);
                    CHECK(s.exit_code == 0);
                    CHECK(s.out == whole.out);
                }
            // Standard input, from a pipe.
            const auto piped = run_tool("cat " + q(c.data) + " | " + q(bin("kestrel-predict")) + " " + q(c.model) + " - " + c.flags +
                                        " --chunk-bytes 300 --threads 2");
            CHECK(piped.exit_code == 0);
            CHECK(piped.out == whole.out);
        }
    }

    TEST_CASE("--metrics accumulates over the pieces: the same report as the whole input") {
        ScratchDir dir("stream_metrics");
        const auto model = dir / "m.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic " + q(iris_train) + " -o " + q(model)).exit_code == 0);
        const auto big = dir.file("big.csv", repeated(iris_test, 10, true));
        const auto whole = run_tool("kestrel-predict " + q(model) + " " + q(big) + " --metrics --json --chunk-bytes 0");
        const auto stream = run_tool("kestrel-predict " + q(model) + " " + q(big) + " --metrics --json --chunk-bytes 64 --threads 2");
        REQUIRE(whole.exit_code == 0);
        CHECK(stream.exit_code == 0);
        CHECK(stream.out == whole.out);
        const auto report = kestrel::Json::parse(stream.out);
        // Unscaled multinomial logistic on the iris test split, ten times over: 29 of 30.
        CHECK(report["accuracy"].get<double>() == doctest::Approx(29.0 / 30.0));
        const auto ranked = run_tool("kestrel-predict " + q(model) + " " + q(big) + " --metrics --chunk-bytes 64 -o " +
                                     q(dir / "p.csv"));
        const auto ranked_whole = run_tool("kestrel-predict " + q(model) + " " + q(big) + " --metrics --chunk-bytes 0 -o " +
                                           q(dir / "p0.csv"));
        CHECK(ranked.out == ranked_whole.out);
        CHECK(slurp(dir / "p.csv") == slurp(dir / "p0.csv"));
    }

    TEST_CASE("a bad row mid-stream: the whole-input error, no -o file, whole lines on stdout") {
        ScratchDir dir("stream_bad");
        const auto model = dir / "m.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic " + q(iris_train) + " -o " + q(model)).exit_code == 0);
        std::string text = repeated(iris_test, 20, true);  // 600 rows, lines 2..601
        // Line 452's second field (sepal_length) is not a number.
        std::size_t at = 0;
        for (int line = 1; line < 452; ++line) at = text.find('\n', at) + 1;
        text.replace(text.find(',', at) + 1, 3, "x.y");
        const auto bad = dir.file("bad.csv", text);
        const auto whole = run_tool("kestrel-predict " + q(model) + " " + q(bad) + " --chunk-bytes 0");
        CHECK(whole.exit_code == 2);
        CHECK(whole.err.find(bad + ":452:2: ") != std::string::npos);
        for (const char* threads : {"1", "2"}) {
            const auto s = run_tool("kestrel-predict " + q(model) + " " + q(bad) + " --chunk-bytes 512 --threads " + threads);
            CHECK(s.exit_code == 2);
            CHECK(s.err == whole.err);
            // What stdout holds: the header and the predictions of whole pieces before
            // the bad one, every line complete, all of them the first rows'.
            const auto good = run_tool("kestrel-predict " + q(model) + " " + q(iris_test));
            CHECK(!s.out.empty());
            CHECK(s.out.back() == '\n');
            const auto lines = std::count(s.out.begin(), s.out.end(), '\n');
            CHECK(lines < 451);
            const auto all = run_tool("kestrel-predict " + q(model) + " " + q(dir.file("good.csv", repeated(iris_test, 20, true))));
            CHECK(all.out.compare(0, s.out.size(), s.out) == 0);
            (void)good;
        }
        const auto to_file = run_tool("kestrel-predict " + q(model) + " " + q(bad) + " --chunk-bytes 512 -o " + q(dir / "out.csv"));
        CHECK(to_file.exit_code == 2);
        CHECK(to_file.err == whole.err);
        // Atomic: neither the output nor a temporary file is left.
        int files = 0;
        for (const auto& e : std::filesystem::directory_iterator(dir.path)) {
            const auto name = e.path().filename().string();
            CHECK(name.find("out.csv") == std::string::npos);
            ++files;
        }
        CHECK(files == 3);  // m.json, bad.csv, good.csv
    }

    TEST_CASE("inputs without rows give the whole-input errors") {
        ScratchDir dir("stream_empty");
        const auto model = dir / "m.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic " + q(iris_train) + " -o " + q(model)).exit_code == 0);
        const auto header_only = dir.file("h.csv", "species,sepal_length,sepal_width,petal_length,petal_width\n\n\n");
        for (const auto& f : {header_only}) {
            const auto whole = run_tool("kestrel-predict " + q(model) + " " + q(f) + " --chunk-bytes 0");
            const auto s = run_tool("kestrel-predict " + q(model) + " " + q(f) + " --chunk-bytes 1");
            CHECK(whole.exit_code == 2);
            CHECK(s.exit_code == 2);
            CHECK(s.err == whole.err);
            CHECK(s.out.empty());
        }
    }

    // Under AddressSanitizer every process reserves hundreds of MB of shadow memory up
    // front, so peak RSS says nothing about the reader there: the Release stage measures it.
    TEST_CASE("memory stays bounded on an input far larger than the piece" * doctest::skip(kSanitizedBuild)) {
        ScratchDir dir("stream_rss");
        const auto model = dir / "m.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic " + q(iris_train) + " -o " + q(model)).exit_code == 0);
        // 1.2 million rows, about 26 MB of text (a whole-input read holds it and its
        // 38 MB matrix); pieces of 64 KB.
        const auto big = dir / "big.csv";
        {
            const std::string body = slurp(iris_test).substr(slurp(iris_test).find('\n') + 1);
            std::ofstream out(big, std::ios::binary);
            out << "species,sepal_length,sepal_width,petal_length,petal_width\n";
            for (int i = 0; i < 40000; ++i) out << body;
        }
        const auto small = dir.file("small.csv", slurp(iris_test));
        int rc = -1;
        const long base = peak_rss_kb("kestrel-predict " + q(model) + " " + q(small) + " --chunk-bytes 65536 -o /dev/null", &rc);
        REQUIRE(rc == 0);
        const long streamed =
            peak_rss_kb("kestrel-predict " + q(model) + " - --chunk-bytes 65536 --threads 2 -o /dev/null < " + q(big), &rc);
        CHECK(rc == 0);
        const long whole = peak_rss_kb("kestrel-predict " + q(model) + " - --chunk-bytes 0 -o /dev/null < " + q(big), &rc);
        CHECK(rc == 0);
        MESSAGE("peak RSS: small input " << base << " KB, 26 MB streamed " << streamed << " KB, whole " << whole << " KB");
        // Generous: the malloc top pad (16 MB) and a few pieces in flight.
        CHECK(streamed < base + 24 * 1024);
        CHECK(whole > streamed + 24 * 1024);
    }
}

TEST_SUITE("cli.predict_columns") {
    // A tree split at x <= 5.5: every probability is exactly 0 or 1.
    struct Fixture {
        ScratchDir dir{"predict_columns"};
        std::string model = dir / "tree.json";
        std::string data = dir.file("data.csv", "id,x,note,label\nr1,0.5,\"hello, world\",neg\nr2,10.5,plain,pos\n");
        Fixture() {
            const auto train = dir.file("train.csv", "x,label\n0,neg\n1,neg\n10,pos\n11,pos\n");
            REQUIRE(run_tool("kestrel-train -q -m tree " + q(train) + " -o " + q(model)).exit_code == 0);
        }
        ToolResult predict(const std::string& flags) const {
            return run_tool("kestrel-predict " + q(model) + " " + q(data) + " " + flags);
        }
    };

    TEST_CASE("--id-col and --keep-cols copy the input's text beside the predictions") {
        const Fixture f;
        for (const char* chunk : {"0", "1"}) {
            const auto r = f.predict(std::string("--id-col id --keep-cols note --proba --chunk-bytes ") + chunk);
            CHECK(r.exit_code == 0);
            CHECK(r.out == "id,note,prediction,proba_neg,proba_pos\nr1,\"hello, world\",neg,1,0\nr2,plain,pos,0,1\n");
        }
        // By index, a feature column too; the header names them.
        const auto by_index = f.predict("--keep-cols 1,0");
        CHECK(by_index.out == "x,id,prediction\n0.5,r1,neg\n10.5,r2,pos\n");
        const auto missing = f.predict("--id-col key");
        CHECK(missing.exit_code == 2);
        CHECK(missing.err == "kestrel-predict: " + f.data +
                                 ": column 'key' to copy to the output not found; the columns are: id, x, note, label\n");
    }

    TEST_CASE("--output-format tsv and jsonl, --no-output-header") {
        const Fixture f;
        CHECK(f.predict("--id-col id --keep-cols note --proba --output-format tsv").out ==
              "id\tnote\tprediction\tproba_neg\tproba_pos\nr1\thello, world\tneg\t1\t0\nr2\tplain\tpos\t0\t1\n");
        CHECK(f.predict("--id-col id --proba --output-format jsonl --chunk-bytes 1").out ==
              "{\"id\":\"r1\",\"prediction\":\"neg\",\"proba_neg\":1,\"proba_pos\":0}\n"
              "{\"id\":\"r2\",\"prediction\":\"pos\",\"proba_neg\":0,\"proba_pos\":1}\n");
        CHECK(f.predict("--no-output-header").out == "neg\npos\n");
        CHECK(f.predict("--no-output-header --output-format tsv --proba").out == "neg\t1\t0\npos\t0\t1\n");
        const auto bad = f.predict("--output-format xml");
        CHECK(bad.exit_code == 1);
    }

    TEST_CASE("LIBSVM input: --id-col line numbers the rows by their input line") {
        ScratchDir dir("predict_lines");
        const auto train = dir.file("train.libsvm", "0 1:0\n0 1:1\n1 1:10\n1 1:11\n");
        const auto model = dir / "m.json";
        REQUIRE(run_tool("kestrel-train -q -m tree " + q(train) + " -o " + q(model)).exit_code == 0);
        const auto data = dir.file("test.libsvm", "# scored rows\n1 1:10.5\n\n0 1:0.5\n");
        for (const char* chunk : {"0", "1"}) {
            const auto r = run_tool("kestrel-predict " + q(model) + " " + q(data) + " --id-col line --chunk-bytes " + chunk);
            CHECK(r.exit_code == 0);
            CHECK(r.out == "line,prediction\n2,1\n4,0\n");
        }
        const auto keep = run_tool("kestrel-predict " + q(model) + " " + q(data) + " --keep-cols 1");
        CHECK(keep.exit_code == 1);
        CHECK(keep.err == "kestrel-predict: " + data +
                              ": LIBSVM rows have no columns to copy; --id-col line writes each row's line number\n");
    }
}

TEST_SUITE("cli.write_errors") {
    TEST_CASE("a full device on stdout or -o is exit 2 with one line, never exit 0") {
        ScratchDir dir("write_full");
        const auto model = dir / "m.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic " + q(iris_train) + " -o " + q(model)).exit_code == 0);
        for (const char* chunk : {"0", "1048576", "64"}) {
            CAPTURE(chunk);
            const auto out = run_tool("kestrel-predict " + q(model) + " " + q(iris_test) + " --chunk-bytes " + chunk + " > /dev/full");
            CHECK(out.exit_code == 2);
            CHECK(out.err == "kestrel-predict: cannot write standard output: No space left on device\n");
            const auto file = run_tool("kestrel-predict " + q(model) + " " + q(iris_test) + " --chunk-bytes " + chunk + " -o /dev/full");
            CHECK(file.exit_code == 2);
            CHECK(file.err == "kestrel-predict: cannot write /dev/full: No space left on device\n");
        }
        // The device is written in place, never renamed over.
        struct stat st {};
        REQUIRE(::stat("/dev/full", &st) == 0);
        CHECK(S_ISCHR(st.st_mode));
        // Reports and other commands' stdout go the same way.
        const auto report = run_tool("kestrel-predict " + q(model) + " " + q(iris_test) + " --metrics --json > /dev/full");
        CHECK(report.exit_code == 2);
        CHECK(report.err == "kestrel-predict: cannot write standard output: No space left on device\n");
        const auto list = run_tool("kestrel-train --list-models > /dev/full");
        CHECK(list.exit_code == 2);
        CHECK(list.err == "kestrel-train: cannot write standard output: No space left on device\n");
        const auto cv = run_tool("kestrel-cv -q -m logistic -k 3 " + q(iris_train) + " > /dev/full");
        CHECK(cv.exit_code == 2);
        CHECK(cv.err == "kestrel-cv: cannot write standard output: No space left on device\n");
    }

    TEST_CASE("a closed pipe: SIGPIPE ends the run quietly, as it ends cat") {
        ScratchDir dir("write_pipe");
        const auto model = dir / "m.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic " + q(iris_train) + " -o " + q(model)).exit_code == 0);
        // Far more output than a pipe buffers (64 KB), so a write meets the closed pipe.
        const auto big = dir.file("big.csv", repeated(iris_test, 400, true));
        const auto err = dir / "err", rc = dir / "rc";
        const auto r = run_tool("sh -c \"kestrel-predict " + q(model) + " " + q(big) + " --chunk-bytes 4096 2>" + q(err) +
                                "; echo \\$? > " + q(rc) + "\" | head -c0");
        CHECK(r.out.empty());
        CHECK(slurp(err).empty());
        CHECK(slurp(rc) == "141\n");
    }

    TEST_CASE("EPIPE, when SIGPIPE is ignored, is an error with its message") {
        ScratchDir dir("write_epipe");
        const auto model = dir / "m.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic " + q(iris_train) + " -o " + q(model)).exit_code == 0);
        int fds[2];
        REQUIRE(::pipe(fds) == 0);
        ::close(fds[0]);
        const auto old = std::signal(SIGPIPE, SIG_IGN);
        const std::string target = "/dev/fd/" + std::to_string(fds[1]);
        const auto r = run(kestrel::cli::run_predict, "kestrel-predict", {model, iris_test, "-o", target});
        std::signal(SIGPIPE, old);
        ::close(fds[1]);
        CHECK(r.code == 2);
        CHECK(r.err == "kestrel-predict: cannot write " + target + ": Broken pipe\n");
    }
}

}  // namespace cli_predict_stream_test
}  // namespace
