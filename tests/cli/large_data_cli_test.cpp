// kestrel-train -m gbdt with a quantized store beyond --max-memory (docs/large-data.md, "Pages
// on disk"): the codes go to an unlinked file in $TMPDIR, the model is the default run's byte
// for byte and nothing is left in the directory; a directory that cannot hold the file (missing,
// or no room for its blocks) is a one-line error naming it (exit 2), which also shows the run
// took the disk. The read's pieces shrink with the budget (a 6.6 MB CSV under --max-memory 1M),
// and a query column goes into the store too.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "cli/run_tool.hpp"
#include "kestrel/core/params.hpp"  // Json
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_large_data_cli_test {

using namespace kestrel::test;

namespace {

std::string q(const std::string& s) { return "'" + s + "'"; }

// 1,000 LIBSVM rows over 20,000 features, 60 entries a row (about 0.9 MB): the codes are
// 1,000 x 20,000 bytes (19 MB), the file's pieces a few MB of doubles at most.
std::string wide_sparse_libsvm() {
    kestrel::Rng rng(50);
    std::ostringstream out;
    out.precision(6);
    for (int i = 0; i < 1000; ++i) {
        const double a = rng.normal();
        out << (a > 0 ? 1 : 0) << " 1:" << a;
        int j = 1;
        for (int k = 0; k < 60; ++k) {
            j += 1 + static_cast<int>(rng.below(600));
            if (j > 20000) break;
            out << " " << j << ":" << rng.normal();
        }
        out << " 20000:" << rng.normal() << "\n";
    }
    return out.str();
}

// `rows` dense rows of `cols` features printed with two decimals (about 5.5 bytes a cell), a
// class 0 / 1 label: 30,000 x 40 is a 6.6 MB file whose codes (1.2 MB) exceed 1 MB.
std::string dense_csv(int rows, int cols, std::uint64_t seed) {
    kestrel::Rng rng(seed);
    std::ostringstream out;
    out << std::fixed;
    out.precision(2);
    out << "y";
    for (int f = 0; f < cols; ++f) out << ",x" << f;
    out << "\n";
    for (int r = 0; r < rows; ++r) {
        std::ostringstream row;
        row << std::fixed;
        row.precision(2);
        double sum = 0;
        for (int f = 0; f < cols; ++f) {
            const double x = rng.normal();
            if (f < 3) sum += x;
            row << "," << x;
        }
        out << (sum + 0.5 * rng.normal() > 0 ? 1 : 0) << row.str() << "\n";
    }
    return out.str();
}

// A ranking CSV of `queries` queries of 5 to 14 rows: grade,x1,query,x2,x3, the query ids
// numbers (101, 102, ...).
std::string ranking_csv(int queries) {
    kestrel::Rng rng(52);
    std::ostringstream out;
    out.precision(17);
    out << "grade,x1,query,x2,x3\n";
    for (int k = 0; k < queries; ++k) {
        const int m = 5 + static_cast<int>(rng.below(10));
        for (int i = 0; i < m; ++i) {
            const double x1 = rng.normal(), x2 = rng.normal(), x3 = rng.normal();
            const double u = x1 + x2 + 0.3 * rng.normal();
            out << (u > 1 ? 2 : u > 0 ? 1 : 0) << "," << x1 << "," << 101 + k << "," << x2 << "," << x3 << "\n";
        }
    }
    return out.str();
}

}  // namespace

TEST_SUITE("cli.large_data") {
    TEST_CASE("kestrel-train --group-col: a query column read into the store, to the doubles' ranking model") {
        ScratchDir dir("large_data_cli_queries");
        const PinnedDate pinned;  // models compared byte for byte
        const auto data = dir.file("rank.csv", ranking_csv(220));  // about 150 KB
        REQUIRE(std::filesystem::file_size(data) > 100 * 1024);
        const std::string train =
            "kestrel-train -m gbdt -p loss=lambdarank -p n_estimators=5 --threads 2 --group-col query " + q(data);
        const auto plain = run_tool(train + " -o " + q(dir / "plain.json"));
        REQUIRE_MESSAGE(plain.exit_code == 0, plain.err);
        CHECK(plain.err.find("quantized store") == std::string::npos);
        // The file a quarter of the budget or more: the store, its codes in memory.
        const auto store = run_tool(train + " --max-memory 400K -o " + q(dir / "store.json"));
        REQUIRE_MESSAGE(store.exit_code == 0, store.err);
        CHECK(store.err.find("rows read into the quantized store (one byte a cell)") != std::string::npos);
        CHECK(slurp(dir / "store.json") == slurp(dir / "plain.json"));
    }

    TEST_CASE("kestrel-train --max-memory 1M on a 6.6 MB CSV: pieces shrunk to the budget, the unlimited run's model") {
        ScratchDir dir("large_data_cli_small_budget");
        ScratchDir tmp("large_data_cli_small_budget_tmp");
        const PinnedDate pinned;
        const auto data = dir.file("dense.csv", dense_csv(30000, 40, 53));
        REQUIRE(std::filesystem::file_size(data) > 6 * 1024 * 1024);
        const std::string train = "kestrel-train -m gbdt -p n_estimators=3 -p max_depth=3 --threads 2 ";
        const auto plain = run_tool(train + q(data) + " -o " + q(dir / "plain.json"));
        REQUIRE_MESSAGE(plain.exit_code == 0, plain.err);
        // Pieces of 64 KB (a sixteenth of the budget), not 4 MB whose doubles alone exceed it;
        // the codes (1.2 MB) and the cut sample's values in pages on disk.
        const auto small = run_tool("TMPDIR=" + q(tmp.path.string()) + " " + train + "--max-memory 1M " + q(data) +
                                    " -o " + q(dir / "small.json"));
        REQUIRE_MESSAGE(small.exit_code == 0, small.err);
        CHECK(small.err.find("rows read into the quantized store, its codes in pages on disk") != std::string::npos);
        CHECK(slurp(dir / "small.json") == slurp(dir / "plain.json"));
        CHECK(std::filesystem::is_empty(tmp.path));
        // A budget that cannot hold the smallest pieces beside the labels of every row: one line.
        const auto tiny = run_tool("TMPDIR=" + q(tmp.path.string()) + " " + train + "--max-memory 200K " + q(data) +
                                   " -o " + q(dir / "tiny.json"));
        CHECK(tiny.exit_code == 2);
        CHECK(std::count(tiny.err.begin(), tiny.err.end(), '\n') == 1);
        CHECK(tiny.err.find("dense.csv: reading in pieces of 64.0 KB beside the labels of 30000 rows needs about ") !=
              std::string::npos);
        CHECK(tiny.err.find("more than --max-memory 200.0 KB; the quantized store reads a sixteenth of the budget") !=
              std::string::npos);
        CHECK_FALSE(std::filesystem::exists(dir / "tiny.json"));
    }


    TEST_CASE("kestrel-train -m logistic --max-memory 1M on a 6.6 MB CSV: a stream in pieces shrunk to the budget") {
        ScratchDir dir("large_data_cli_stream_budget");
        const PinnedDate pinned;
        const auto data = dir.file("dense.csv", dense_csv(30000, 40, 53));
        const std::string train = "kestrel-train -m logistic --threads 2 " + q(data);
        const auto whole = run_tool(train + " -o " + q(dir / "whole.json"));
        REQUIRE_MESSAGE(whole.exit_code == 0, whole.err);
        CHECK(whole.err.find("as a stream") == std::string::npos);
        // Pieces of 64 KB, not 4 MB whose doubles alone exceed the budget (refused before).
        const auto small = run_tool(train + " --max-memory 1M -o " + q(dir / "small.json"));
        REQUIRE_MESSAGE(small.exit_code == 0, small.err);
        CHECK(small.err.find("rows read as a stream: ") != std::string::npos);
        // The same optimum, its sums rounded in other blocks: the same test accuracy.
        const auto accuracy = [&](const std::string& model) {
            const auto r = run_tool("kestrel-predict " + q(dir / model) + " " + q(data) + " --metrics --json -o /dev/null");
            REQUIRE_MESSAGE(r.exit_code == 0, r.err);
            return kestrel::Json::parse(r.out).at("accuracy").get<double>();
        };
        CHECK(accuracy("small.json") == accuracy("whole.json"));
        // A budget that cannot hold the smallest pieces beside the labels of every row: one line.
        const auto tiny = run_tool(train + " --max-memory 200K -o " + q(dir / "tiny.json"));
        CHECK(tiny.exit_code == 2);
        CHECK(std::count(tiny.err.begin(), tiny.err.end(), '\n') == 1);
        CHECK(tiny.err.find("dense.csv: reading in pieces of 64.0 KB beside the labels of 30000 rows needs about ") !=
              std::string::npos);
        CHECK(tiny.err.find("; a stream of rows reads a sixteenth of the budget") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(dir / "tiny.json"));
    }

    TEST_CASE("kestrel-train: a store beyond --max-memory is held on disk, to the default run's model") {
        ScratchDir dir("large_data_cli");
        ScratchDir tmp("large_data_cli_tmp");
        const PinnedDate pinned;  // models compared byte for byte
        const auto data = dir.file("wide.libsvm", wide_sparse_libsvm());
        const std::string train = "kestrel-train -m gbdt -p n_estimators=3 -p max_depth=3 --threads 2 ";
        const auto plain = run_tool(train + q(data) + " -o " + q(dir / "plain.json"));
        REQUIRE_MESSAGE(plain.exit_code == 0, plain.err);
        const auto disk = run_tool("TMPDIR=" + q(tmp.path.string()) + " " + train + "--max-memory 3M " + q(data) +
                                   " -o " + q(dir / "disk.json"));
        REQUIRE_MESSAGE(disk.exit_code == 0, disk.err);
        CHECK(disk.err.find("quantized store: codes") == std::string::npos);  // no progress off a terminal
        CHECK(disk.err.find("rows read into the quantized store, its codes in pages on disk") != std::string::npos);
        CHECK(slurp(dir / "disk.json") == slurp(dir / "plain.json"));
        CHECK(std::filesystem::is_empty(tmp.path));
        // The disk path taken: a directory that does not exist is its one-line error.
        const auto missing = run_tool("TMPDIR=/nonexistent-kestrel-tmp " + train + "--max-memory 3M " + q(data) +
                                      " -o " + q(dir / "none.json"));
        CHECK(missing.exit_code == 2);
        CHECK(missing.err.find("/nonexistent-kestrel-tmp: cannot hold 19.1 MB of the quantized store on disk: ") !=
              std::string::npos);
        CHECK(std::count(missing.err.begin(), missing.err.end(), '\n') == 1);
        CHECK_FALSE(std::filesystem::exists(dir / "none.json"));
        // No room for the file's blocks (a file size limit stands in for a full disk: the same
        // failure of posix_fallocate, EFBIG for ENOSPC; SIGXFSZ ignored, as a full disk sends
        // none): the one-line error naming the directory, exit 2, no SIGBUS.
        const auto full = run_tool("sh -c \"trap '' XFSZ; ulimit -f 1024; TMPDIR=" + q(tmp.path.string()) + " " +
                                   train + "--max-memory 3M " + q(data) + " -o " + q(dir / "full.json") + "\"");
        CHECK(full.exit_code == 2);
        CHECK(full.err.find(tmp.path.string() + ": cannot hold 19.1 MB of the quantized store on disk: ") !=
              std::string::npos);
        CHECK(full.err.find("no room for its blocks") != std::string::npos);
        CHECK(std::count(full.err.begin(), full.err.end(), '\n') == 1);
        CHECK(std::filesystem::is_empty(tmp.path));
    }

    TEST_CASE("kestrel-cv, -gridsearch, -select and -auto beyond --max-memory: one line saying a single fit takes the store") {
        ScratchDir dir("large_data_split_jobs");
        // 20,000 dense rows of 10 features: 1.6 MB of doubles, beyond a 1 MB budget.
        kestrel::Rng rng(51);
        std::ostringstream csv;
        csv << "y,a,b,c,d,e,f,g,h,i,j\n";
        for (int r = 0; r < 20000; ++r) {
            csv << rng.below(2);
            for (int f = 0; f < 10; ++f) csv << "," << rng.normal();
            csv << "\n";
        }
        const auto data = dir.file("dense.csv", csv.str());
        for (const std::string job : {"kestrel-cv -m gbdt", "kestrel-gridsearch -m gbdt -g max_depth=2,3",
                                      "kestrel-select -m gbdt", "kestrel-auto"}) {
            CAPTURE(job);
            const auto r = run_tool(job + " --max-memory 1M " + q(data));
            CHECK(r.exit_code == 2);
            CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
            CHECK(r.err.find("more than --max-memory 1.0 MB; splitting the rows (folds, grid and automatic searches) "
                             "holds them as doubles: a single fit of gbdt") != std::string::npos);
        }

    }
}

}  // namespace cli_large_data_cli_test
}  // namespace
