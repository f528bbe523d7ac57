// kestrel-auto --ensemble (docs/auto.md#ensemble) on the raw penguins table: with
// --refit-full the saved ensemble predicts the weighted average of its members as
// kestrel-train refits them; by default each member is its bag of fold models, and the file
// predicts the weighted average of those; it round-trips through its file, is
// byte-identical at 1 and 2 threads, is not kept when it does not beat the best single
// model, and the commands that cannot explain it say so.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "cli/proba_csv.hpp"
#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "kestrel/pipeline/model.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_auto_ensemble_cli_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::run;

namespace {
const std::string ens_train = test::repo_path("data/tables/penguins/train.csv");
const std::string ens_test = test::repo_path("data/tables/penguins/test.csv");

using test::proba_columns;

// The ensemble on penguins, scored by log loss (averaged probabilities usually lower it).
test::Captured auto_ensemble(const std::string& out, const std::string& threads, bool refit_full = true) {
    std::vector<std::string> args = {ens_train, "--label-col", "species", "--models", "tree,forest",
                                     "--metric", "log_loss", "--max-evals", "9", "--folds", "3", "--seed", "1",
                                     "--threads", threads, "--ensemble", "--ensemble-size", "10", "-o", out, "--json",
                                     "--confirm-leaders", "0"};  // the held-out rule alone (the next test has both)
    if (refit_full) args.push_back("--refit-full");
    return run(run_auto, "kestrel-auto", args);
}
}  // namespace

TEST_SUITE("cli.auto") {
    TEST_CASE("kestrel-auto --ensemble --refit-full: the saved ensemble's --proba is the weighted average of kestrel-train's members") {
        test::ScratchDir dir("auto_ensemble");
        const auto model = dir / "ens.json";
        auto r = auto_ensemble(model, "1");
        REQUIRE_MESSAGE(r.code == 0, r.err);
        const Json j = Json::parse(r.out);
        const Json& e = j["ensemble"];
        CHECK(e["rounds"] == 10);
        // Both on the search's folds (a confirmed winner's mean is over its fresh splits).
        double single = 0;
        for (const Json& v : j["best"]["fold_scores"]) single += v.get<double>() / 3;
        CHECK(e["best_single_mean"].get<double>() == doctest::Approx(single).epsilon(1e-12));
        REQUIRE(e["kept"] == true);  // lower log loss than the best single model on the folds
        CHECK(e["mean"].get<double>() < e["best_single_mean"].get<double>());
        REQUIRE(e["members"].size() >= 2);

        const Json saved = Json::parse(test::slurp(model));
        CHECK(saved["model"] == "ensemble");
        CHECK(saved["version"] == 6);  // the ensemble, and the label column (read from a CSV)
        CHECK(saved["preprocessing"].empty());
        CHECK(saved["provenance"]["auto"]["cv_mean"] == e["mean"]);
        const Json& members = saved["state"]["members"];
        REQUIRE(members.size() == e["members"].size());

        // Each member refit by kestrel-train with its parameters and the run's seed.
        std::vector<std::vector<std::vector<double>>> member_proba;
        std::vector<double> weights;
        for (std::size_t m = 0; m < members.size(); ++m) {
            const Json& listed = e["members"][m];
            CHECK(members[m]["model"]["model"] == listed["model"]);
            CHECK(members[m]["weight"] == listed["weight"]);
            const auto trained = dir / ("member" + std::to_string(m) + ".json");
            std::vector<std::string> args = {"-m", listed["model"], ens_train, "--label-col", "species", "--seed", "1",
                                             "-o", trained, "-q"};
            for (const auto& [name, value] : listed["params"].items()) {
                if (name == "scale") args.insert(args.end(), {"--scale", value.get<std::string>()});
                else args.insert(args.end(), {"-p", name + "=" + value.get<std::string>()});
            }
            auto t = run(run_train, "kestrel-train", args);
            REQUIRE_MESSAGE(t.code == 0, t.err);
            auto p = run(run_predict, "kestrel-predict", {trained, ens_test, "--label-col", "species", "--proba"});
            REQUIRE_MESSAGE(p.code == 0, p.err);
            member_proba.push_back(proba_columns(p.out));
            weights.push_back(listed["weight"].get<double>());
        }
        auto p = run(run_predict, "kestrel-predict", {model, ens_test, "--label-col", "species", "--proba"});
        REQUIRE_MESSAGE(p.code == 0, p.err);
        const auto got = proba_columns(p.out);
        REQUIRE(got.size() == 69);
        for (std::size_t i = 0; i < got.size(); ++i) {
            REQUIRE(got[i].size() == 3);
            for (std::size_t c = 0; c < 3; ++c) {
                double expected = 0;
                for (std::size_t m = 0; m < weights.size(); ++m) expected += weights[m] * member_proba[m][i][c];
                CHECK(std::abs(got[i][c] - expected) <= 1e-12);
            }
        }
        // --metrics and streaming in small chunks give what the whole file gives.
        auto metrics = run(run_predict, "kestrel-predict", {model, ens_test, "--label-col", "species", "--metrics", "--json"});
        REQUIRE_MESSAGE(metrics.code == 0, metrics.err);
        CHECK(Json::parse(metrics.out)["accuracy"].get<double>() > 0.9);
        auto chunked = run(run_predict, "kestrel-predict",
                           {model, ens_test, "--label-col", "species", "--proba", "--chunk-bytes", "300", "--threads", "2"});
        REQUIRE_MESSAGE(chunked.code == 0, chunked.err);
        CHECK(chunked.out == p.out);

        // Load and save again: the same bytes, and the same predictions.
        const auto again = dir / "again.json";
        Model::load(model).save(again);
        CHECK(test::slurp(again) == test::slurp(model));

        // Model-agnostic explanations work; per-feature contributions do not exist.
        auto imp = run(run_explain, "kestrel-explain", {model, ens_test, "--label-col", "species", "--importance", "--json"});
        CHECK_MESSAGE(imp.code == 0, imp.err);
        auto pdp = run(run_explain, "kestrel-explain",
                       {model, ens_test, "--label-col", "species", "--pdp", "bill_length_mm", "--json"});
        CHECK_MESSAGE(pdp.code == 0, pdp.err);
        auto contrib = run(run_predict, "kestrel-predict", {model, ens_test, "--label-col", "species", "--contrib"});
        CHECK(contrib.code == 1);
        CHECK(contrib.err.find("an ensemble (kestrel-auto --ensemble) gives no feature contributions") != std::string::npos);
        auto shap = run(run_explain, "kestrel-explain", {model, ens_test, "--label-col", "species", "--shap-summary"});
        CHECK(shap.code == 1);
        CHECK(shap.err.find("--shap-summary") != std::string::npos);
        auto tree = run(run_predict, "kestrel-predict", {model, ens_test, "--label-col", "species", "--explain"});
        CHECK(tree.code == 1);
    }

    TEST_CASE("kestrel-auto --ensemble: each member is its bag, and kestrel-predict gives the weighted average of the fold models") {
        test::ScratchDir dir("auto_ensemble_bagged");
        const auto model = dir / "ens.json";
        auto r = auto_ensemble(model, "2", false);
        REQUIRE_MESSAGE(r.code == 0, r.err);
        const Json j = Json::parse(r.out);
        const Json& e = j["ensemble"];
        REQUIRE(e["kept"] == true);
        CHECK(j["fold_models"] == 3);
        const Json saved = Json::parse(test::slurp(model));
        CHECK(saved["model"] == "ensemble");
        CHECK(saved["provenance"]["auto"]["saved"] == Json({{"bagged", true}, {"fold_models", 3}}));
        const Json& members = saved["state"]["members"];
        // Three fold models per selected member, in the selection's order, each w / 3.
        REQUIRE(members.size() == 3 * e["members"].size());
        std::vector<std::vector<std::vector<double>>> fold_proba;
        std::vector<double> weights;
        for (std::size_t m = 0; m < members.size(); ++m) {
            const Json& listed = e["members"][m / 3];
            const Json& fold_model = members[m]["model"];
            CHECK(fold_model["model"] == listed["model"]);
            CHECK(fold_model["provenance"]["auto"]["rank"] == listed["rank"]);
            CHECK(fold_model["provenance"]["auto"]["fold"] == std::to_string(m % 3 + 1) + "/3");
            CHECK(members[m]["weight"].get<double>() == doctest::Approx(listed["weight"].get<double>() / 3).epsilon(1e-15));
            // Each fold model fitted on about two thirds of the 275 training rows.
            CHECK(fold_model["provenance"]["rows"].get<int>() < 200);
            const auto alone = dir / ("fold_model" + std::to_string(m) + ".json");
            std::ofstream(alone) << fold_model.dump();
            auto p = run(run_predict, "kestrel-predict", {alone, ens_test, "--label-col", "species", "--proba"});
            REQUIRE_MESSAGE(p.code == 0, p.err);
            fold_proba.push_back(proba_columns(p.out));
            weights.push_back(members[m]["weight"].get<double>());
        }
        auto p = run(run_predict, "kestrel-predict", {model, ens_test, "--label-col", "species", "--proba"});
        REQUIRE_MESSAGE(p.code == 0, p.err);
        const auto got = proba_columns(p.out);
        REQUIRE(got.size() == 69);
        for (std::size_t i = 0; i < got.size(); ++i)
            for (std::size_t c = 0; c < 3; ++c) {
                double expected = 0;
                for (std::size_t m = 0; m < weights.size(); ++m) expected += weights[m] * fold_proba[m][i][c];
                CHECK(std::abs(got[i][c] - expected) <= 1e-12);
            }
    }

    TEST_CASE("kestrel-auto -o without --ensemble: the winner's bag, and kestrel-predict gives the mean of its fold models") {
        test::ScratchDir dir("auto_single_bag");
        const auto model = dir / "best.json";
        auto r = run(run_auto, "kestrel-auto",
                     {ens_train, "--label-col", "species", "--models", "logistic,forest", "--max-evals", "4", "--folds",
                      "5", "--seed", "3", "-o", model, "--json"});
        REQUIRE_MESSAGE(r.code == 0, r.err);
        const Json j = Json::parse(r.out);
        CHECK(j["fold_models"] == 5);
        const Json saved = Json::parse(test::slurp(model));
        const Json& members = saved["state"]["members"];
        REQUIRE(members.size() == 5);
        std::vector<std::vector<std::vector<double>>> fold_proba;
        for (std::size_t m = 0; m < members.size(); ++m) {
            CHECK(members[m]["weight"] == 0.2);
            CHECK(members[m]["model"]["model"] == j["best"]["model"]);
            CHECK(members[m]["model"]["provenance"]["auto"]["params"] == j["best"]["params"]);
            const auto alone = dir / ("fold" + std::to_string(m) + ".json");
            std::ofstream(alone) << members[m]["model"].dump();
            auto p = run(run_predict, "kestrel-predict", {alone, ens_test, "--label-col", "species", "--proba"});
            REQUIRE_MESSAGE(p.code == 0, p.err);
            fold_proba.push_back(proba_columns(p.out));
        }
        auto p = run(run_predict, "kestrel-predict", {model, ens_test, "--label-col", "species", "--proba"});
        REQUIRE_MESSAGE(p.code == 0, p.err);
        const auto got = proba_columns(p.out);
        REQUIRE(got.size() == 69);
        bool differs_from_a_fold = false;
        for (std::size_t i = 0; i < got.size(); ++i)
            for (std::size_t c = 0; c < 3; ++c) {
                double mean = 0;
                for (const auto& f : fold_proba) mean += 0.2 * f[i][c];
                CHECK(std::abs(got[i][c] - mean) <= 1e-12);
                differs_from_a_fold = differs_from_a_fold || std::abs(got[i][c] - fold_proba[0][i][c]) > 1e-9;
            }
        CHECK(differs_from_a_fold);
    }

    TEST_CASE("kestrel-auto --ensemble: byte-identical model at 1 and 2 threads under --max-evals, bagged or refit") {
        test::ScratchDir dir("auto_ensemble_threads");
        const test::PinnedDate pinned;  // the runs are seconds apart; their files record the date
        const auto one = dir / "one.json", two = dir / "two.json";
        auto bagged_one = auto_ensemble(one, "1", false);
        auto bagged_two = auto_ensemble(two, "2", false);
        REQUIRE_MESSAGE(bagged_one.code == 0, bagged_one.err);
        REQUIRE_MESSAGE(bagged_two.code == 0, bagged_two.err);
        CHECK(test::slurp(one) == test::slurp(two));
        auto a = auto_ensemble(one, "1");
        auto b = auto_ensemble(two, "2");
        REQUIRE_MESSAGE(a.code == 0, a.err);
        REQUIRE_MESSAGE(b.code == 0, b.err);
        CHECK(Json::parse(a.out)["ensemble"] == Json::parse(b.out)["ensemble"]);
        CHECK(test::slurp(one) == test::slurp(two));
    }

    TEST_CASE("kestrel-auto --ensemble: kept only when it also beats the winner's own mean on the same folds") {
        test::ScratchDir dir("auto_ensemble_winner");
        const auto model = dir / "best.json";
        auto r = run(run_auto, "kestrel-auto",
                     {ens_train, "--label-col", "species", "--models", "logistic,forest,knn", "--metric", "log_loss",
                      "--max-evals", "9", "--folds", "3", "--seed", "5", "--confirm-leaders", "0", "--ensemble",
                      "--ensemble-size", "10", "-o", model, "--json"});
        REQUIRE_MESSAGE(r.code == 0, r.err);
        const Json j = Json::parse(r.out);
        const Json& e = j["ensemble"];
        // Its held-out log loss beats the single choice replayed on the folds...
        CHECK(e["held_out_mean"].get<double>() < e["held_out_single_mean"].get<double>());
        // ...but not the winner's own mean on those folds, so the winner is saved.
        double single = 0;
        for (const Json& v : j["best"]["fold_scores"]) single += v.get<double>() / 3;
        CHECK(e["best_single_mean"].get<double>() == doctest::Approx(single).epsilon(1e-12));
        CHECK(e["held_out_mean"].get<double>() >= e["best_single_mean"].get<double>());
        CHECK(e["kept"] == false);
        CHECK(j["chosen"] == "single");
        // The winner's bag: its 3 fold models.
        const Json saved = Json::parse(test::slurp(model));
        CHECK(saved["model"] == "ensemble");
        REQUIRE(saved["state"]["members"].size() == 3);
        CHECK(saved["state"]["members"][0]["model"]["model"] == j["best"]["model"]);
    }

    TEST_CASE("kestrel-auto --ensemble that does not beat the best single model is not kept") {
        // One candidate: the ensemble is that candidate alone, equal and not better.
        test::ScratchDir dir("auto_ensemble_not_kept");
        const auto model = dir / "best.json", report = dir / "report.md";
        auto r = run(run_auto, "kestrel-auto",
                     {ens_train, "--label-col", "species", "--models", "tree", "--max-evals", "1", "--folds", "3",
                      "--ensemble", "-o", model, "--report", report, "--json"});
        REQUIRE_MESSAGE(r.code == 0, r.err);
        const Json j = Json::parse(r.out);
        CHECK(j["ensemble"]["kept"] == false);
        CHECK(j["ensemble"]["mean"] == j["best"]["mean"]);
        CHECK(j["ensemble"]["members"].size() == 1);
        const Json saved = Json::parse(test::slurp(model));
        CHECK(saved["state"]["members"].size() == 3);
        for (const auto& m : saved["state"]["members"]) CHECK(m["model"]["model"] == "tree");
        const std::string md = test::slurp(report);
        CHECK(md.find("## Ensemble") != std::string::npos);
        CHECK(md.find("not kept") != std::string::npos);
        // Text output says so too.
        auto text = run(run_auto, "kestrel-auto",
                        {ens_train, "--label-col", "species", "--models", "tree", "--max-evals", "1", "--folds", "3", "--ensemble"});
        REQUIRE(text.code == 0);
        CHECK(text.out.find("ensemble (50 rounds, pool of 1): not kept") != std::string::npos);
        // Without probabilities (linear_svm) nothing can join.
        auto none = run(run_auto, "kestrel-auto",
                        {ens_train, "--label-col", "species", "--models", "linear_svm", "--max-evals", "1", "--folds", "3",
                         "--ensemble", "--json"});
        REQUIRE_MESSAGE(none.code == 0, none.err);
        CHECK(Json::parse(none.out)["ensemble"]["kept"] == false);
        CHECK(Json::parse(none.out)["ensemble"]["note"].get<std::string>().find("probabilities") != std::string::npos);
    }

    TEST_CASE("kestrel-auto --ensemble on a LIBSVM file: gbdt candidates do not join the pool") {
        // gbdt is refit on the file read with absent entries missing; one ensemble file reads it once.
        auto r = run(run_auto, "kestrel-auto",
                     {test::repo_path("data/iris/train.libsvm"), "--models", "gbdt,logistic", "--metric", "log_loss",
                      "--max-evals", "4", "--folds", "3", "--ensemble", "--json"});
        REQUIRE_MESSAGE(r.code == 0, r.err);
        const Json j = Json::parse(r.out);
        int logistic = 0;
        for (const auto& c : j["leaderboard"]) logistic += c["model"] == "logistic" ? 1 : 0;
        CHECK(logistic == 2);  // the portfolio round by round: gbdt, logistic, gbdt, logistic
        CHECK(j["ensemble"]["pool"] == 2);
        for (const auto& m : j["ensemble"]["members"]) CHECK(m["model"] == "logistic");
    }

    TEST_CASE("kestrel-auto --ensemble refusals and broken ensemble files: one line, exit 1 or 2") {
        auto size_alone = run(run_auto, "kestrel-auto", {ens_train, "--label-col", "species", "--ensemble-size", "5", "--max-evals", "1"});
        CHECK(size_alone.code == 1);
        CHECK(size_alone.err.find("--ensemble") != std::string::npos);
        auto zero = run(run_auto, "kestrel-auto",
                        {ens_train, "--label-col", "species", "--ensemble", "--ensemble-size", "0", "--max-evals", "1"});
        CHECK(zero.code == 1);
        auto nbest = run(run_auto, "kestrel-auto",
                         {ens_train, "--label-col", "species", "--ensemble", "--ensemble-nbest", "x", "--max-evals", "1"});
        CHECK(nbest.code == 1);

        test::ScratchDir dir("auto_ensemble_broken");
        const auto model = dir / "ens.json";
        REQUIRE(auto_ensemble(model, "2").code == 0);
        const Json good = Json::parse(test::slurp(model));
        auto refused = [&](Json j, const std::string& what) {
            const auto path = dir / "broken.json";
            std::ofstream(path) << j.dump();
            auto p = run(run_predict, "kestrel-predict", {path, ens_test, "--label-col", "species"});
            CHECK_MESSAGE(p.code == 2, what);
            CHECK_MESSAGE(std::count(p.err.begin(), p.err.end(), '\n') == 1, p.err);
            CHECK_MESSAGE(p.err.find(what) != std::string::npos, p.err);
        };
        Json weights = good;
        weights["state"]["members"][0]["weight"] = 5.0;
        refused(weights, "weights must sum to 1");
        Json negative = good;
        negative["state"]["members"][0]["weight"] = -1.0;
        refused(negative, "must be a positive number");
        Json empty = good;
        empty["state"]["members"] = Json::array();
        refused(empty, "at least one member");
        Json nested = good;
        nested["state"]["members"][0]["model"] = good;
        refused(nested, "is itself an ensemble");
        Json steps = good;
        steps["preprocessing"] = Json::array({Json{{"type", "standard"}}});
        refused(steps, "an ensemble has no preprocessing of its own");
        Json params = good;
        params["params"] = {{"C", 1}};
        refused(params, "an ensemble has none");
        Json classes = good;
        classes["classes"] = Json::array({"a", "b", "c"});
        refused(classes, "classes or column names disagree");
        Json member = good;
        member["state"]["members"][0]["model"]["state"] = Json::object();
        refused(member, "ensemble member 1");
    }
}

}  // namespace cli_auto_ensemble_cli_test
}  // namespace
