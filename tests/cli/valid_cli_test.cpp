// kestrel-train --valid: validation files read like the training file (categories, NA
// cells, classes by name), watched by gbdt every round.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "kestrel/pipeline/model.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_valid_cli_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::run;

namespace {

std::string table(const std::string& name, const std::string& part) {
    return test::repo_path("data/tables/" + name + "/" + part + ".csv");
}

std::vector<std::vector<std::string>> read_csv_cells(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream s(line);
        std::string c;
        while (std::getline(s, c, ',')) cells.push_back(c);
        rows.push_back(cells);
    }
    return rows;
}

}  // namespace

TEST_SUITE("cli") {
    TEST_CASE("--valid: gbdt stops on the validation file's auc and the saved model scores that auc on it") {
        test::ScratchDir dir("valid_credit");
        const std::string train = table("credit_data", "train"), valid = table("credit_data", "test");
        const auto model = dir / "m.json", trace = dir / "trace.csv";
        auto t = run(run_train, "kestrel-train",
                     {"-m", "gbdt", "-p", "n_estimators=400", "-p", "learning_rate=0.3", "-p",
                      "early_stopping_rounds=10", "-p", "eval_metric=logloss,auc", train, "--label-col", "Status",
                      "--valid", valid, "--trace", trace, "-o", model});
        REQUIRE_MESSAGE(t.code == 0, t.err);
        const auto rows = read_csv_cells(trace);
        REQUIRE(rows.size() > 11);
        CHECK(rows[0] == std::vector<std::string>{"round", "train_loss", "validation_loss", "validation_0-logloss",
                                                  "validation_0-auc"});
        // The best auc of the trace, its round, and 10 rounds past it.
        double best = -1;
        std::size_t best_round = 0;
        for (std::size_t r = 1; r < rows.size(); ++r)
            if (std::stod(rows[r][4]) > best) {
                best = std::stod(rows[r][4]);
                best_round = r;
            }
        CHECK(rows.size() - 1 == best_round + 10);
        const Json state = Json::parse(test::slurp(model))["state"];
        CHECK(state["best_iteration"].get<std::size_t>() == best_round - 1);
        CHECK(t.err.find("early stopping kept " + std::to_string(best_round) + " rounds (best_iteration " +
                         std::to_string(best_round - 1) + ")") != std::string::npos);
        // Predicting the validation file with the saved (best-round) model gives that auc.
        auto p = run(run_predict, "kestrel-predict",
                     {model, valid, "--label-col", "Status", "--metrics", "--json", "-o", dir / "p.csv"});
        REQUIRE_MESSAGE(p.code == 0, p.err);
        CHECK(Json::parse(p.out)["roc_auc"].get<double>() == doctest::Approx(best).epsilon(1e-6));
    }

    TEST_CASE("--valid: files that do not fit the training file, and models that watch none") {
        test::ScratchDir dir("valid_errors");
        const std::string train = dir.file("train.csv", "y,a,b\nx,1,p\nz,2,q\nx,3,p\nz,4,q\nx,5,q\nz,6,p\n");
        const std::string unseen_class = dir.file("v1.csv", "y,a,b\nx,1,p\nw,2,q\n");
        const std::string no_column = dir.file("v2.csv", "y,a\nx,1\nz,2\n");
        const std::string reordered = dir.file("v3.csv", "b,y,a\np,x,1\nq,z,6\nr,x,2\n");
        const auto out = dir / "m.json";
        auto bad = run(run_train, "kestrel-train", {"-m", "gbdt", train, "--valid", unseen_class, "-o", out});
        CHECK(bad.code == 2);
        CHECK(bad.err.find("v1.csv:3: label 'w' is not a class of the training data") != std::string::npos);
        auto missing = run(run_train, "kestrel-train", {"-m", "gbdt", train, "--valid", no_column, "-o", out});
        CHECK(missing.code == 2);
        CHECK(missing.err.find("v2.csv") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(out));
        auto other = run(run_train, "kestrel-train", {"-m", "logistic", train, "--valid", reordered, "-o", out});
        CHECK(other.code == 1);
        CHECK(other.err.find("--valid: model logistic does not watch validation sets") != std::string::npos);
        // A multiclass wrapper holds one gbdt per class, none of which watches the file.
        auto wrapped = run(run_train, "kestrel-train",
                           {"-m", "gbdt", "-p", "multiclass=ovr", train, "--valid", reordered, "-o", out});
        CHECK(wrapped.code == 1);
        CHECK(wrapped.err.find("--valid: model gbdt does not watch validation sets (gbdt does, without -p "
                               "multiclass=ovr|ovo|ecoc)") != std::string::npos);
        // Columns by name, an unseen category ("r") read as unknown: fine.
        auto ok = run(run_train, "kestrel-train",
                      {"-m", "gbdt", "-p", "n_estimators=3", "-p", "min_child_weight=0", train, "--valid", reordered,
                       "--trace", dir / "t.csv", "-o", out});
        CHECK_MESSAGE(ok.code == 0, ok.err);
        CHECK(test::slurp(dir / "t.csv").rfind("round,train_loss,validation_loss,validation_0-logloss\n", 0) == 0);
    }

    TEST_CASE("cv and gridsearch: early stopping watches each test fold and reports the rounds kept") {
        const std::string train = table("credit_data", "train");
        const std::vector<std::string> common{"-m", "gbdt", "-p", "n_estimators=300", "-p", "learning_rate=0.5",
                                              "-p", "early_stopping_rounds=5", train, "--label-col", "Status", "-k",
                                              "3", "--json"};
        auto cv = run(run_cv, "kestrel-cv", common);
        REQUIRE_MESSAGE(cv.code == 0, cv.err);
        const Json rounds = Json::parse(cv.out)["rounds"];
        REQUIRE(rounds.size() == 3);
        for (const auto& r : rounds) {
            CHECK(r.get<long long>() >= 1);
            CHECK(r.get<long long>() < 300);  // at learning_rate 0.5 the test folds stop it early
        }
        std::vector<std::string> gs_args = common;
        gs_args.insert(gs_args.begin() + 2, {"-g", "max_depth=2,3"});
        auto gs = run(run_gridsearch, "kestrel-gridsearch", gs_args);
        REQUIRE_MESSAGE(gs.code == 0, gs.err);
        const Json search = Json::parse(gs.out);  // a named object: the loop must not outlive it
        for (const auto& point : search["points"]) CHECK(point["fold_rounds"].size() == 3);
        // Without early stopping there is nothing to report.
        auto plain = run(run_cv, "kestrel-cv", {"-m", "gbdt", "-p", "n_estimators=5", train, "--label-col", "Status",
                                                "-k", "3", "--json"});
        REQUIRE_MESSAGE(plain.code == 0, plain.err);
        CHECK_FALSE(Json::parse(plain.out).contains("rounds"));
    }
}

}  // namespace cli_valid_cli_test
}  // namespace
