// kestrel-auto --stack (docs/auto.md#stacking) on the raw credit_data table: the run's JSON
// says what the second layer scored out of fold, what it had to beat and by how much; the
// saved stack is what kestrel-predict scores with (its --proba equals the model's
// predictions in process, after a load and save round trip too), the same bytes at 1 and
// 2 threads; the same with --stack-features (the second layer takes the table's columns too,
// envelope version 8); a usage error for --stack-members or --stack-features without --stack.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cli/proba_csv.hpp"
#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/pipeline/model.hpp"
#include "test_data.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_auto_stack_cli_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::run;

namespace {
const std::string stack_train = test::repo_path("data/tables/credit_data/train.csv");
const std::string stack_test = test::repo_path("data/tables/credit_data/test.csv");

test::Captured auto_stack(const std::string& out, const std::string& threads, bool features = false) {
    std::vector<std::string> args = {stack_train, "--label-col", "Status", "--models", "logistic,tree,knn", "--max-evals",
                                     "9", "--folds", "3", "--seed", "5", "--threads", threads, "--stack",
                                     "--stack-members", "3", "--confirm-leaders", "0", "-o", out, "--json"};
    if (features) args.push_back("--stack-features");
    return run(run_auto, "kestrel-auto", args);
}

// kestrel-predict --proba's probabilities as a matrix (printed as shortest exact text).
Matrix proba_matrix(const std::string& csv) {
    const std::vector<std::vector<double>> rows = test::proba_columns(csv);
    Matrix m(static_cast<Index>(rows.size()), rows.empty() ? 0 : static_cast<Index>(rows[0].size()));
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t c = 0; c < rows[i].size(); ++c) m(static_cast<Index>(i), static_cast<Index>(c)) = rows[i][c];
    return m;
}

// kestrel-predict --proba on the test rows against the loaded model `m` (the file `model`)
// predicting them in process: the largest difference (0 when the text is exact).
double predict_cli_gap(const std::string& model, const Model& m) {
    auto p = run(run_predict, "kestrel-predict", {model, stack_test, "--label-col", "Status", "--proba"});
    REQUIRE_MESSAGE(p.code == 0, p.err);
    ReadOptions read;
    read.label_col = "Status";
    const Matrix want = m.predict_proba(read_table(stack_test, m.align_options(read)).X);
    const Matrix got = proba_matrix(p.out);
    REQUIRE(got.rows() == want.rows());
    REQUIRE(got.cols() == 2);
    return (got - want).cwiseAbs().maxCoeff();
}
}  // namespace

TEST_SUITE("cli.auto") {
    TEST_CASE("kestrel-auto --stack: the JSON's verdict, and kestrel-predict scores with the saved chain") {
        test::ScratchDir dir("auto_stack");
        const auto model = dir / "stack.json";
        auto r = auto_stack(model, "2");
        REQUIRE_MESSAGE(r.code == 0, r.err);
        const Json j = Json::parse(r.out);
        const Json& s = j["stack"];
        REQUIRE(s["members"].size() == 3);
        REQUIRE(s["second_layer"].size() == 2);
        CHECK(s["second_layer"][0]["model"] == "logistic");
        CHECK(s["second_layer"][1]["model"] == "gbdt");
        for (const Json& c : s["second_layer"]) CHECK(c["fold_scores"].size() == 3);
        // Accuracy: higher is better, so the margin is the stack's mean less the rival's.
        CHECK(s["margin"].get<double>() ==
              doctest::Approx(s["mean"].get<double>() - s["rival_mean"].get<double>()).epsilon(1e-12));
        CHECK(s["rival"] == "best single model");
        double best_single = 0;
        for (const Json& c : j["leaderboard"]) {
            double mean = 0;
            for (const Json& v : c["fold_scores"]) mean += v.get<double>() / 3;
            best_single = std::max(best_single, mean);
        }
        CHECK(s["rival_mean"].get<double>() == doctest::Approx(best_single).epsilon(1e-12));
        CHECK(s["kept"] == (s["margin"].get<double>() > 0));
        // Here the three families' probabilities stacked beat each alone out of fold.
        REQUIRE_MESSAGE(s["kept"] == true, r.out);
        CHECK(j["chosen"] == "stack");
        CHECK(j["fold_models"] == 3);

        const Json saved = Json::parse(test::slurp(model));
        CHECK(saved["model"] == "ensemble");
        CHECK(saved["version"] == 7);
        CHECK(saved["state"]["inputs"] == Json::array({3, 3, 3}));
        CHECK(saved["state"]["stacker"]["features"]["count"] == 6);  // 3 members x 2 classes
        CHECK(saved["state"]["stacker"]["model"] == "ensemble");  // the second layer's bag
        CHECK(saved["provenance"]["auto"]["cv_mean"] == s["mean"]);
        CHECK(saved["provenance"]["auto"]["rival"] == s["rival"]);

        const Model m = Model::load(model);
        REQUIRE(m.stacker() != nullptr);
        CHECK(predict_cli_gap(model, m) == 0.0);  // as shortest exact text

        // Load and save again: the same bytes.
        const auto again = dir / "again.json";
        m.save(again);
        CHECK(test::slurp(again) == test::slurp(model));
        auto metrics = run(run_predict, "kestrel-predict", {again, stack_test, "--label-col", "Status", "--metrics", "--json"});
        REQUIRE_MESSAGE(metrics.code == 0, metrics.err);
        CHECK(Json::parse(metrics.out)["accuracy"].get<double>() > 0.75);
    }

    TEST_CASE("kestrel-auto --stack: the same stack and file at 1 and 2 threads under --max-evals") {
        test::ScratchDir dir("auto_stack_threads");
        const test::PinnedDate pinned;  // the runs are seconds apart; their files record the date
        const auto one = dir / "one.json", two = dir / "two.json";
        auto a = auto_stack(one, "1");
        auto b = auto_stack(two, "2");
        REQUIRE_MESSAGE(a.code == 0, a.err);
        REQUIRE_MESSAGE(b.code == 0, b.err);
        Json ja = Json::parse(a.out), jb = Json::parse(b.out);
        for (Json* j : {&ja, &jb})
            for (Json& c : (*j)["stack"]["second_layer"]) c.erase("seconds");
        CHECK(ja["stack"] == jb["stack"]);
        CHECK(test::slurp(one) == test::slurp(two));
    }

    TEST_CASE("kestrel-auto --stack-features: the second layer takes the table's columns too, and kestrel-predict scores it") {
        test::ScratchDir dir("auto_stack_features");
        const test::PinnedDate pinned;
        const auto model = dir / "stack.json";
        auto r = auto_stack(model, "2", true);
        REQUIRE_MESSAGE(r.code == 0, r.err);
        const Json j = Json::parse(r.out);
        const Json& s = j["stack"];
        CHECK(s["features"] == true);
        REQUIRE(s["second_layer"].size() == 2);
        for (const Json& c : s["second_layer"]) CHECK(c["fold_scores"].size() == 3);
        REQUIRE_MESSAGE(s["kept"] == true, r.out);
        CHECK(j["chosen"] == "stack");

        const Json saved = Json::parse(test::slurp(model));
        CHECK(saved["version"] == 8);
        CHECK(saved["state"]["stack_features"] == true);
        CHECK(saved["provenance"]["auto"]["stack_features"] == true);
        // 3 members x 2 classes, then every column of the table as the stack is given them,
        // its categories and all.
        const Json& columns = saved["features"];
        const Json& stacker = saved["state"]["stacker"]["features"];
        CHECK(stacker["count"] == 6 + columns["count"].get<int>());
        const auto names = stacker["names"].get<std::vector<std::string>>();
        CHECK(std::vector<std::string>(names.begin() + 6, names.end()) == columns["names"].get<std::vector<std::string>>());
        REQUIRE(columns.contains("categories"));
        CHECK(stacker["categories"].size() == 6 + columns["categories"].size());

        // kestrel-predict --proba on the test rows: the chain the search scored, as the
        // model predicts them in process (shortest exact text), and the same after a load
        // and save; and the same file at 1 thread.
        const Model m = Model::load(model);
        REQUIRE(m.stacker_takes_features());
        CHECK(predict_cli_gap(model, m) <= 1e-12);
        const auto again = dir / "again.json";
        m.save(again);
        CHECK(test::slurp(again) == test::slurp(model));
        const auto one = dir / "one.json";
        auto a = auto_stack(one, "1", true);
        REQUIRE_MESSAGE(a.code == 0, a.err);
        CHECK(test::slurp(one) == test::slurp(model));
        auto metrics = run(run_predict, "kestrel-predict", {model, stack_test, "--label-col", "Status", "--metrics", "--json"});
        REQUIRE_MESSAGE(metrics.code == 0, metrics.err);
        CHECK(Json::parse(metrics.out)["accuracy"].get<double>() > 0.75);
        // The flag needs --stack.
        auto alone = run(run_auto, "kestrel-auto", {stack_train, "--label-col", "Status", "--stack-features", "--max-evals", "1"});
        CHECK(alone.code == 1);
        CHECK(alone.err.find("--stack") != std::string::npos);
    }

    TEST_CASE("kestrel-auto --stack-members without --stack is a usage error") {
        auto r = run(run_auto, "kestrel-auto", {stack_train, "--label-col", "Status", "--stack-members", "3", "--max-evals", "1"});
        CHECK(r.code == 1);
        CHECK(r.err.find("--stack") != std::string::npos);
    }
}

}  // namespace cli_auto_stack_cli_test
}  // namespace
