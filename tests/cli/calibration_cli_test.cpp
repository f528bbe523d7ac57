// --calibrate through kestrel-train, -predict, -cv and -gridsearch; the Brier score and the
// reliability diagram (--plot calibration.svg), in process.
#include <doctest/doctest.h>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_calibration_cli_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::run;

namespace {

const std::string heart_train = kestrel::test::repo_path("data/heart_scale/train.libsvm");
const std::string heart_test = kestrel::test::repo_path("data/heart_scale/test.libsvm");
const std::string iris_train = kestrel::test::repo_path("data/iris/train.libsvm");

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_SUITE("cli.calibration") {
    TEST_CASE("kestrel-train --calibrate: kestrel-predict --proba gives the stored calibrated probabilities") {
        test::ScratchDir dir("calibrate");
        const auto model = dir / "m.json", pred = dir / "p.csv";
        auto t = run(run_train, "kestrel-train",
                     {"-m", "svc", "--calibrate", "isotonic", "--calibrate-folds", "3", heart_train, "-o", model});
        REQUIRE_MESSAGE(t.code == 0, t.err);
        const Json saved = Json::parse(test::slurp(model));
        CHECK(saved["version"] == 4);
        CHECK(saved["calibration"]["method"] == "isotonic");
        CHECK(saved["calibration"]["folds"] == 3);
        auto p = run(run_predict, "kestrel-predict", {model, heart_test, "--proba", "-o", pred});
        REQUIRE_MESSAGE(p.code == 0, p.err);
        const Model m = Model::load(model);
        const Matrix want = m.predict_proba(read_table(heart_test, m.align_options(ReadOptions{})).X);
        const Table got = read_table(pred, ReadOptions{});
        // The file's columns: prediction, then proba per class, as shortest exact text.
        REQUIRE(got.X.cols() == 2);
        CHECK(Matrix(got.X.dense_ref()) == want);
    }

    TEST_CASE("Brier score in kestrel-predict --metrics; --plot calibration.svg has the counts per bin") {
        test::ScratchDir dir("calibrate-plot");
        const auto model = dir / "m.json", svg = dir / "calibration.svg";
        REQUIRE(run(run_train, "kestrel-train", {"-m", "logistic", "--calibrate", "sigmoid", heart_train, "-o", model}).code == 0);
        auto p = run(run_predict, "kestrel-predict", {model, heart_test, "--metrics", "--json", "--plot", svg});
        REQUIRE_MESSAGE(p.code == 0, p.err);
        const Json j = Json::parse(p.out);
        CHECK(j.at("brier_score").get<double>() > 0);
        CHECK(j.at("brier_score").get<double>() < 0.25);
        const std::string text = test::slurp(svg);
        CHECK(text.find("Reliability diagram") != std::string::npos);
        CHECK(count_of(text, "class=\"point-label\"") >= 3);
        CHECK(text.find(">n=") != std::string::npos);
        // A model without probabilities cannot draw it: exit 1 before any prediction.
        const auto plain = dir / "svm.json";
        REQUIRE(run(run_train, "kestrel-train", {"-m", "linear_svm", heart_train, "-o", plain}).code == 0);
        auto bad = run(run_predict, "kestrel-predict", {plain, heart_test, "--plot", svg});
        CHECK(bad.code == 1);
        CHECK(bad.err.find("--plot calibration needs probabilities") != std::string::npos);
    }

    TEST_CASE("kestrel-cv and kestrel-gridsearch take --calibrate; brier_score is a metric") {
        auto cv = run(run_cv, "kestrel-cv",
                      {"-m", "linear_svm", "--calibrate", "sigmoid", "-k", "3", "--metric", "brier_score", iris_train, "--json"});
        REQUIRE_MESSAGE(cv.code == 0, cv.err);
        CHECK(cv.out.find("brier_score") != std::string::npos);
        auto gs = run(run_gridsearch, "kestrel-gridsearch",
                      {"-m", "linear_svm", "--calibrate", "sigmoid", "-g", "C=0.1,1", "-k", "3", "--metric",
                       "neg_brier_score", iris_train, "--json"});
        REQUIRE_MESSAGE(gs.code == 0, gs.err);
    }

    TEST_CASE("--calibrate bad uses: one line, exit 1") {
        test::ScratchDir dir("calibrate-bad");
        const auto model = dir / "m.json";
        const auto code_of = [&](std::vector<std::string> args) {
            args.push_back("-o");
            args.push_back(model);
            return run(run_train, "kestrel-train", args);
        };
        auto r = code_of({"-m", "logistic", "--calibrate", "platt", heart_train});
        CHECK(r.code == 1);
        r = code_of({"-m", "logistic", "--calibrate-folds", "3", heart_train});
        CHECK(r.code == 1);
        CHECK(r.err.find("--calibrate-folds goes with --calibrate") != std::string::npos);
        r = code_of({"-m", "logistic", "--calibrate", "sigmoid", "--calibrate-folds", "1", heart_train});
        CHECK(r.code == 1);
        r = code_of({"-m", "ridge", "--calibrate", "sigmoid", heart_train});
        CHECK(r.code == 1);
        CHECK(r.err.find("does not apply to regression") != std::string::npos);
        r = code_of({"-m", "logistic", "--calibrate", "sigmoid", "--calibrate-folds", "200", heart_train});
        CHECK(r.code == 1);
        CHECK(r.err.find("rows of every class") != std::string::npos);
        CHECK(count_of(r.err, "\n") == 1);
    }
}

}  // namespace cli_calibration_cli_test
}  // namespace
