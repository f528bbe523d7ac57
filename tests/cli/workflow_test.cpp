// The executables end to end, as a user runs them: train, predict with a report,
// cross-validate, grid search, on the bundled datasets.
#include <doctest/doctest.h>

#include <regex>

#include "cli/run_tool.hpp"
#include "kestrel/core/params.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_workflow_test {

using namespace kestrel::test;

namespace {
const std::string iris_train = repo_path("data/iris/train.csv");
const std::string iris_test = repo_path("data/iris/test.csv");
const std::string heart_train = repo_path("data/heart_scale/train.libsvm");
const std::string heart_test = repo_path("data/heart_scale/test.libsvm");
const std::string diabetes_train = repo_path("data/diabetes/train.csv");
const std::string diabetes_test = repo_path("data/diabetes/test.csv");
}  // namespace

TEST_SUITE("cli.workflow") {
    TEST_CASE("train, predict with metrics, on string class labels") {
        ScratchDir dir("workflow");
        const auto model = dir / "iris.json";
        auto t = run_tool("kestrel-train -m logistic --scale standard '" + iris_train + "' -o '" + model + "'");
        REQUIRE(t.exit_code == 0);
        CHECK(t.err.find("trained logistic (classification) on 120 rows x 4 features, 3 classes") != std::string::npos);
        // The duration for people ("in 1.83 ms ->"), never a raw float such as "in 0.00183 s".
        CHECK(std::regex_search(t.err, std::regex(R"( in [0-9]+(\.[0-9]{1,2})? (ms|s) -> )")));
        CHECK(!std::regex_search(t.err, std::regex(R"(e-0[0-9] s|in 0\.0)")));
        const auto j = kestrel::Json::parse(slurp(model));
        CHECK(j["classes"] == kestrel::Json({"setosa", "versicolor", "virginica"}));
        CHECK(j["features"]["names"][0] == "sepal_length");

        auto p = run_tool("kestrel-predict '" + model + "' '" + iris_test + "' -o '" + (dir / "pred.csv") + "' --metrics --proba");
        REQUIRE(p.exit_code == 0);
        const std::string pred = slurp(dir / "pred.csv");
        CHECK(pred.rfind("prediction,proba_setosa,proba_versicolor,proba_virginica\n", 0) == 0);
        CHECK(std::count(pred.begin(), pred.end(), '\n') == 31);
        CHECK(p.out.find("accuracy") != std::string::npos);
        CHECK(p.out.find("setosa") != std::string::npos);

        auto pj = run_tool("kestrel-predict '" + model + "' '" + iris_test + "' --metrics --json");
        REQUIRE(pj.exit_code == 0);
        const auto report = kestrel::Json::parse(pj.out);
        // Iris test split with standardized multinomial logistic (C=1): setosa all right,
        // one versicolor and one virginica swapped (28/30), as scikit-learn 1.2's
        // LogisticRegression(C=1) on StandardScaler-ed data gives on this split.
        CHECK(report["accuracy"].get<double>() == doctest::Approx(28.0 / 30.0));
        CHECK(report["confusion_matrix"].size() == 3);
    }

    TEST_CASE("predictions go to stdout by default, in file row order, with class names") {
        ScratchDir dir("stdout");
        const auto model = dir / "m.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic '" + iris_train + "' -o '" + model + "'").exit_code == 0);
        auto p = run_tool("kestrel-predict '" + model + "' '" + iris_test + "'");
        REQUIRE(p.exit_code == 0);
        CHECK(p.out.rfind("prediction\n", 0) == 0);
        CHECK(p.out.find("setosa\n") != std::string::npos);
    }

    TEST_CASE("columns are matched by name at predict time") {
        ScratchDir dir("columns");
        const auto model = dir / "m.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic '" + iris_train + "' -o '" + model + "'").exit_code == 0);
        // Same rows, columns shuffled and an extra column: predictions must not change.
        const auto shuffled = dir.file("shuffled.csv",
                                       "petal_width,note,species,sepal_length,petal_length,sepal_width\n"
                                       "0.2,x,setosa,5.1,1.4,3.5\n1.8,y,virginica,6.3,5.6,2.9\n");
        const auto ordered = dir.file("ordered.csv",
                                      "species,sepal_length,sepal_width,petal_length,petal_width\n"
                                      "setosa,5.1,3.5,1.4,0.2\nvirginica,6.3,2.9,5.6,1.8\n");
        auto a = run_tool("kestrel-predict --decision '" + model + "' '" + shuffled + "'");
        auto b = run_tool("kestrel-predict --decision '" + model + "' '" + ordered + "'");
        REQUIRE(a.exit_code == 0);
        CHECK(a.out == b.out);
        const auto missing = dir.file("missing.csv", "species,sepal_length,sepal_width,petal_length\nsetosa,5.1,3.5,1.4\n");
        auto c = run_tool("kestrel-predict '" + model + "' '" + missing + "'");
        CHECK(c.exit_code == 2);
        CHECK(c.err.find("petal_width") != std::string::npos);
    }

    TEST_CASE("sparse LIBSVM files train and predict") {
        ScratchDir dir("libsvm");
        const auto model = dir / "heart.json";
        REQUIRE(run_tool("kestrel-train -q -m logistic '" + heart_train + "' -o '" + model + "'").exit_code == 0);
        auto p = run_tool("kestrel-predict --json --metrics '" + model + "' '" + heart_test + "'");
        REQUIRE(p.exit_code == 0);
        CHECK(kestrel::Json::parse(p.out)["accuracy"].get<double>() > 0.75);
    }

    TEST_CASE("regression end to end with ridge") {
        ScratchDir dir("ridge");
        const auto model = dir / "ridge.json";
        REQUIRE(run_tool("kestrel-train -q -m ridge -p alpha=0.1 '" + diabetes_train + "' -o '" + model + "'").exit_code == 0);
        auto p = run_tool("kestrel-predict --json --metrics '" + model + "' '" + diabetes_test + "'");
        REQUIRE(p.exit_code == 0);
        const auto r = kestrel::Json::parse(p.out);
        CHECK(r["r2"].get<double>() > 0.3);
        CHECK(r["rmse"].get<double>() < 65.0);
    }

    TEST_CASE("cv reports mean and std over folds, identical for any thread count") {
        auto a = run_tool("kestrel-cv --json -m logistic --scale standard -k 5 --seed 3 --threads 1 '" + iris_train + "'");
        auto b = run_tool("kestrel-cv --json -m logistic --scale standard -k 5 --seed 3 --threads 2 '" + iris_train + "'");
        REQUIRE(a.exit_code == 0);
        CHECK(a.out == b.out);
        const auto j = kestrel::Json::parse(a.out);
        CHECK(j["metrics"]["accuracy"]["folds"].size() == 5);
        CHECK(j["metrics"]["accuracy"]["mean"].get<double>() > 0.9);
        auto text = run_tool("kestrel-cv -m logistic -k 3 --repeat 2 '" + iris_train + "'");
        REQUIRE(text.exit_code == 0);
        CHECK(text.out.find("3-fold cross-validation x 2 repeats of logistic") != std::string::npos);
        CHECK(text.out.find("balanced_accuracy") != std::string::npos);
    }

    TEST_CASE("gridsearch ranks points, writes results and refits the best") {
        ScratchDir dir("grid");
        auto g = run_tool("kestrel-gridsearch -m logistic -g 'C=2^-6:2^2:2' -k 3 --metric accuracy '" + iris_train +
                          "' -o '" + (dir / "best.json") + "' --results '" + (dir / "grid.csv") + "'");
        REQUIRE(g.exit_code == 0);
        CHECK(g.out.find("5 points x 3 folds") != std::string::npos);
        const std::string csv = slurp(dir / "grid.csv");
        CHECK(csv.rfind("rank,C,mean_accuracy,std_accuracy,mean_fit_seconds,fold1,fold2,fold3\n", 0) == 0);
        const auto best = kestrel::Json::parse(slurp(dir / "best.json"));
        CHECK(best["provenance"]["gridsearch"]["metric"] == "accuracy");
        // C = 2^-6 is far too strong a penalty on iris; the best point is a larger C.
        CHECK(best["params"]["C"].get<double>() > 0.015625);
    }

    TEST_CASE("list models and help for parameters") {
        auto l = run_tool("kestrel-train --list-models");
        REQUIRE(l.exit_code == 0);
        CHECK(l.out.find("logistic") != std::string::npos);
        CHECK(l.out.find("ridge") != std::string::npos);
        auto h = run_tool("kestrel-train -m logistic --help-params");
        REQUIRE(h.exit_code == 0);
        CHECK(h.out.find("C ") != std::string::npos);
        CHECK(h.out.find("multiclass") != std::string::npos);
        CHECK(run_tool("kestrel-predict --help").exit_code == 0);
    }
}

}  // namespace cli_workflow_test
}  // namespace
