// Raw tables (string categories, NA cells) through every command, run in process on the
// bundled copies of the shared tables (data/tables/, see data/README.md).
#include <doctest/doctest.h>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_tables_cli_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::run;

namespace {

std::string table(const std::string& name, const std::string& part) {
    return test::repo_path("data/tables/" + name + "/" + part + ".csv");
}

}  // namespace

TEST_SUITE("cli.tables") {
    TEST_CASE("every model trains on the raw penguins table and predicts its test file") {
        test::ScratchDir dir("tables_every_model");
        for (const auto& name : registry().names()) {
            CAPTURE(name);
            const bool classifier = registry().info(name).is_classifier();
            // Classifiers learn the species; regressors the body mass, an integer column
            // with more than 30 values (so a regression target for models doing both).
            // Two rows have no measurements at all (their label included): regressors
            // drop them; classifiers impute (or, gbdt, keep) their missing cells.
            const std::string label = classifier ? "species" : "body_mass_g";
            const std::string missing = classifier ? "auto" : "drop";
            const auto model = dir / (name + ".json");
            auto t = run(run_train, "kestrel-train",
                         {"-m", name, "--scale", "standard", table("penguins", "train"), "--label-col", label,
                          "--missing", missing, "-o", model, "--json"});
            REQUIRE_MESSAGE(t.code == 0, t.err);
            const Json summary = Json::parse(t.out);
            // island and sex; species too when it is a feature
            CHECK(summary["categorical_features"] == (classifier ? 2 : 3));
            CHECK(summary["task"] == (classifier ? "classification" : "regression"));
            auto p = run(run_predict, "kestrel-predict",
                         {model, table("penguins", "test"), "--label-col", label, "--missing", missing, "--metrics",
                          "--json", "-o", dir / (name + ".pred.csv")});
            REQUIRE_MESSAGE(p.code == 0, p.err);
            const Json metrics = Json::parse(p.out);
            CHECK(metrics.contains(classifier ? "accuracy" : "r2"));
        }
    }

    TEST_CASE("one_class ignores the label column, words too; cross-validation refuses it") {
        test::ScratchDir dir("tables_one_class");
        const auto model = dir / "oc.json";
        auto t = run(run_train, "kestrel-train",
                     {"-m", "one_class", "-p", "nu=0.2", "--scale", "standard", table("penguins", "train"),
                      "--label-col", "species", "-o", model, "--json"});
        REQUIRE_MESSAGE(t.code == 0, t.err);
        auto p = run(run_predict, "kestrel-predict", {model, table("penguins", "test"), "-o", dir / "p.csv"});
        REQUIRE_MESSAGE(p.code == 0, p.err);
        const std::string pred = test::slurp(dir / "p.csv");
        CHECK(pred.rfind("prediction\n", 0) == 0);
        CHECK(pred.find("-1\n") != std::string::npos);  // nu = 0.2: some rows fall outside
        CHECK(pred.find("\n1\n") != std::string::npos);
        const std::string refused = "model one_class ignores the labels, so held-out rows have nothing to score it against";
        auto cv = run(run_cv, "kestrel-cv", {"-m", "one_class", table("penguins", "train"), "--label-col", "species"});
        CHECK(cv.code == 1);
        CHECK(cv.err.find(refused) != std::string::npos);
        auto gs = run(run_gridsearch, "kestrel-gridsearch",
                      {"-m", "one_class", "-g", "nu=0.1,0.5", table("penguins", "train"), "--label-col", "species"});
        CHECK(gs.code == 1);
        CHECK(gs.err.find(refused) != std::string::npos);
        auto sel = run(run_select, "kestrel-select", {"-m", "one_class", table("penguins", "train"), "--label-col", "species"});
        CHECK(sel.code == 1);
        CHECK(sel.err.find(refused) != std::string::npos);
    }

    TEST_CASE("penguins: accuracy of a few models on the held-out rows") {
        test::ScratchDir dir("tables_penguins");
        for (const std::string name : {"logistic", "forest", "gbdt", "svc"}) {
            CAPTURE(name);
            const auto model = dir / (name + ".json");
            auto t = run(run_train, "kestrel-train",
                         {"-m", name, "--scale", "standard", table("penguins", "train"), "--label-col", "species", "-o",
                          model});
            REQUIRE_MESSAGE(t.code == 0, t.err);
            auto p = run(run_predict, "kestrel-predict",
                         {model, table("penguins", "test"), "--label-col", "species", "--metrics", "--json", "-o",
                          dir / "p.csv"});
            REQUIRE_MESSAGE(p.code == 0, p.err);
            // Species is nearly separable on bill and flipper measurements: 69 test rows.
            CHECK(Json::parse(p.out)["accuracy"].get<double>() >= 0.95);
        }
    }

    TEST_CASE("credit_data: cv, gridsearch and select on a table with NA cells and categories") {
        test::ScratchDir dir("tables_credit");
        const std::string train = table("credit_data", "train");
        auto cv = run(run_cv, "kestrel-cv",
                      {"-m", "logistic", "--scale", "standard", train, "--label-col", "Status", "-k", "3", "--json"});
        REQUIRE_MESSAGE(cv.code == 0, cv.err);
        const double accuracy = Json::parse(cv.out)["metrics"]["accuracy"]["mean"].get<double>();
        CHECK(accuracy > 0.75);  // the majority class ("good") is 72% of the rows
        auto gs = run(run_gridsearch, "kestrel-gridsearch",
                      {"-m", "logistic", "-g", "C=0.1,1", "--scale", "standard", train, "--label-col", "Status", "-k",
                       "3", "-o", dir / "best.json", "--json"});
        REQUIRE_MESSAGE(gs.code == 0, gs.err);
        auto sel = run(run_select, "kestrel-select",
                       {"-m", "logistic", "--scale", "standard", train, "--label-col", "Status", "-k", "3", "--json"});
        REQUIRE_MESSAGE(sel.code == 0, sel.err);
        auto gb = run(run_cv, "kestrel-cv",
                      {"-m", "gbdt", "-p", "n_estimators=30", train, "--label-col", "Status", "-k", "3", "--json"});
        REQUIRE_MESSAGE(gb.code == 0, gb.err);
        CHECK(Json::parse(gb.out)["metrics"]["accuracy"]["mean"].get<double>() > 0.75);
    }

    TEST_CASE("--encode on models that split categories natively: auto splits them, onehot and ordinal apply") {
        test::ScratchDir dir("tables_encode_native");
        const std::string train = table("penguins", "train"), test = table("penguins", "test");
        // Whether any tree of the saved forest splits on a set of categories.
        const auto category_splits = [](const Model& m) {
            const Json j = m.to_json();
            for (const Json& t : j["state"]["trees"])
                if (t.contains("category_node") && !t["category_node"].empty()) return true;
            return false;
        };
        const std::vector<std::string> inputs{"island", "bill_length_mm", "bill_depth_mm", "flipper_length_mm",
                                              "body_mass_g", "sex", "year"};
        for (const std::string model : {"forest", "tree", "adaboost", "gbdt"}) {
            for (const std::string encode : {"auto", "onehot", "ordinal"}) {
                CAPTURE(model);
                CAPTURE(encode);
                const auto file = dir / (model + "." + encode + ".json");
                std::vector<std::string> args{"-m", model, train, "--label-col", "species", "-o", file, "--json"};
                if (model != "tree") args.insert(args.end(), {"-p", "n_estimators=10"});
                if (encode != "auto") args.insert(args.end(), {"--encode", encode});
                auto t = run(run_train, "kestrel-train", args);
                REQUIRE_MESSAGE(t.code == 0, t.err);
                const Model m = Model::load(file);
                const auto kinds = m.step_kinds();
                const bool onehot = std::find(kinds.begin(), kinds.end(), "onehot") != kinds.end();
                CHECK(onehot == (encode == "onehot"));
                if (encode == "onehot") {
                    // island (3 categories) and sex (2) become 0/1 columns beside the five numbers.
                    const auto names = m.prepared_feature_names();
                    CHECK(names.size() == 10);
                    CHECK(std::find(names.begin(), names.end(), "island=Dream") != names.end());
                    CHECK(std::find(names.begin(), names.end(), "sex=male") != names.end());
                } else {
                    CHECK(m.prepared_feature_names() == inputs);
                }
                if (model == "forest") CHECK(category_splits(m) == (encode == "auto"));
                // Predictions from the raw test table, then from the model saved again.
                auto p = run(run_predict, "kestrel-predict", {file, test, "-o", dir / "p1.csv"});
                REQUIRE_MESSAGE(p.code == 0, p.err);
                const auto again = dir / "again.json";
                m.save(again);
                auto q = run(run_predict, "kestrel-predict", {again, test, "-o", dir / "p2.csv"});
                REQUIRE_MESSAGE(q.code == 0, q.err);
                CHECK(test::slurp(dir / "p1.csv") == test::slurp(dir / "p2.csv"));
            }
        }
        // The same under cross-validation and grid search (each fold encodes its training rows).
        auto cv = run(run_cv, "kestrel-cv",
                      {"-m", "forest", "-p", "n_estimators=10", "--encode", "onehot", train, "--label-col", "species",
                       "-k", "3", "--json"});
        REQUIRE_MESSAGE(cv.code == 0, cv.err);
        CHECK(Json::parse(cv.out)["metrics"]["accuracy"]["mean"].get<double>() > 0.9);
        auto gs = run(run_gridsearch, "kestrel-gridsearch",
                      {"-m", "tree", "-g", "max_depth=2,4", "--encode", "ordinal", train, "--label-col", "species", "-k",
                       "3", "-o", dir / "best.json", "--json"});
        REQUIRE_MESSAGE(gs.code == 0, gs.err);
        CHECK(Json::parse(gs.out)["best"]["mean"].get<double>() > 0.9);
        // A model without native categories: auto is one-hot, as before.
        auto lin = run(run_train, "kestrel-train",
                       {"-m", "logistic", "--scale", "standard", train, "--label-col", "species", "-o", dir / "lin.json"});
        REQUIRE_MESSAGE(lin.code == 0, lin.err);
        CHECK(Model::load(dir / "lin.json").prepared_feature_names().size() == 10);
        auto bad = run(run_train, "kestrel-train", {"-m", "forest", "--encode", "target", train, "--label-col", "species"});
        CHECK(bad.code == 1);
    }

    TEST_CASE("an integer label with many values is a regression target; LIBSVM +1 and 1 are one class") {
        test::ScratchDir dir("tables_labels");
        auto t = run(run_train, "kestrel-train",
                     {"-m", "gbdt", "-p", "n_estimators=5", test::repo_path("data/diabetes/train.csv"), "-o",
                      dir / "g.json", "--json"});
        REQUIRE_MESSAGE(t.code == 0, t.err);
        CHECK(Json::parse(t.out)["task"] == "regression");
        auto forced = run(run_train, "kestrel-train",
                          {"-m", "tree", "--task", "classification", test::repo_path("data/diabetes/train.csv"), "-o",
                           dir / "t.json", "--json"});
        REQUIRE_MESSAGE(forced.code == 0, forced.err);
        CHECK(Json::parse(forced.out)["task"] == "classification");
        // The summary says why (diabetes' label: 199 distinct whole numbers), only when the
        // task was inferred for a model that does both.
        const std::string note = "the label's 199 distinct whole numbers (more than 30) were read as a regression target";
        auto told = run(run_train, "kestrel-train",
                        {"-m", "gbdt", "-p", "n_estimators=5", test::repo_path("data/diabetes/train.csv"), "-o",
                         dir / "g2.json"});
        REQUIRE_MESSAGE(told.code == 0, told.err);
        CHECK(told.err.find(note) != std::string::npos);
        for (const std::vector<std::string>& quiet_cases :
             {std::vector<std::string>{"-m", "gbdt", "--task", "regression"}, std::vector<std::string>{"-m", "ridge"}}) {
            std::vector<std::string> args = quiet_cases;
            for (const std::string& a : {test::repo_path("data/diabetes/train.csv"), std::string("-o"), dir / "g3.json"})
                args.push_back(a);
            auto r = run(run_train, "kestrel-train", args);
            REQUIRE_MESSAGE(r.code == 0, r.err);
            CHECK(r.err.find("were read as a regression target") == std::string::npos);
        }

        const auto data = dir.file("mixed.libsvm", "+1 1:1\n1 1:2\n1.0 1:3\n-1 1:-1\n-1 1:-2\n");
        auto m = run(run_train, "kestrel-train", {"-m", "logistic", data, "-o", dir / "l.json", "--json"});
        REQUIRE_MESSAGE(m.code == 0, m.err);
        CHECK(Json::parse(m.out)["classes"] == Json::array({"-1", "1"}));
    }

    TEST_CASE("penguins: --dump-tree and --explain name the islands, not their codes") {
        test::ScratchDir dir("tables_dump_names");
        // island alone: species counts per island (Adelie, Chinstrap, Gentoo) are Biscoe
        // 36/0/99, Dream 45/55/0, Torgersen 40/0/0, so the Gini-best root sends Biscoe one
        // way and {Dream, Torgersen} the other (weighted Gini 0.4349, against 0.4927 for
        // Dream alone and 0.5545 for Torgersen alone).
        const std::vector<std::string> only_island{"--ignore-cols", "bill_length_mm,bill_depth_mm,flipper_length_mm,"
                                                                     "body_mass_g,sex,year"};
        const auto model = dir / "tree.json";
        std::vector<std::string> args{"-m", "tree", "-p", "max_depth=1", table("penguins", "train"), "--label-col",
                                      "species", "-o", model, "--dump-tree"};
        args.insert(args.end(), only_island.begin(), only_island.end());
        auto t = run(run_train, "kestrel-train", args);
        REQUIRE_MESSAGE(t.code == 0, t.err);
        // Nobody's island is missing in training, so missing values go to the heavier child
        // (140 rows against 135): the right one, and the dump says nothing of them.
        CHECK_MESSAGE(t.out == "|--- island in {Biscoe}\n"
                               "|   |--- class: Gentoo [36, 0, 99] (samples=135, impurity=0.391111)\n"
                               "|--- island not in {Biscoe}\n"
                               "|   |--- class: Adelie [85, 55, 0] (samples=140, impurity=0.477041)\n",
                      t.out);
        std::vector<std::string> pargs{model, table("penguins", "test"), "--label-col", "species", "-o",
                                       dir / "p.csv", "--explain"};
        pargs.insert(pargs.end(), only_island.begin(), only_island.end());
        auto p = run(run_predict, "kestrel-predict", pargs);
        REQUIRE_MESSAGE(p.code == 0, p.err);
        // Test rows 1 and 2 are on Biscoe and Torgersen.
        CHECK_MESSAGE(p.out.rfind("row 1: predicted Gentoo\n"
                                  "  island = Biscoe in {Biscoe} -> left\n"
                                  "  leaf 1: class: Gentoo [36, 0, 99] (samples=135, impurity=0.391111)\n"
                                  "row 2: predicted Adelie\n"
                                  "  island = Torgersen not in {Biscoe} -> right\n"
                                  "  leaf 2: class: Adelie [85, 55, 0] (samples=140, impurity=0.477041)\n",
                                  0) == 0,
                      p.out);
        // gbdt: its category sets are named too.
        std::vector<std::string> gargs{"-m", "gbdt", "-p", "n_estimators=2", table("penguins", "train"), "--label-col",
                                       "species", "-o", dir / "gbdt.json", "--dump-tree"};
        gargs.insert(gargs.end(), only_island.begin(), only_island.end());
        auto g = run(run_train, "kestrel-train", gargs);
        REQUIRE_MESSAGE(g.code == 0, g.err);
        CHECK(g.out.find("island in {") != std::string::npos);
        CHECK(g.out.find("island in {0") == std::string::npos);
        CHECK(g.out.find("island in {1") == std::string::npos);
    }

    TEST_CASE("predict-time categories: unknown ignored or an error; bad column flags are one-line errors") {
        test::ScratchDir dir("tables_unknown");
        const auto train = dir.file("t.csv", "label,colour,x\na,red,1\nb,blue,2\na,red,3\nb,blue,4\n");
        const auto test_file = dir.file("u.csv", "label,colour,x\na,red,1\nb,purple,2\n");
        const auto model = dir / "m.json";
        auto t = run(run_train, "kestrel-train", {"-m", "logistic", train, "-o", model});
        REQUIRE_MESSAGE(t.code == 0, t.err);
        auto ok = run(run_predict, "kestrel-predict", {model, test_file});
        CHECK_MESSAGE(ok.code == 0, ok.err);
        auto err = run(run_predict, "kestrel-predict", {model, test_file, "--unknown", "error"});
        CHECK(err.code == 2);
        CHECK(err.err.find("u.csv:3:2: \"purple\" in column 'colour' is a category the model never saw") !=
              std::string::npos);
        auto absent = run(run_train, "kestrel-train", {"-m", "logistic", train, "--categorical", "size", "-o", model});
        CHECK(absent.code == 2);
        CHECK(absent.err.find("--categorical names column 'size', which is not in the file") != std::string::npos);
        auto keep = run(run_train, "kestrel-train",
                        {"-m", "logistic", dir.file("n.csv", "label,x\na,1\nb,NA\na,3\nb,4\n"), "--missing", "keep",
                         "-o", model});
        CHECK(keep.code != 0);
        CHECK(keep.err.find("does not take missing values") != std::string::npos);
    }

    TEST_CASE("LIBSVM --categorical: the same models and predictions as the CSV table with those categories") {
        test::ScratchDir dir("tables_libsvm_categorical");
        // Feature 1 is a code 0..3 (absent = 0 in LIBSVM), feature 2 a number; the CSV
        // holds the same values with the codes as text, read as categories.
        std::string svm, csv = "label,code,x\n";
        for (int i = 0; i < 60; ++i) {
            const int code = (i * 7) % 4, label = (code == 1 || code == 3) != (i % 9 == 0);
            const std::string x = std::to_string(i % 5) + ".5";
            svm += std::to_string(label) + (code ? " 1:" + std::to_string(code) : std::string()) + " 2:" + x + "\n";
            csv += std::to_string(label) + "," + std::to_string(code) + "," + x + "\n";
        }
        const auto svm_file = dir.file("c.svm", svm), csv_file = dir.file("c.csv", csv);
        const auto probe = dir.file("p.svm", "1 1:3 2:1.5\n0 2:0.5\n1 1:1 2:4.5\n0 1:2 2:2.5\n");
        const auto probe_csv = dir.file("p.csv", "label,code,x\n1,3,1.5\n0,0,0.5\n1,1,4.5\n0,2,2.5\n");
        for (const std::string name : {"logistic", "gbdt"}) {
            CAPTURE(name);
            auto a = run(run_train, "kestrel-train",
                         {"-m", name, svm_file, "--categorical", "1", "-o", dir / (name + "_svm.json"), "--json"});
            REQUIRE_MESSAGE(a.code == 0, a.err);
            CHECK(Json::parse(a.out)["categorical_features"] == 1);
            auto b = run(run_train, "kestrel-train",
                         {"-m", name, csv_file, "--categorical", "code", "-o", dir / (name + "_csv.json")});
            REQUIRE_MESSAGE(b.code == 0, b.err);
            const Json from_svm = Json::parse(test::slurp(dir / (name + "_svm.json")));
            CHECK(from_svm["features"]["categories"][0] == Json::array({"0", "1", "2", "3"}));
            auto pa = run(run_predict, "kestrel-predict", {dir / (name + "_svm.json"), probe, "--proba"});
            auto pb = run(run_predict, "kestrel-predict", {dir / (name + "_csv.json"), probe_csv, "--proba"});
            REQUIRE_MESSAGE(pa.code == 0, pa.err);
            REQUIRE_MESSAGE(pb.code == 0, pb.err);
            CHECK(pa.out == pb.out);
        }
    }
}

}  // namespace cli_tables_cli_test
}  // namespace
