// kestrel-select, --weights-col, --resample, --threshold and --tune-threshold, in process.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/pipeline/model.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_imbalance_cli_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::Captured;
using kestrel::test::run;

namespace {

// Class = sign of x1 + x4 with a margin; x0, x2, x3, x5 are noise; w is a weight column.
std::string selection_csv(Index n = 120) {
    Rng rng(5);
    std::ostringstream os;
    os << "label,x0,x1,x2,x3,w,x4,x5\n";
    for (Index i = 0; i < n; ++i) {
        double x[6], s = 0;
        do {
            for (double& v : x) v = rng.normal();
            s = x[1] + x[4];
        } while (std::abs(s) < 0.3);
        os << (s > 0 ? "pos" : "neg") << "," << x[0] << "," << x[1] << "," << x[2] << "," << x[3] << "," << (1 + i % 3)
           << "," << x[4] << "," << x[5] << "\n";
    }
    return os.str();
}

}  // namespace

TEST_SUITE("cli.imbalance") {
    TEST_CASE("kestrel-select forward: trajectory, feature file, and a saved model kestrel-predict applies") {
        test::ScratchDir dir("select");
        const auto data = dir.file("d.csv", selection_csv());
        const auto features = dir / "features.txt", model = dir / "m.json";
        auto r = run(run_select, "kestrel-select",
                     {"-m", "logistic", "-p", "C=100", "--weights-col", "w", data, "--output", features, "--save-model",
                      model, "--json"});
        REQUIRE_MESSAGE(r.code == 0, r.err);
        const Json j = Json::parse(r.out);
        CHECK(j["selected"] == Json({"x1", "x4"}));
        CHECK(j["features"] == 6);  // the weight column is not a feature
        CHECK(j["trajectory"].size() == 2);
        CHECK(j["trajectory"][0]["change"].get<std::string>().rfind("+x", 0) == 0);
        CHECK(test::slurp(features) == "x1\nx4\n");
        const Json saved = Json::parse(test::slurp(model));
        CHECK(saved["preprocessing"][0]["type"] == "select_columns");
        auto p = run(run_predict, "kestrel-predict", {model, data, "--metrics", "--json"});
        REQUIRE_MESSAGE(p.code == 0, p.err);
        CHECK(Json::parse(p.out)["accuracy"].get<double>() > 0.97);

        auto text = run(run_select, "kestrel-select",
                        {"-m", "logistic", "-p", "C=100", "--weights-col", "w", data, "--direction", "backward",
                         "--max-features", "2"});
        REQUIRE_MESSAGE(text.code == 0, text.err);
        CHECK(text.out.find("selected (2): x1, x4") != std::string::npos);
        CHECK(text.out.find("(all)") != std::string::npos);
    }

    TEST_CASE("kestrel-select --method l1 and --method permutation") {
        test::ScratchDir dir("select_l1");
        const auto data = dir.file("d.csv", selection_csv());
        auto l1 = run(run_select, "kestrel-select", {"--method", "l1", "--weights-col", "w", data, "--json"});
        REQUIRE_MESSAGE(l1.code == 0, l1.err);
        const Json j = Json::parse(l1.out);
        CHECK(j["model"] == "logistic");
        CHECK(j["strength"] == "C");
        const auto sel = j["selected"].get<std::vector<std::string>>();
        CHECK(std::find(sel.begin(), sel.end(), "x1") != sel.end());
        CHECK(std::find(sel.begin(), sel.end(), "x4") != sel.end());

        const auto model = dir / "m.json";
        REQUIRE(run(run_train, "kestrel-train", {"-m", "logistic", "--weights-col", "w", data, "-o", model}).code == 0);
        auto perm = run(run_select, "kestrel-select",
                        {"--method", "permutation", "-m", model, "--heldout", data, "--repeats", "3", "--json"});
        REQUIRE_MESSAGE(perm.code == 0, perm.err);
        const Json pj = Json::parse(perm.out);
        const std::string top0 = pj["importances"][0]["feature"], top1 = pj["importances"][1]["feature"];
        CHECK(((top0 == "x1" && top1 == "x4") || (top0 == "x4" && top1 == "x1")));
        auto no_heldout = run(run_select, "kestrel-select", {"--method", "permutation", "-m", model});
        CHECK(no_heldout.code == 1);
        CHECK(no_heldout.err.find("--heldout") != std::string::npos);
    }

    TEST_CASE("--weights-col: a column becomes weights; models without weights are refused by the flag") {
        test::ScratchDir dir("weights");
        const auto data = dir.file("d.csv", selection_csv(40));
        auto ok =
            run(run_train, "kestrel-train", {"-m", "tree", "--weights-col", "w", data, "-o", dir / "t.json", "--json"});
        REQUIRE_MESSAGE(ok.code == 0, ok.err);
        CHECK(Json::parse(ok.out)["features"] == 6);
        auto bad = run(run_train, "kestrel-train", {"-m", "nu_svc", "--weights-col", "w", data, "-o", dir / "n.json"});
        CHECK(bad.code == 1);
        CHECK(bad.err.find("--weights-col: model nu_svc does not learn from sample weights") != std::string::npos);
        // A column the file lacks is bad input (exit 2), as a missing --label-col is.
        auto missing = run(run_cv, "kestrel-cv", {"-m", "logistic", "--weights-col", "nope", data});
        CHECK(missing.code == 2);
        CHECK(missing.err.find("weights column 'nope' (--weights-col) not found; the columns are: x0, x1") !=
              std::string::npos);
        auto no_label = run(run_cv, "kestrel-cv", {"-m", "logistic", "--label-col", "nope", data});
        CHECK(no_label.code == 2);
    }

    TEST_CASE("--resample in kestrel-cv; refused on regression naming the flag") {
        auto cv = run(run_cv, "kestrel-cv",
                      {"-m", "logistic", "--resample", "smote:3", test::repo_path("data/iris/train.csv"), "--json"});
        REQUIRE_MESSAGE(cv.code == 0, cv.err);
        CHECK(Json::parse(cv.out)["metrics"]["accuracy"]["mean"].get<double>() > 0.85);
        auto reg = run(run_cv, "kestrel-cv",
                       {"-m", "ridge", "--resample", "over", test::repo_path("data/diabetes/train.csv")});
        CHECK(reg.code == 1);
        CHECK(reg.err.find("--resample") != std::string::npos);
        auto bad =
            run(run_train, "kestrel-train", {"-m", "logistic", "--resample", "sideways", "x.csv", "-o", "m.json"});
        CHECK(bad.code == 1);
        CHECK(bad.err.find("--resample: unknown method 'sideways'") != std::string::npos);
    }

    TEST_CASE("--tune-threshold reaches the requested recall out of fold and the refit model keeps it") {
        test::ScratchDir dir("threshold");
        const auto model = dir / "m.json", pred = dir / "p.csv";
        const std::string data = test::shared_data("breast_cancer/train.scaled.csv");
        auto cv = run(run_cv, "kestrel-cv",
                      {"-m", "logistic", "--tune-threshold", "recall=0.99", data, "-o", model, "--json"});
        REQUIRE_MESSAGE(cv.code == 0, cv.err);
        const Json t = Json::parse(cv.out)["threshold"];
        CHECK(t["criterion"] == "recall=0.99");
        CHECK(t["score"] == "proba");
        CHECK(t["recall"].get<double>() >= 0.99);
        const Model m = Model::load(model);
        REQUIRE(m.threshold().has_value());
        CHECK(m.threshold()->value == t["value"].get<double>());
        CHECK(Json::parse(test::slurp(model))["version"] == 6);  // the threshold, feature_mean, and the label column
        // kestrel-predict applies it: every row above the threshold is the positive class.
        auto p = run(run_predict, "kestrel-predict", {model, data, "--proba", "-o", pred});
        REQUIRE_MESSAGE(p.code == 0, p.err);
        const auto lines = test::slurp(pred);
        std::istringstream in(lines);
        std::string line;
        std::getline(in, line);  // header: prediction,<p0>,<p1>
        int rows = 0;
        while (std::getline(in, line)) {
            const auto c1 = line.find(','), c2 = line.find(',', c1 + 1);
            const double p1 = std::stod(line.substr(c2 + 1));
            CHECK((p1 > t["value"].get<double>()) == (line.substr(0, c1) == m.classes()[1]));
            ++rows;
        }
        CHECK(rows > 100);
        // --threshold overrides it.
        auto all = run(run_predict, "kestrel-predict", {model, data, "--threshold", "-1", "-o", pred});
        REQUIRE(all.code == 0);
        const std::string every = test::slurp(pred);
        CHECK(every.find("\n" + m.classes()[0] + "\n") == std::string::npos);
        CHECK(every.find("\n" + m.classes()[1] + "\n") != std::string::npos);
    }

    TEST_CASE("thresholds on multiclass or regression are errors naming the flag") {
        test::ScratchDir dir("threshold_bad");
        const auto iris = dir / "iris.json", ridge = dir / "ridge.json";
        REQUIRE(run(run_train, "kestrel-train", {"-m", "logistic", test::repo_path("data/iris/train.csv"), "-o", iris})
                    .code == 0);
        REQUIRE(
            run(run_train, "kestrel-train", {"-m", "ridge", test::repo_path("data/diabetes/train.csv"), "-o", ridge})
                .code == 0);
        auto multi =
            run(run_predict, "kestrel-predict", {iris, test::repo_path("data/iris/test.csv"), "--threshold", "0.5"});
        CHECK(multi.code == 1);
        CHECK(multi.err.find("--threshold needs a binary classifier; model logistic has 3 classes") !=
              std::string::npos);
        auto reg =
            run(run_predict, "kestrel-predict", {ridge, test::repo_path("data/diabetes/test.csv"), "--threshold", "0"});
        CHECK(reg.code == 1);
        CHECK(reg.err.find("--threshold needs a binary classifier") != std::string::npos);
        auto tune_multi = run(run_cv, "kestrel-cv",
                              {"-m", "logistic", "--tune-threshold", "f1", test::repo_path("data/iris/train.csv")});
        CHECK(tune_multi.code == 1);
        CHECK(tune_multi.err.find("--tune-threshold needs a binary classifier; the data has 3 classes") !=
              std::string::npos);
        auto tune_reg = run(run_cv, "kestrel-cv",
                            {"-m", "ridge", "--tune-threshold", "f1", test::repo_path("data/diabetes/train.csv")});
        CHECK(tune_reg.code == 1);
        CHECK(tune_reg.err.find("--tune-threshold needs a binary classifier; the data is regression") !=
              std::string::npos);
    }
}

}  // namespace cli_imbalance_cli_test
}  // namespace
