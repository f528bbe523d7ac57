// The model file records its training file's label column (and the columns left out):
// kestrel-predict --metrics, kestrel-explain and kestrel-select score against it, not
// against "label" or the first column (issue 51, item 1). docs/model-format.md "label".
#include <doctest/doctest.h>

#include <fstream>

#include "cli/run_in_process.hpp"
#include "cli/run_tool.hpp"
#include "common/commands.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/model.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace cli_label_column_cli_test {

using namespace kestrel;
using namespace kestrel::cli;
using kestrel::test::run;

namespace {

// score4 = 2 x1 + 3 x2 + 1 exactly on the training rows, so least squares predicts
// 6, 14, 13, 1 on the test rows (up to rounding), whose score4 is 6.5, 13, 12, 2:
// residuals -0.5, 1, 1, -1. By hand: MSE = 3.25 / 4 = 0.8125, MAE = 3.5 / 4 = 0.875,
// max error 1; the truths' mean is 8.375 and their squared deviations sum to 78.6875, so
// R^2 = 1 - 3.25 / 78.6875. The first column, district, is a numeric row id, ignored in
// training: scored against it (201..204) the MSE would be 37669.5.
const char* const kTrain =
    "district,x1,x2,score4\n101,1,2,9\n102,2,1,8\n103,3,5,22\n104,4,3,18\n105,5,0,11\n106,0,4,13\n";
const char* const kTest = "district,x1,x2,score4\n201,1,1,6.5\n202,2,3,13\n203,3,2,12\n204,0,0,2\n";
constexpr double kMse = 0.8125, kMae = 0.875, kMaxError = 1.0;
constexpr double kR2 = 1.0 - 3.25 / 78.6875;

void check_hand_metrics(const Json& m) {
    CHECK(m["n"] == 4);
    CHECK(m["mse"].get<double>() == doctest::Approx(kMse).epsilon(1e-12));
    CHECK(m["mae"].get<double>() == doctest::Approx(kMae).epsilon(1e-12));
    CHECK(m["max_error"].get<double>() == doctest::Approx(kMaxError).epsilon(1e-12));
    CHECK(m["r2"].get<double>() == doctest::Approx(kR2).epsilon(1e-12));
}

Json predict_metrics(const std::string& model, const std::string& data, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{model, data, "--metrics", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto p = run(run_predict, "kestrel-predict", args);
    REQUIRE_MESSAGE(p.code == 0, p.err);
    return Json::parse(p.out);
}

}  // namespace

TEST_SUITE("cli.label_column") {
    TEST_CASE("predict --metrics scores against the model's label column, not a numeric first column") {
        test::ScratchDir dir("label_column_first_numeric");
        const auto train = dir.file("train.csv", kTrain), test = dir.file("test.csv", kTest);
        const auto model = dir / "m.json";
        auto t = run(run_train, "kestrel-train",
                     {"-m", "least_squares", "--label-col", "score4", "--ignore-cols", "district", train, "-o", model});
        REQUIRE_MESSAGE(t.code == 0, t.err);
        const Json saved = Json::parse(test::slurp(model));
        CHECK(saved["version"] == 6);
        CHECK(saved["label"] == Json{{"name", "score4"}, {"ignored", {"district"}}});
        CHECK(Model::load(model).label_column() == LabelColumn{"score4", -1, {"district"}});

        // The same columns as in training, read whole and streamed in tiny pieces.
        check_hand_metrics(predict_metrics(model, test));
        check_hand_metrics(predict_metrics(model, test, {"--chunk-bytes", "16"}));
        // --ignore-cols given again, as the user did: the same.
        check_hand_metrics(predict_metrics(model, test, {"--ignore-cols", "district"}));
        // --label-col overrides the model's column.
        const Json other = predict_metrics(model, test, {"--label-col", "district"});
        CHECK(other["mse"].get<double>() == doctest::Approx(37669.5).epsilon(1e-9));

        // kestrel-explain's permutation importance scores against the same column: its
        // baseline, the R^2 of the unshuffled rows, is the hand-computed one.
        auto e = run(run_explain, "kestrel-explain", {model, test, "--importance", "--json"});
        REQUIRE_MESSAGE(e.code == 0, e.err);
        const Json imp = Json::parse(e.out);
        CHECK(imp["importance"]["baseline"].get<double>() == doctest::Approx(kR2).epsilon(1e-12));
    }

    TEST_CASE("a string first column and a later label: the model's label, no error") {
        test::ScratchDir dir("label_column_first_string");
        std::string train = kTrain, test = kTest;
        for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
                 {"101", "north"}, {"102", "south"}, {"103", "east"}, {"104", "west"}, {"105", "north"},
                 {"106", "south"}, {"201", "north"}, {"202", "south"}, {"203", "east"}, {"204", "west"}}) {
            auto& s = from[0] == '1' ? train : test;
            s.replace(s.find(from), from.size(), to);
        }
        const auto model = dir / "m.json";
        auto t = run(run_train, "kestrel-train",
                     {"-m", "least_squares", "--label-col", "score4", "--ignore-cols", "district",
                      dir.file("train.csv", train), "-o", model});
        REQUIRE_MESSAGE(t.code == 0, t.err);
        check_hand_metrics(predict_metrics(model, dir.file("test.csv", test)));
    }

    TEST_CASE("a data file without the label column predicts; --metrics there names --label-col") {
        test::ScratchDir dir("label_column_absent");
        const auto model = dir / "m.json";
        auto t = run(run_train, "kestrel-train",
                     {"-m", "least_squares", "--label-col", "score4", "--ignore-cols", "district",
                      dir.file("train.csv", kTrain), "-o", model});
        REQUIRE_MESSAGE(t.code == 0, t.err);
        const auto unlabelled = dir.file("x.csv", "district,x1,x2\n201,1,1\n202,2,3\n203,3,2\n204,0,0\n");
        auto p = run(run_predict, "kestrel-predict", {model, unlabelled, "-o", dir / "p.csv"});
        REQUIRE_MESSAGE(p.code == 0, p.err);
        CHECK(test::slurp(dir / "p.csv").rfind("prediction\n", 0) == 0);
        auto m = run(run_predict, "kestrel-predict", {model, unlabelled, "--metrics", "-o", dir / "p.csv"});
        CHECK(m.code == 2);
        CHECK(m.err.find("no column 'score4' (the model's label column)") != std::string::npos);
        CHECK(m.err.find("--label-col") != std::string::npos);
        // Rows to predict often hold the label column with no values: unscored, it is not read.
        const auto empty = dir.file("na.csv", "district,x1,x2,score4\n201,1,1,NA\n202,2,3,\n");
        auto na = run(run_predict, "kestrel-predict", {model, empty, "-o", dir / "p.csv"});
        REQUIRE_MESSAGE(na.code == 0, na.err);
        CHECK(test::slurp(dir / "p.csv") == "prediction\n5.999999999999998\n14\n");
        auto pdp = run(run_explain, "kestrel-explain", {model, empty, "--pdp", "x1", "--json"});
        CHECK_MESSAGE(pdp.code == 0, pdp.err);
        auto e = run(run_explain, "kestrel-explain", {model, unlabelled, "--importance"});
        CHECK(e.code == 2);
        CHECK(e.err.find("the model's is 'score4'") != std::string::npos);
        CHECK(e.err.find("--label-col") != std::string::npos);
    }

    TEST_CASE("a file without a header: the label by its field") {
        test::ScratchDir dir("label_column_no_header");
        // The CSVs above without their header and district column: x1, x2, score4.
        const auto train = dir.file("train.csv", "1,2,9\n2,1,8\n3,5,22\n4,3,18\n5,0,11\n0,4,13\n");
        const auto test = dir.file("test.csv", "1,1,6.5\n2,3,13\n3,2,12\n0,0,2\n");
        const auto model = dir / "m.json";
        auto t = run(run_train, "kestrel-train",
                     {"-m", "least_squares", "--no-header", "--label-col", "2", train, "-o", model});
        REQUIRE_MESSAGE(t.code == 0, t.err);
        CHECK(Json::parse(test::slurp(model))["label"] == Json{{"index", 2}, {"ignored", Json::array()}});
        check_hand_metrics(predict_metrics(model, test, {"--no-header"}));
        // The label's field places the features too: unscored, the predictions are those of
        // x1, x2 (not of x2 and score4 with the first field taken for the label).
        auto p = run(run_predict, "kestrel-predict", {model, test, "--no-header", "-o", dir / "p.csv"});
        REQUIRE_MESSAGE(p.code == 0, p.err);
        CHECK(test::slurp(dir / "p.csv") == "prediction\n5.999999999999998\n14\n13\n0.9999999999999964\n");
        auto m = run(run_predict, "kestrel-predict",
                     {model, dir.file("x.csv", "1,1\n2,3\n"), "--no-header", "--metrics", "-o", dir / "p.csv"});
        CHECK(m.code == 2);
        CHECK(m.err.find("the model's label was field 2") != std::string::npos);
        CHECK(m.err.find("--label-col") != std::string::npos);
    }

    TEST_CASE("a model file without the record keeps the old rule, with a warning under --metrics") {
        test::ScratchDir dir("label_column_old_file");
        const auto model = dir / "m.json", old = dir / "old.json", test = dir.file("test.csv", kTest);
        auto t = run(run_train, "kestrel-train",
                     {"-m", "least_squares", "--label-col", "score4", "--ignore-cols", "district",
                      dir.file("train.csv", kTrain), "-o", model});
        REQUIRE_MESSAGE(t.code == 0, t.err);
        Json j = Json::parse(test::slurp(model));
        j.erase("label");
        j["version"] = 4;  // least_squares' feature_mean
        std::ofstream(old) << j.dump();
        CHECK_FALSE(Model::load(old).label_column().known());
        auto p = run(run_predict, "kestrel-predict", {old, test, "--metrics", "--json", "-o", dir / "p.csv"});
        REQUIRE_MESSAGE(p.code == 0, p.err);
        CHECK(Json::parse(p.out)["mse"].get<double>() == doctest::Approx(37669.5).epsilon(1e-9));  // district
        CHECK(p.err.find("does not record its label column") != std::string::npos);
        CHECK(p.err.find("column 'district'") != std::string::npos);
        CHECK(p.err.find("--label-col") != std::string::npos);
        // Without --metrics, or with --label-col, nothing to warn about.
        auto q = run(run_predict, "kestrel-predict", {old, test, "-o", dir / "p.csv"});
        CHECK(q.err.find("label column") == std::string::npos);
        auto r = run(run_predict, "kestrel-predict",
                     {old, test, "--metrics", "--json", "--label-col", "score4", "-o", dir / "p.csv"});
        REQUIRE_MESSAGE(r.code == 0, r.err);
        CHECK(r.err.find("does not record") == std::string::npos);
        check_hand_metrics(Json::parse(r.out));
    }

    TEST_CASE("the label record: refits keep it; a malformed one is a model-file error") {
        test::ScratchDir dir("label_column_record");
        const auto train = dir.file("train.csv", kTrain);
        const auto model = dir / "g.json";
        auto g = run(run_gridsearch, "kestrel-gridsearch",
                     {"-m", "ridge", "-g", "alpha=0.001,0.01", "-k", "3", "--label-col", "score4", "--ignore-cols",
                      "district", train, "-o", model});
        REQUIRE_MESSAGE(g.code == 0, g.err);
        CHECK(Model::load(model).label_column() == LabelColumn{"score4", -1, {"district"}});

        const Json good = Json::parse(test::slurp(model));
        for (const Json& bad : {Json("score4"), Json::object(), Json{{"name", "a"}, {"index", 1}}, Json{{"name", ""}},
                                Json{{"index", -1}}, Json{{"index", "1"}}, Json{{"name", "a"}, {"ignored", "b"}},
                                Json{{"name", "a"}, {"ignored", {1}}}}) {
            CAPTURE(bad.dump());
            Json j = good;
            j["label"] = bad;
            try {
                (void)Model::from_json(j, "bad.json");
                FAIL("loaded a malformed label");
            } catch (const ModelFileError& e) {
                CHECK(std::string(e.what()).find("invalid label") != std::string::npos);
            }
        }
    }
}

}  // namespace cli_label_column_cli_test
}  // namespace
