// The commands under mpirun (docs/distributed.md): a search or cross-validation spread
// over 2 and 3 ranks gives the one-process results byte for byte (times aside), rank 0
// alone writes, and a rank that fails ends the whole run with one message naming it.
// CI runs these as root on one machine: --allow-run-as-root, --oversubscribe.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <regex>
#include <sstream>

#include "cli/run_tool.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_mpi_cli_test {

using namespace kestrel::test;

namespace {

const std::string kHeart = repo_path("data/heart_scale/train.libsvm");
const std::string kIris = repo_path("data/iris/train.csv");

// Under the sanitizer stage (ASAN_OPTIONS=detect_leaks=1), the ranks' leak check is off:
// Open MPI's plugins, unloaded at MPI_Finalize, leave allocations whose frames point into
// no module, so no suppression can name them. Address and undefined-behaviour checks stay
// on; the same library code runs leak-checked in the one-process tests.
std::string mpirun(int ranks, const std::string& command) {
    return "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" mpirun --allow-run-as-root --oversubscribe -np " +
           std::to_string(ranks) + " " + command;
}

// Drops the columns that hold fit times (they differ run to run, with or without MPI).
std::string without_time_columns(const std::string& csv) {
    std::istringstream in(csv);
    std::string out, line;
    std::vector<bool> keep;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream cs(line);
        for (std::string c; std::getline(cs, c, ',');) cells.push_back(c);
        if (keep.empty())
            for (const auto& c : cells) keep.push_back(c.find("seconds") == std::string::npos);
        for (std::size_t j = 0; j < cells.size(); ++j)
            if (j >= keep.size() || keep[j]) out += cells[j] + ",";
        out += "\n";
    }
    return out;
}

// The text table's fit_s column and the output path line, which name per-run things.
std::string without_times(const std::string& table) {
    std::string s = std::regex_replace(table, std::regex(" +[0-9.]+\n"), "\n");
    return std::regex_replace(s, std::regex("-> [^\n]*"), "->");
}

}  // namespace

TEST_SUITE("cli.mpi") {
    TEST_CASE("a run launched by MPI whose module cannot load says so in one line, exit 3, and writes nothing") {
        ScratchDir dir("mpi_nomodule");
        const auto r = run_tool("OMPI_COMM_WORLD_SIZE=2 KESTREL_MPI_MODULE=/nonexistent/kestrel_mpi.so kestrel-cv -m "
                                "logistic '" + kIris + "'");
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
#if KESTREL_HAVE_MPI
        CHECK(r.err.find("kestrel-cv under MPI needs /nonexistent/kestrel_mpi.so at run time") != std::string::npos);
#else
        CHECK(r.err.find("built without MPI") != std::string::npos);
#endif
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }

#if KESTREL_HAVE_MPI
    TEST_CASE("grid search over 2 and 3 ranks: the table, the results file and the model of one process") {
        ScratchDir dir("mpi_grid");
        const std::string grid = "kestrel-gridsearch -m svc -g 'C=2^-2:2^4:2' -g 'gamma=2^-6:2^0:2' -k 3 --seed 7 '" +
                                 kHeart + "'";
        const auto one = run_tool("SOURCE_DATE_EPOCH=0 " + grid + " --threads 2 -o '" + (dir / "one.json") +
                                  "' --results '" + (dir / "one.csv") + "'");
        REQUIRE(one.exit_code == 0);
        for (const int ranks : {2, 3}) {
            CAPTURE(ranks);
            const std::string tag = std::to_string(ranks);
            const auto many = run_tool(mpirun(ranks, "env SOURCE_DATE_EPOCH=0 " + grid + " --threads 1 -o '" +
                                                         (dir / (tag + ".json")) + "' --results '" +
                                                         (dir / (tag + ".csv")) + "'"));
            REQUIRE(many.exit_code == 0);
            CHECK(without_times(many.out) == without_times(one.out));
            CHECK(many.err.empty());
            CHECK(slurp(dir / (tag + ".json")) == slurp(dir / "one.json"));
            CHECK(without_time_columns(slurp(dir / (tag + ".csv"))) == without_time_columns(slurp(dir / "one.csv")));
        }
        // Only rank 0 wrote: no temporary file of another rank is left beside the outputs.
        std::size_t files = 0;
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path)) ++files;
        CHECK(files == 6);
    }

    TEST_CASE("halving, random and nested searches over 3 ranks equal one process") {
        const std::string base = "kestrel-gridsearch -m logistic -g 'C=2^-4:2^6:1' -k 3 --seed 11 --json '" + kHeart + "'";
        for (const std::string mode : std::initializer_list<const char*>{" --halving", " --n-iter 6 -g 'tol=loguniform(1e-6,1e-2)'", " --outer-k 3"}) {
            CAPTURE(mode);
            const auto one = run_tool(base + mode);
            const auto many = run_tool(mpirun(3, base + mode + " --threads 1"));
            REQUIRE(one.exit_code == 0);
            REQUIRE(many.exit_code == 0);
            // The JSON holds fit times; every other value must agree.
            const std::regex seconds("\"[a-z_]*seconds[a-z_]*\": [-0-9.e]+");
            CHECK(std::regex_replace(many.out, seconds, "") == std::regex_replace(one.out, seconds, ""));
        }
    }

    TEST_CASE("cross-validation, learning curves, ranking and feature selection over 3 ranks equal one process") {
        for (const std::string& cmd : {"kestrel-cv -m logistic -k 5 --seed 3 '" + kIris + "'",
                                      "kestrel-cv -m tree -k 4 --seed 3 --learning-curve 0.2:1:4 '" + kIris + "'",
                                      "kestrel-cv -m forest -p n_estimators=8 -k 3 --seed 3 '" + kIris + "'",
                                      "kestrel-select -m logistic -k 3 --seed 5 '" + kIris + "'",
                                      // learning to rank: folds by query, ndcg over each fold's queries
                                      "kestrel-cv -m gbdt -p loss=lambdarank -p n_estimators=5 -k 3 --seed 2 '" +
                                          repo_path("tests/unit/boosting/data/ranking_train.libsvm") + "'"}) {
            CAPTURE(cmd);
            const auto one = run_tool(cmd);
            const auto many = run_tool(mpirun(3, cmd + " --threads 1"));
            REQUIRE(one.exit_code == 0);
            REQUIRE(many.exit_code == 0);
            // A learning curve's table ends with its fit times.
            if (cmd.find("--learning-curve") != std::string::npos)
                CHECK(without_times(many.out) == without_times(one.out));
            else
                CHECK(many.out == one.out);
        }
    }

    TEST_CASE("kestrel-train -m forest grows its trees over the ranks: the one-process model file, byte for byte") {
        ScratchDir dir("mpi_forest");
        const std::string ames = repo_path("data/tables/ames/train.csv");
        const std::vector<std::string> runs = {
            // classes, out-of-bag score and permutation importances (in-bag rows travel too)
            "-m forest -p n_estimators=25 -p oob=1 -p importance=permutation --seed 4 '" + kIris + "'",
            // regression on a raw table: category sets in the trees, missing cells imputed
            "-m forest -p n_estimators=10 -p max_depth=6 --seed 2 --label-col Sale_Price '" + ames + "'"};
        for (std::size_t c = 0; c < runs.size(); ++c) {
            CAPTURE(runs[c]);
            const std::string one = dir / ("one" + std::to_string(c) + ".json");
            REQUIRE(run_tool("SOURCE_DATE_EPOCH=0 kestrel-train " + runs[c] + " -o '" + one + "'").exit_code == 0);
            for (const int ranks : {2, 3}) {
                CAPTURE(ranks);
                const std::string many = dir / ("many" + std::to_string(c) + "_" + std::to_string(ranks) + ".json");
                const auto r = run_tool(mpirun(ranks, "env SOURCE_DATE_EPOCH=0 kestrel-train " + runs[c] +
                                                          " --threads 1 -o '" + many + "'"));
                REQUIRE(r.exit_code == 0);
                CHECK(slurp(many) == slurp(one));
            }
        }
    }

    TEST_CASE("the fits' warnings come once, from rank 0, in the one-process order") {
        const std::string cmd = "kestrel-gridsearch -m svc -p max_iter=5 -g 'C=1,10,100' -k 3 --threads 1 '" + kHeart + "'";
        const auto one = run_tool(cmd);
        const auto many = run_tool(mpirun(3, cmd));
        REQUIRE(one.exit_code == 0);
        REQUIRE(many.exit_code == 0);
        CHECK(one.err.find("warning") != std::string::npos);
        CHECK(many.err == one.err);
    }

    TEST_CASE("a rank that fails ends the run: one message naming the rank and the cause, its exit code, no output") {
        ScratchDir dir("mpi_fail");
        // Each rank reads its own copy; rank 1's has a bad cell, so only rank 1 fails.
        const std::string good = slurp(kHeart);
        std::string bad = good;
        bad.insert(bad.find('\n') + 1, "1 3:abc\n");
        dir.file("r0.libsvm", good);
        dir.file("r1.libsvm", bad);
        dir.file("r2.libsvm", good);
        const auto r = run_tool(mpirun(3, "sh -c 'exec kestrel-gridsearch -m svc -g C=2^-2:2^4:1 -k 3 \"" +
                                              (dir / "r") + "$OMPI_COMM_WORLD_RANK.libsvm\" -o \"" + (dir / "best.json") +
                                              "\"'"));
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("kestrel-gridsearch: rank 1: " + (dir / "r1.libsvm") + ":2:2: value \"abc\"") !=
              std::string::npos);
        CHECK(r.err.find("interrupted") == std::string::npos);
        CHECK_FALSE(std::filesystem::exists(dir / "best.json"));
    }

    TEST_CASE("a rank killed outright ends the run non-zero, mpirun naming the rank, and no output is left") {
        ScratchDir dir("mpi_kill");
        // 3000 rows of two noisy classes: a search that runs for seconds, so that rank 1,
        // killed 0.3 s in (of about 8 CPU seconds), dies in the middle of it.
        std::string csv = "label,a,b,c\n";
        for (int i = 0; i < 3000; ++i) {
            const double a = std::sin(i * 0.37), b = std::cos(i * 0.11), c = std::sin(i * 1.7);
            csv += std::string(a + 0.3 * c > b * 0.2 ? "1" : "0") + "," + std::to_string(a) + "," + std::to_string(b) +
                   "," + std::to_string(c) + "\n";
        }
        const auto data = dir.file("data.csv", csv);
        const auto r = run_tool(mpirun(3, "sh -c 'if [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then (sleep 0.3; kill -9 $$) & fi; "
                                          "exec kestrel-gridsearch -m svc -g C=2^-5:2^15:1 -g gamma=2^-3:2^3:1 -k 5 \"" + data + "\" -o \"" +
                                          (dir / "best.json") + "\"'"));
        CHECK(r.exit_code == 137);
        CHECK(r.err.find("process rank 1") != std::string::npos);
        CHECK(r.err.find("signal 9") != std::string::npos);
        CHECK(r.err.find("interrupted") == std::string::npos);
        CHECK_FALSE(std::filesystem::exists(dir / "best.json"));
    }

    TEST_CASE("what cannot run as a group says why: kestrel-auto, and standard input") {
        const auto autorun = run_tool(mpirun(2, "kestrel-auto --max-evals 2 '" + kIris + "'"));
        CHECK(autorun.exit_code == 1);
        CHECK(autorun.err.find("kestrel-auto: kestrel-auto does not run under mpirun yet") != std::string::npos);
        const auto piped = run_tool(mpirun(2, "kestrel-cv -m logistic - < '" + kIris + "'"));
        CHECK(piped.exit_code == 1);
        CHECK(piped.err.find("standard input reaches rank 0 of an MPI run only") != std::string::npos);
    }
#endif
}

}  // namespace cli_mpi_cli_test
}  // namespace
