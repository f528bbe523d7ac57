// kestrel-cv's schemes, predictions and learning curves; kestrel-gridsearch's random
// search, halving, nested CV, resume and axes. In process (the command bodies).
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>

#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "cli/run_in_process.hpp"
#include "kestrel/core/params.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_cv_search_cli_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::Captured;
using kestrel::test::run;

namespace {

const std::string iris_train = test::repo_path("data/iris/train.csv");
const std::string iris_test = test::repo_path("data/iris/test.csv");

// 24 rows, 2 classes; a word-valued "site" column (4 sites of different sizes) that is
// not a feature: the label follows x1 alone.
std::string sites_csv() {
    std::string s = "label,x1,site,x2\n";
    const char* sites[] = {"north", "south", "east", "west"};
    for (int i = 0; i < 24; ++i) {
        const int site = i < 3 ? 0 : i < 8 ? 1 : i < 15 ? 2 : 3;
        const double x1 = (i % 6) - 2.5 + 0.1 * (i % 4);
        s += std::string(x1 > 0 ? "yes" : "no") + "," + std::to_string(x1) + "," + sites[site] + "," +
             std::to_string((i * 7) % 5) + "\n";
    }
    return s;
}

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> f(1);
        for (char c : line) {
            if (c == ',') f.emplace_back();
            else f.back() += c;
        }
        rows.push_back(f);
    }
    return rows;
}

}  // namespace

TEST_SUITE("cli.cv_search") {
    TEST_CASE("kestrel-cv --loo and -k n: one fold per row, pooled metrics") {
        auto a = run(run_cv, "kestrel-cv", {"-m", "logistic", "--loo", "--json", "--metric", "accuracy", iris_test});
        REQUIRE(a.code == 0);
        const auto j = Json::parse(a.out);
        CHECK(j["scheme"] == "leave-one-out");
        CHECK(j["metrics"]["accuracy"]["folds"].size() == 30);
        CHECK(j["metrics"]["accuracy"]["pooled"].get<double>() == doctest::Approx(j["metrics"]["accuracy"]["mean"].get<double>()));
        auto b = run(run_cv, "kestrel-cv", {"-m", "logistic", "-k", "n", "--json", "--metric", "accuracy", iris_test});
        REQUIRE(b.code == 0);
        CHECK(Json::parse(b.out)["metrics"] == j["metrics"]);
        auto text = run(run_cv, "kestrel-cv", {"-m", "logistic", "--loo", iris_test});
        REQUIRE(text.code == 0);
        CHECK(text.out.find("leave-one-out cross-validation of logistic") != std::string::npos);
        CHECK(text.out.find("pooled") != std::string::npos);
    }

    TEST_CASE("kestrel-cv --shuffle-split and --validation") {
        auto s = run(run_cv, "kestrel-cv",
                     {"-m", "logistic", "--shuffle-split", "6", "--test-fraction", "0.25", "--json", iris_train});
        REQUIRE(s.code == 0);
        const auto j = Json::parse(s.out);
        CHECK(j["splits"] == 6);
        CHECK(j["test_fraction"] == 0.25);
        CHECK(j["metrics"]["accuracy"]["folds"].size() == 6);
        CHECK(j["out_of_fold"]["n"] == 180);  // 6 splits x 30 test rows, pooled

        auto v = run(run_cv, "kestrel-cv", {"-m", "logistic", "--validation", iris_test, "--json", iris_train});
        REQUIRE(v.code == 0);
        const auto jv = Json::parse(v.out);
        CHECK(jv["scheme"] == "train/validation");
        CHECK(jv["metrics"]["accuracy"]["folds"].size() == 1);
        // the same as training on the file and predicting the validation file
        test::ScratchDir dir("cvval");
        REQUIRE(run(run_train, "kestrel-train", {"-m", "logistic", iris_train, "-o", dir / "m.json"}).code == 0);
        auto p = run(run_predict, "kestrel-predict", {dir / "m.json", iris_test, "--metrics", "--json"});
        REQUIRE(p.code == 0);
        CHECK(jv["metrics"]["accuracy"]["mean"].get<double>() ==
              doctest::Approx(Json::parse(p.out)["accuracy"].get<double>()));
    }

    TEST_CASE("kestrel-cv --groups: the column leaves the features and no group is split; --predictions") {
        test::ScratchDir dir("cvgroups");
        const auto data = dir.file("sites.csv", sites_csv());
        auto r = run(run_cv, "kestrel-cv",
                     {"-m", "logistic", "--groups", "site", "-k", "3", "--json", "--predictions", dir / "oof.csv", data});
        REQUIRE(r.code == 0);
        const auto j = Json::parse(r.out);
        CHECK(j["scheme"] == "group 3-fold");
        CHECK(j["groups"] == 4);
        const auto rows = csv_rows(test::slurp(dir / "oof.csv"));
        REQUIRE(rows.size() == 25);
        CHECK(rows[0] == std::vector<std::string>{"row", "fold", "truth", "prediction", "proba_no", "proba_yes",
                                                  "decision"});
        std::map<int, std::string> fold_of_row;
        for (std::size_t i = 1; i < rows.size(); ++i) fold_of_row[std::stoi(rows[i][0])] = rows[i][1];
        CHECK(fold_of_row.size() == 24);  // every row once
        const auto site = [](int i) { return i < 3 ? 0 : i < 8 ? 1 : i < 15 ? 2 : 3; };
        for (int i = 1; i < 24; ++i)
            if (site(i) == site(i - 1)) CHECK(fold_of_row[i] == fold_of_row[i - 1]);
        // sklearn GroupKFold(3): west (9 rows) -> fold 1, east (7) -> 2, south (5) -> 3, north (3) -> 3
        CHECK(fold_of_row[20] == "1");
        CHECK(fold_of_row[10] == "2");
        CHECK(fold_of_row[5] == "3");
        CHECK(fold_of_row[0] == "3");

        const auto one = dir.file("one.csv", "label,x,g\n0,1,a\n1,2,a\n0,3,a\n1,4,a\n");
        auto bad = run(run_cv, "kestrel-cv", {"-m", "logistic", "--groups", "g", "-k", "2", one});
        CHECK(bad.code == 1);
        CHECK(bad.err.find("--groups") != std::string::npos);
        auto missing = run(run_cv, "kestrel-cv", {"-m", "logistic", "--groups", "nope", data});
        CHECK(missing.code == 1);
        CHECK(missing.err.find("--groups nope") != std::string::npos);
        auto both = run(run_cv, "kestrel-cv", {"-m", "logistic", "--groups", "site", "--loo", data});
        CHECK(both.code == 1);
    }

    TEST_CASE("kestrel-cv --learning-curve: table, JSON, CSV; bad fractions name the flag") {
        test::ScratchDir dir("lcurve");
        auto r = run(run_cv, "kestrel-cv",
                     {"-m", "logistic", "--learning-curve", "0.2:1:3", "--curve-csv", dir / "c.csv", iris_train});
        REQUIRE(r.code == 0);
        CHECK(r.out.find("learning curve of logistic") != std::string::npos);
        CHECK(r.out.find("validation") != std::string::npos);
        const auto rows = csv_rows(test::slurp(dir / "c.csv"));
        REQUIRE(rows.size() == 4);
        CHECK(rows[0][0] == "fraction");
        CHECK(rows[1][1] == "19");  // floor(0.2 * 96)
        CHECK(rows[3][1] == "96");
        auto j = run(run_cv, "kestrel-cv", {"-m", "logistic", "--learning-curve", "0.5,1", "--json", iris_train});
        REQUIRE(j.code == 0);
        CHECK(Json::parse(j.out)["learning_curve"]["points"].size() == 2);
        for (const char* bad : {"0:1:3", "0.1:2:3", "x"}) {
            auto b = run(run_cv, "kestrel-cv", {"-m", "logistic", "--learning-curve", bad, iris_train});
            CHECK(b.code == 1);
            CHECK(b.err.find("--learning-curve") != std::string::npos);
        }
        auto nocurve = run(run_cv, "kestrel-cv", {"-m", "logistic", "--curve-csv", dir / "x.csv", iris_train});
        CHECK(nocurve.code == 1);
    }

    TEST_CASE("kestrel-gridsearch: kernels, scale and nested parameters as axes") {
        auto k = run(run_gridsearch, "kestrel-gridsearch",
                     {"-m", "svc", "-g", "kernel=rbf,poly,linear", "-g", "scale=standard,minmax,none", "-k", "3",
                      "--json", iris_train});
        REQUIRE(k.code == 0);
        const auto j = Json::parse(k.out);
        CHECK(j["points"].size() == 9);
        std::set<std::string> kernels;
        for (const auto& p : j["points"]) kernels.insert(p["params"]["kernel"].get<std::string>());
        CHECK(kernels == std::set<std::string>{"rbf", "poly", "linear"});
        auto nested = run(run_gridsearch, "kestrel-gridsearch",
                          {"-m", "adaboost", "-p", "n_estimators=5", "-g", "base.max_depth=1,2", "-k", "3", iris_train});
        CHECK(nested.code == 0);
        auto none = run(run_gridsearch, "kestrel-gridsearch", {"-m", "svc", "-g", "C=", iris_train});
        CHECK(none.code == 1);
        CHECK(none.err.find("-g C=") != std::string::npos);
    }

    TEST_CASE("kestrel-gridsearch: random search and halving, identical on 1 and 2 threads") {
        for (const char* mode : {"--n-iter", "--halving"}) {
            CAPTURE(mode);
            std::vector<std::string> args{"-m", "logistic", "-g", "C=loguniform(1e-3,1e3)", "--json", "--seed", "4", iris_train};
            if (std::string(mode) == "--n-iter") args.insert(args.end(), {"--n-iter", "7"});
            else args = {"-m", "logistic", "-g", "C=2^-10:2^10:1", "--halving", "--json", "--seed", "4", iris_train};
            auto one = args, two = args;
            one.insert(one.end(), {"--threads", "1"});
            two.insert(two.end(), {"--threads", "2"});
            auto a = run(run_gridsearch, "kestrel-gridsearch", one);
            auto b = run(run_gridsearch, "kestrel-gridsearch", two);
            REQUIRE(a.code == 0);
            REQUIRE(b.code == 0);
            const auto ja = Json::parse(a.out), jb = Json::parse(b.out);
            REQUIRE(ja["points"].size() == jb["points"].size());
            for (std::size_t i = 0; i < ja["points"].size(); ++i) {
                CHECK(ja["points"][i]["params"] == jb["points"][i]["params"]);
                CHECK(ja["points"][i]["fold_scores"] == jb["points"][i]["fold_scores"]);
            }
        }
        auto h = run(run_gridsearch, "kestrel-gridsearch", {"-m", "logistic", "-g", "C=2^-10:2^10:1", "--halving", iris_train});
        REQUIRE(h.code == 0);
        CHECK(h.out.find("successive halving of logistic") != std::string::npos);
        CHECK(h.out.find("round 1: 21 points on") != std::string::npos);
    }

    TEST_CASE("kestrel-gridsearch --outer-k: nested estimate; --resume skips scored points") {
        auto n = run(run_gridsearch, "kestrel-gridsearch",
                     {"-m", "logistic", "-g", "C=0.01,1,100", "-k", "3", "--outer-k", "4", "--json", iris_train});
        REQUIRE(n.code == 0);
        const auto j = Json::parse(n.out);
        CHECK(j["nested"]["outer"].size() == 4);
        CHECK(j["nested"]["mean"].get<double>() > 0.85);

        test::ScratchDir dir("resume");
        const auto grid = dir / "grid.csv";
        auto first = run(run_gridsearch, "kestrel-gridsearch",
                         {"-m", "logistic", "-g", "C=0.1,1", "-k", "3", "--resume", grid, iris_train});
        REQUIRE(first.code == 0);
        const std::string before = test::slurp(grid);
        auto second = run(run_gridsearch, "kestrel-gridsearch",
                          {"-m", "logistic", "-g", "C=0.1,1,10", "-k", "3", "--resume", grid, "--json", iris_train});
        REQUIRE(second.code == 0);
        const auto js = Json::parse(second.out);
        CHECK(js["fitted_points"] == 1);
        CHECK(csv_rows(test::slurp(grid)).size() == 4);  // header + 3 points
        for (const auto& p : js["points"]) CHECK(p["resumed"] == (p["params"]["C"] != "10"));
        auto other_metric = run(run_gridsearch, "kestrel-gridsearch",
                                {"-m", "logistic", "-g", "C=0.1,1", "-k", "3", "--metric", "f1_macro", "--resume", grid, iris_train});
        CHECK(other_metric.code == 1);
        CHECK(other_metric.err.find("--resume") != std::string::npos);
        auto other_k = run(run_gridsearch, "kestrel-gridsearch", {"-m", "logistic", "-g", "C=0.1,1", "-k", "4", "--resume", grid, iris_train});
        CHECK(other_k.code == 1);
        (void)before;
    }
}

}  // namespace cli_cv_search_cli_test
}  // namespace
