// Format detection by content from the command line: a LETOR file named train.rank (qid:,
// '#' comments) trains a lambdarank gbdt and is scored as LIBSVM by kestrel-predict and
// kestrel-cv; a file of neither format stops every command with one line naming --format.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

#include "cli/run_tool.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_format_detection_cli_test {

using namespace kestrel::test;

namespace {

// Eight queries of five documents: the grade is the first feature's rank in its query.
std::string letor_file() {
    std::ostringstream s;
    s << "# LETOR 4.0 style: label qid:N index:value ... # docid\n";
    for (int q = 1; q <= 8; ++q)
        for (int d = 0; d < 5; ++d)
            s << (d % 3) << " qid:" << q << " 1:" << (d % 3) * 0.25 + 0.01 * q << " 2:" << 0.1 * d
              << " # docid = GX" << q << "-" << d << "\n";
    return s.str();
}

}  // namespace

TEST_SUITE("cli.format_detection") {
    TEST_CASE("a LETOR file with qid and comments, named .rank, is read as LIBSVM by every command") {
        ScratchDir dir("format_detection");
        const auto data = dir.file("train.rank", letor_file());
        const auto model = dir / "m.json";
        const auto t = run_tool("kestrel-train -q -m gbdt -p loss=lambdarank -p n_estimators=5 '" + data + "' -o '" +
                                model + "'");
        REQUIRE_MESSAGE(t.exit_code == 0, t.err);
        const auto p = run_tool("kestrel-predict '" + model + "' '" + data + "' --metrics -o '" + (dir / "p.csv") + "'");
        REQUIRE_MESSAGE(p.exit_code == 0, p.err);
        std::istringstream report(p.out);
        std::string line;
        double queries = 0;
        while (std::getline(report, line))
            if (line.rfind("queries ", 0) == 0) queries = std::stod(line.substr(8));
        CHECK(queries == 8);
        const auto cv = run_tool("kestrel-cv -q -m gbdt -p loss=lambdarank -p n_estimators=5 -k 2 '" + data + "'");
        REQUIRE_MESSAGE(cv.exit_code == 0, cv.err);
        CHECK(cv.out.find("ndcg@10") != std::string::npos);
    }

    TEST_CASE("a file of neither format: exit 2, one line naming --format and the formats tried") {
        ScratchDir dir("format_neither");
        const auto data = dir.file("train.txt", "1 2.5 3\n0 1.5 2\n");
        const auto t = run_tool("kestrel-train -q -m logistic '" + data + "' -o '" + (dir / "m.json") + "'");
        CHECK(t.exit_code == 2);
        CHECK(t.err == "kestrel-train: " + data +
                           ":1: \"1 2.5 3\" looks like no format tried (libsvm: token 2 \"2.5\" is not index:value; "
                           "csv: its tokens are separated by spaces, not by ',', ';' or a tab); if it is one of them, "
                           "say which with --format (libsvm, csv)\n");
        const auto cv = run_tool("kestrel-cv -q -m logistic '" + data + "'");
        CHECK(cv.exit_code == 2);
        CHECK(cv.err.find("say which with --format (libsvm, csv)") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(dir / "m.json"));
    }
}

}  // namespace cli_format_detection_cli_test
}  // namespace
