// Learning to rank from the command line (docs/models/gbdt.md, "Learning to rank"):
// kestrel-train on a LIBSVM file with qid:N and on a CSV file with --group-col,
// kestrel-predict --metrics printing the ranking report, kestrel-cv splitting by query
// and scoring ndcg@10, and the errors of non-contiguous queries at file:line.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "cli/run_tool.hpp"
#include "kestrel/core/params.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_ranking_cli_test {

using namespace kestrel;
using namespace kestrel::test;

namespace {

// `queries` queries of 6-10 documents; grade 0-2 from x1 + x2 plus noise. csv: a
// "grade,query,x1,x2,x3" file with the query column second; else SVMrank's LIBSVM.
std::string ranking_file(int queries, bool csv) {
    Rng rng(23);
    std::ostringstream s;
    if (csv) s << "grade,query,x1,x2,x3\n";
    for (int q = 0; q < queries; ++q) {
        const int m = 6 + static_cast<int>(rng.below(5));
        for (int i = 0; i < m; ++i) {
            const double x1 = rng.normal(), x2 = rng.normal(), x3 = rng.normal();
            const double u = x1 + x2 + 0.3 * rng.normal();
            const int grade = u > 1 ? 2 : u > 0 ? 1 : 0;
            if (csv)
                s << grade << ",q" << q << ',' << x1 << ',' << x2 << ',' << x3 << '\n';
            else
                s << grade << " qid:" << q + 1 << " 1:" << x1 << " 2:" << x2 << " 3:" << x3 << '\n';
        }
    }
    return s.str();
}

// The value after `name` on its line of a report.
double report_value(const std::string& report, const std::string& name) {
    std::istringstream in(report);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(name + " ", 0) == 0) return std::stod(line.substr(name.size()));
    FAIL("no line " << name << " in: " << report);
    return 0;
}

}  // namespace

TEST_SUITE("cli.ranking") {
    TEST_CASE("qid files: train lambdarank, predict --metrics gives the ranking report") {
        ScratchDir dir("ranking");
        const auto data = dir.file("train.libsvm", ranking_file(60, false));
        const auto model = dir / "ranker.json";
        const auto t = run_tool("kestrel-train -q -m gbdt -p loss=lambdarank -p n_estimators=30 '" + data + "' -o '" +
                                model + "'");
        REQUIRE_MESSAGE(t.exit_code == 0, t.err);
        const auto p = run_tool("kestrel-predict '" + model + "' '" + data + "' --metrics -o '" + (dir / "p.csv") + "'");
        REQUIRE_MESSAGE(p.exit_code == 0, p.err);
        CHECK(report_value(p.out, "queries") == 60);
        // The grades follow x1 + x2: the training queries are ranked well.
        CHECK(report_value(p.out, "ndcg@10") > 0.9);
        CHECK(report_value(p.out, "ndcg@1") <= 1.0);
        CHECK(p.out.find("map@10") != std::string::npos);
        CHECK(p.out.find("mrr") != std::string::npos);
    }

    TEST_CASE("CSV with --group-col: a column of words names the queries; cv splits by query and scores ndcg@10") {
        ScratchDir dir("ranking_csv");
        const auto data = dir.file("train.csv", ranking_file(40, true));
        const auto t = run_tool("kestrel-train -q -m gbdt -p loss=rank_pairwise -p n_estimators=20 --group-col query '" +
                                data + "' -o '" + (dir / "m.json") + "'");
        REQUIRE_MESSAGE(t.exit_code == 0, t.err);
        const auto p = run_tool("kestrel-predict '" + (dir / "m.json") + "' '" + data + "' --group-col query --metrics -o '" +
                                (dir / "p.csv") + "'");
        REQUIRE_MESSAGE(p.exit_code == 0, p.err);
        CHECK(report_value(p.out, "queries") == 40);
        CHECK(report_value(p.out, "ndcg@10") > 0.85);
        const auto no_metrics = run_tool("kestrel-predict '" + (dir / "m.json") + "' '" + data + "' --group-col query");
        CHECK(no_metrics.exit_code == 1);
        const auto cv = run_tool("kestrel-cv -q -m gbdt -p loss=lambdarank -p n_estimators=20 -k 4 --group-col query '" +
                                 data + "'");
        REQUIRE_MESSAGE(cv.exit_code == 0, cv.err);
        CHECK(cv.out.find("ndcg@10") != std::string::npos);
        const auto no_groups = run_tool("kestrel-train -q -m gbdt -p loss=lambdarank --task regression '" + data +
                                        "' --ignore-cols query -o '" + (dir / "x.json") + "'");
        CHECK(no_groups.exit_code == 2);
        CHECK(no_groups.err.find("ranks the documents of each query") != std::string::npos);
    }

    TEST_CASE("a classifier on a qid file is scored by classification metrics by default, in cv and gridsearch") {
        ScratchDir dir("ranking_classify");
        const auto data = dir.file("train.libsvm", ranking_file(30, false));
        const auto cv = run_tool("kestrel-cv -q -m gbdt --task classification -p n_estimators=5 -k 3 '" + data + "'");
        REQUIRE_MESSAGE(cv.exit_code == 0, cv.err);
        CHECK(cv.out.find("accuracy") != std::string::npos);
        CHECK(cv.out.find("ndcg") == std::string::npos);
        const auto grid = run_tool("kestrel-gridsearch -q -m gbdt --task classification -g n_estimators=3,5 -k 3 '" +
                                   data + "' -o '" + (dir / "m.json") + "'");
        REQUIRE_MESSAGE(grid.exit_code == 0, grid.err);
        CHECK(grid.out.find("accuracy") != std::string::npos);
    }

    TEST_CASE("a query that comes back after another is an error at file:line") {
        ScratchDir dir("ranking_bad");
        const auto svm = dir.file("bad.libsvm", "1 qid:1 1:1\n0 qid:1 1:2\n1 qid:2 1:0\n2 qid:1 1:3\n");
        const auto r = run_tool("kestrel-train -q -m gbdt -p loss=lambdarank '" + svm + "' -o '" + (dir / "m.json") + "'");
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("bad.libsvm:4: query 1 reappears after other queries (first on line 1)") != std::string::npos);
        const auto csv = dir.file("bad.csv", "y,g,x\n1,a,1\n0,b,2\n1,a,3\n");
        const auto c = run_tool("kestrel-train -q -m gbdt -p loss=lambdarank --group-col g '" + csv + "' -o '" +
                                (dir / "m.json") + "'");
        CHECK(c.exit_code == 2);
        CHECK(c.err.find("bad.csv:4: query") != std::string::npos);
        const auto missing = dir.file("gap.libsvm", "1 qid:1 1:1\n0 1:2\n");
        const auto m = run_tool("kestrel-train -q -m gbdt -p loss=lambdarank '" + missing + "' -o '" + (dir / "m.json") + "'");
        CHECK(m.exit_code == 2);
        CHECK(m.err.find("gap.libsvm:2:2: no qid:") != std::string::npos);
    }

    TEST_CASE("--resample on rows in queries is a usage error, not a model trained on torn groups") {
        ScratchDir dir("ranking_resample");
        const auto data = dir.file("train.libsvm", ranking_file(20, false));
        const auto r = run_tool("kestrel-train -q -m gbdt --task classification --resample over '" + data + "' -o '" +
                                (dir / "m.json") + "'");
        CHECK(r.exit_code == 1);
        CHECK(r.err.find("--resample over draws single rows, which would break the data's query groups") !=
              std::string::npos);
        // --metric: kestrel-cv scores rows with query ids by ndcg@10 unless told otherwise
        const auto cv =
            run_tool("kestrel-cv -q -m gbdt --task classification --metric accuracy --resample smote '" + data + "'");
        CHECK(cv.exit_code == 1);
        CHECK(cv.err.find("query groups") != std::string::npos);
    }

    TEST_CASE("a ranking loss is called ranking where the commands print the task; the model file keeps regression") {
        ScratchDir dir("ranking_task");
        const auto data = dir.file("train.libsvm", ranking_file(20, false));
        for (const char* loss : {"lambdarank", "rank_pairwise"}) {
            CAPTURE(loss);
            const std::string flags = std::string("-m gbdt -p loss=") + loss + " -p n_estimators=5 ";
            const auto text = run_tool("kestrel-train " + flags + "'" + data + "' -o '" + (dir / "r.json") + "'");
            REQUIRE_MESSAGE(text.exit_code == 0, text.err);
            CHECK(text.err.rfind("trained gbdt (ranking) on ", 0) == 0);
            const auto json = run_tool("kestrel-train --json " + flags + "'" + data + "' -o '" + (dir / "r.json") + "'");
            REQUIRE_MESSAGE(json.exit_code == 0, json.err);
            CHECK(Json::parse(json.out).at("task") == "ranking");
            // The file's task is what the estimator learned: a score per row.
            CHECK(Json::parse(slurp(dir / "r.json")).at("task") == "regression");
            const auto cv = run_tool("kestrel-cv --json -k 3 " + flags + "'" + data + "'");
            REQUIRE_MESSAGE(cv.exit_code == 0, cv.err);
            CHECK(Json::parse(cv.out).at("task") == "ranking");
            const auto curve = run_tool("kestrel-cv --json -k 3 --learning-curve 0.5,1 " + flags + "'" + data + "'");
            REQUIRE_MESSAGE(curve.exit_code == 0, curve.err);
            CHECK(Json::parse(curve.out).at("task") == "ranking");
        }
        // A regression loss on the same rows stays a regression (scored by ndcg@10 in cv).
        const auto squared =
            run_tool("kestrel-train -m gbdt -p n_estimators=5 '" + data + "' -o '" + (dir / "s.json") + "'");
        REQUIRE_MESSAGE(squared.exit_code == 0, squared.err);
        CHECK(squared.err.rfind("trained gbdt (regression) on ", 0) == 0);
        const auto cv = run_tool("kestrel-cv --json -k 3 -m gbdt -p n_estimators=5 '" + data + "'");
        REQUIRE_MESSAGE(cv.exit_code == 0, cv.err);
        CHECK(Json::parse(cv.out).at("task") == "regression");
    }
}

}  // namespace cli_ranking_cli_test
}  // namespace
