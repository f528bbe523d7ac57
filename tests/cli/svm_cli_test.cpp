// The kernel SVMs end to end through the executables: train, predict (--decision,
// --proba), cv, gridsearch, models from LIBSVM's svm-train, and bad parameters.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <vector>

#include "cli/run_tool.hpp"
#include "kestrel/core/params.hpp"
#include "kestrel/io/data_reader.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_svm_cli_test {

using namespace kestrel::test;

namespace {
const std::string heart_train = repo_path("data/heart_scale/train.libsvm");
const std::string heart_test = repo_path("data/heart_scale/test.libsvm");
const std::string libsvm_models = repo_path("tests/fixtures/libsvm-models/");

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::istringstream l(line);
        std::string cell;
        while (std::getline(l, cell, ',')) cells.push_back(cell);
        rows.push_back(std::move(cells));
    }
    return rows;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_SUITE("cli.svm") {
    TEST_CASE("svc: train and predict with --decision and --metrics as svm-train/svm-predict") {
        ScratchDir dir("svm_train");
        const auto model = dir / "svc.json";
        auto t = run_tool("kestrel-train -m svc -p C=1 -p gamma=0.07692307692307693 '" + heart_train + "' -o '" + model + "'");
        REQUIRE(t.exit_code == 0);
        const auto j = kestrel::Json::parse(slurp(model));
        CHECK(j["state"]["n_sv"] == kestrel::Json({55, 52}));  // svm-train 3.24: nSV = 107, nBSV = 84
        // LIBSVM 3.24 svm_predict_values with the same C and gamma (tests/unit/svm/svc_test.cpp):
        // 1.6172866, 1.2029648, 1.4755647 for the first rows, favouring class 0; kestrel's
        // binary decision column is positive for classes[1], so it is negated.
        auto p = run_tool("kestrel-predict '" + model + "' '" + heart_test + "' --decision");
        REQUIRE(p.exit_code == 0);
        const auto rows = csv_rows(p.out);
        REQUIRE(rows.size() == 55);
        CHECK(rows[0] == std::vector<std::string>{"prediction", "decision"});
        const std::vector<double> libsvm = {1.6172866373581287, 1.2029647986204783, 1.475564720797121};
        for (std::size_t r = 0; r < libsvm.size(); ++r) {
            CHECK(rows[r + 1][0] == "0");
            CHECK(std::abs(std::stod(rows[r + 1][1]) + libsvm[r]) < 1e-6);
        }
        // svm-predict heart_scale/test.libsvm (model trained with -c 1 -g 1/13): Accuracy = 83.3333% (45/54).
        auto m = run_tool("kestrel-predict '" + model + "' '" + heart_test + "' --metrics --json -q");
        REQUIRE(m.exit_code == 0);
        CHECK(kestrel::Json::parse(m.out)["accuracy"].get<double>() == doctest::Approx(45.0 / 54.0));
        // Without probability=1 there are no probabilities: a usage error.
        auto noproba = run_tool("kestrel-predict '" + model + "' '" + heart_test + "' --proba");
        CHECK(noproba.exit_code == 1);
        CHECK(has(noproba.err, "does not give probabilities"));
    }

    TEST_CASE("svc probability=1: --proba rows sum to 1, near LIBSVM -b 1, identical for any thread count") {
        ScratchDir dir("svm_proba");
        const auto m1 = dir / "p1.json", m2 = dir / "p2.json";
        const std::string train = "kestrel-train -q -m svc -p probability=1 -p gamma=0.07692307692307693 '" + heart_train + "' -o ";
        REQUIRE(run_tool(train + "'" + m1 + "' --threads 1").exit_code == 0);
        REQUIRE(run_tool(train + "'" + m2 + "' --threads 2").exit_code == 0);
        const auto j = kestrel::Json::parse(slurp(m1));
        CHECK(j["state"]["prob_a"].size() == 1);
        CHECK(j["state"]["prob_a"] == kestrel::Json::parse(slurp(m2))["state"]["prob_a"]);
        auto p = run_tool("kestrel-predict '" + m1 + "' '" + heart_test + "' --proba");
        REQUIRE(p.exit_code == 0);
        CHECK(p.out == run_tool("kestrel-predict '" + m2 + "' '" + heart_test + "' --proba").out);
        const auto rows = csv_rows(p.out);
        REQUIRE(rows.size() == 55);
        CHECK(rows[0] == std::vector<std::string>{"prediction", "proba_0", "proba_1"});
        for (std::size_t r = 1; r < rows.size(); ++r)
            CHECK(std::stod(rows[r][1]) + std::stod(rows[r][2]) == doctest::Approx(1.0));
        // svm-train -b 1 -c 1 -g 0.07692307692307693; svm-predict -b 1 (LIBSVM 3.24): the first
        // rows' P(0) are 0.938436, 0.880245, 0.922303, 0.117534 (LIBSVM's folds differ from ours).
        const std::vector<double> libsvm_p0 = {0.938436, 0.880245, 0.922303, 0.117534};
        for (std::size_t r = 0; r < libsvm_p0.size(); ++r) CHECK(std::abs(std::stod(rows[r + 1][1]) - libsvm_p0[r]) < 0.1);
    }

    TEST_CASE("svc: cv and gridsearch over C and gamma") {
        ScratchDir dir("svm_grid");
        auto cv = run_tool("kestrel-cv -m svc -p C=1 -p gamma=0.1 -k 5 --json -q '" + heart_train + "'");
        REQUIRE(cv.exit_code == 0);
        auto cv2 = run_tool("kestrel-cv -m svc -p C=1 -p gamma=0.1 -k 5 --json -q --threads 1 '" + heart_train + "'");
        CHECK(cv2.out == cv.out);  // same folds, same models, whatever the thread count
        CHECK(has(cv.out, "accuracy"));

        const auto best = dir / "best.json", results = dir / "grid.csv";
        auto g = run_tool("kestrel-gridsearch -q -m svc -g 'C=0.5,1,2' -g 'gamma=0.05,0.1' '" + heart_train + "' -o '" + best +
                          "' --results '" + results + "'");
        REQUIRE(g.exit_code == 0);
        const auto grid = csv_rows(slurp(results));
        REQUIRE(grid.size() == 7);  // header + 6 points
        CHECK(grid[0][0] == "rank");
        // The refit best model is the one kestrel-train makes with the winning parameters.
        const auto j = kestrel::Json::parse(slurp(best));
        const std::string C = j["params"]["C"].dump(), gamma = j["params"]["gamma"].dump();
        CHECK(std::stod(grid[1][1]) == j["params"]["C"].get<double>());
        CHECK(std::stod(grid[1][2]) == j["params"]["gamma"].get<double>());
        const auto direct = dir / "direct.json";
        REQUIRE(run_tool("kestrel-train -q -m svc -p C=" + C + " -p gamma=" + gamma + " '" + heart_train + "' -o '" + direct + "'").exit_code == 0);
        CHECK(run_tool("kestrel-predict '" + best + "' '" + heart_test + "' --decision").out ==
              run_tool("kestrel-predict '" + direct + "' '" + heart_test + "' --decision").out);
    }

    TEST_CASE("kestrel-predict reads svm-train's model files") {
        // svm-train -c 1 -g 0.07692307692307693 heart_scale/train.libsvm (tests/fixtures/libsvm-models/README.md);
        // svm-predict heart_scale/test.libsvm: Accuracy = 83.3333% (45/54), first labels 0 0 0 1 0.
        auto p = run_tool("kestrel-predict '" + libsvm_models + "heart_c_svc.model' '" + heart_test + "' --metrics --json -q");
        REQUIRE(p.exit_code == 0);
        CHECK(kestrel::Json::parse(p.out)["accuracy"].get<double>() == doctest::Approx(45.0 / 54.0));
        auto q = run_tool("kestrel-predict '" + libsvm_models + "heart_c_svc.model' '" + heart_test + "'");
        REQUIRE(q.exit_code == 0);
        CHECK(q.out.rfind("prediction\n0\n0\n0\n1\n0\n", 0) == 0);
    }

    TEST_CASE("malformed LIBSVM model files exit 2 naming file:line") {
        ScratchDir dir("svm_badmodel");
        const auto bad = dir.file("bad.model", "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 1\nrho 0\n"
                                               "label 1 -1\nnr_sv 1 0\nSV\n1 1:x\n");
        auto p = run_tool("kestrel-predict '" + bad + "' '" + heart_test + "'");
        CHECK(p.exit_code == 2);
        CHECK(has(p.err, bad + ":10: LIBSVM model: expected a finite number for a feature value, found 'x'"));
        const auto truncated = dir.file("trunc.model", "svm_type c_svc\nkernel_type rbf\n");
        auto t = run_tool("kestrel-predict '" + truncated + "' '" + heart_test + "'");
        CHECK(t.exit_code == 2);
        CHECK(has(t.err, "no SV line"));
    }

    TEST_CASE("kernel=precomputed from a file: cv equals rbf's, fold for fold") {
        // heart_scale's rbf Gram (gamma 1/13) in kestrel's precomputed layout: LIBSVM's -t 4
        // rows with every index shifted by one, "label 1:serial 2:K(x,x1) ...". The folds
        // are row subsets, so this checks that rows are found by serial, not by position.
        ScratchDir dir("svm_pre");
        const kestrel::Table t = kestrel::read_table(heart_train, kestrel::ReadOptions{});
        const kestrel::DenseMatrix X = t.X.to_dense();
        std::ostringstream out;
        out.precision(17);
        for (kestrel::Index i = 0; i < X.rows(); ++i) {
            out << t.labels->text[static_cast<std::size_t>(i)] << " 1:" << i + 1;
            for (kestrel::Index j = 0; j < X.rows(); ++j)
                out << ' ' << j + 2 << ':' << std::exp(-(X.row(i) - X.row(j)).squaredNorm() / 13);
            out << '\n';
        }
        const auto gram = dir.file("gram.libsvm", out.str());
        auto pre = run_tool("kestrel-cv -q --json -m svc -p kernel=precomputed '" + gram + "'");
        auto rbf = run_tool("kestrel-cv -q --json -m svc -p gamma=0.07692307692307693 '" + heart_train + "'");
        REQUIRE(pre.exit_code == 0);
        REQUIRE(rbf.exit_code == 0);
        const auto a = kestrel::Json::parse(pre.out)["metrics"]["accuracy"]["folds"];
        const auto b = kestrel::Json::parse(rbf.out)["metrics"]["accuracy"]["folds"];
        CHECK(a == b);
        // A serial beyond the kernel columns is bad input.
        const auto bad = dir.file("bad.libsvm", "0 1:3 2:1 3:0.5\n1 1:2 2:0.5 3:1\n");
        auto e = run_tool("kestrel-train -m svc -p kernel=precomputed '" + bad + "' -o '" + (dir / "m.json") + "'");
        CHECK(e.exit_code == 2);
        CHECK(has(e.err, "precomputed kernel: row 1 has serial number 3"));
    }

    TEST_CASE("bad SVM parameters exit 1 with a clear message") {
        ScratchDir dir("svm_badparams");
        struct Bad {
            std::string args, message;
        };
        const std::vector<Bad> bad = {
            {"-m svc -p C=0", "parameter C=0 of model svc is out of range (valid: > 0)"},
            {"-m svc -p C=-1", "parameter C=-1 of model svc is out of range"},
            {"-m nu_svc -p nu=0", "parameter nu=0 of model nu_svc is out of range (valid: (0, 1])"},
            {"-m nu_svc -p nu=1.5", "parameter nu=1.5 of model nu_svc is out of range"},
            // heart_scale's 120 and 96 rows: nu <= 2*96/216.
            {"-m nu_svc -p nu=0.95", "is infeasible: a pair of classes has 120 and 96 rows, so nu must be <= 2*min/(sum) = 0.888889"},
            {"-m svc -p gamma=-0.5", "parameter gamma=-0.5 of model svc is out of range"},
            {"-m svc -p kernel=foo", "unknown kernel 'foo' (valid: linear, poly, rbf"},
            {"-m svc -p 'kernel=rbf(gamma=-1)'", "gamma must be a non-negative number"},
            {"-m one_class -p nu=2", "parameter nu=2 of model one_class is out of range"},
            {"-m svc -p probability=2", "parameter probability='2' is not a boolean"},
            {"-m svc -p loss=l1", "loss"},
            {"-m svc -p kernel=precomputed+linear", "precomputed cannot be weighted or combined"},
        };
        for (const Bad& b : bad) {
            CAPTURE(b.args);
            auto r = run_tool("kestrel-train " + b.args + " '" + heart_train + "' -o '" + (dir / "m.json") + "'");
            CHECK(r.exit_code == 1);
            CHECK(has(r.err, b.message));
        }
    }
}

}  // namespace cli_svm_cli_test
}  // namespace
